import { afterEach, describe, expect, test } from "bun:test";
import { configureWebhooks } from "../../src/context/index.ts";
import { createKey } from "../../src/keys/index.ts";
import { openStore } from "../../src/store/db.ts";
import { createEndpoint } from "../../src/webhooks/index.ts";
import { createWorkspace } from "../../src/workspaces/index.ts";
import { contextOver, essay, tempDataDir } from "../support/harness.ts";
import { type ServerProcess, startServerProcess } from "../support/processes.ts";
import { deadPort, LOOPBACK, startReceiver, verifySignature } from "./support.ts";

/**
 * At-least-once across a crash (DESIGN invariant 3): a real `textscan serve` child commits a scan and its event,
 * is killed with SIGKILL before the event is delivered, and is started again on the same data directory.
 */
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const SERVER_ENV = {
  TEXTSCAN_WEBHOOK_ALLOW_NETWORKS: "127.0.0.0/8",
  TEXTSCAN_WEBHOOK_RETRY_SCHEDULE: "1,1,1,1,1,1",
  TEXTSCAN_WEBHOOK_TIMEOUT_MS: "1000",
  TEXTSCAN_SECRET_KEY: "", // the data directory's key file, as written by the setup below
  TEXTSCAN_WORKERS: "0",
};

async function prepare(url: string) {
  const { dir, cleanup } = tempDataDir();
  cleanups.push(cleanup);
  const store = openStore(dir);
  try {
    const ctx = contextOver(store);
    const workspace = createWorkspace(ctx, { name: "Crash", credits: 100_000 });
    const { key } = createKey(ctx, { workspaceId: workspace.id });
    const rt = configureWebhooks(ctx, { settings: { allowNetworks: LOOPBACK } });
    const endpoint = await createEndpoint(rt, workspace.id, { url });
    return { dir, key, endpoint };
  } finally {
    store.close();
  }
}

async function serve(dir: string): Promise<ServerProcess> {
  const server = await startServerProcess(dir, { env: SERVER_ENV });
  cleanups.push(async () => {
    if (server.proc.exitCode === null && server.proc.signalCode === null) await server.stop();
  });
  return server;
}

async function detect(server: ServerProcess, key: string) {
  const res = await fetch(`${server.url}/api/v1/detect`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ text: essay(60), metadata: { case: "crash" } }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string };
}

async function kill9(server: ServerProcess): Promise<void> {
  server.proc.kill("SIGKILL");
  await server.proc.exited;
  expect(server.proc.signalCode).toBe("SIGKILL");
}

describe("at-least-once across kill -9", () => {
  test("committed while the receiver was down, killed before any success: delivered after the restart", async () => {
    const port = deadPort();
    const { dir, key, endpoint } = await prepare(`http://127.0.0.1:${port}/hook`);
    const first = await serve(dir);
    const scan = await detect(first, key);
    await kill9(first);

    const receiver = startReceiver(undefined, Date.now, port);
    cleanups.push(() => receiver.stop());
    const second = await serve(dir);
    await receiver.waitFor(1, 20_000);
    const got = receiver.received[0];
    if (!got) throw new Error("not delivered");
    const event = JSON.parse(got.body);
    expect(event.type).toBe("scan.completed");
    expect(event.data.id).toBe(scan.id);
    expect(event.data.metadata).toEqual({ case: "crash" });
    expect(
      verifySignature(
        got.headers["service-signature"],
        got.body,
        endpoint.secret,
        Math.floor(Date.now() / 1000),
      ),
    ).toBe(true);
    await second.stop();
  }, 60_000);

  test("killed in the middle of an attempt: the lease expires, the attempt is logged as interrupted, the event is sent again", async () => {
    let answer = false;
    const receiver = startReceiver((_request, index) =>
      index === 0 && !answer ? new Promise<Response>(() => {}) : new Response("ok"),
    );
    cleanups.push(() => receiver.stop());
    const { dir, key } = await prepare(receiver.url);
    const first = await serve(dir);
    const scan = await detect(first, key);
    await receiver.waitFor(1, 10_000); // the attempt is in flight now
    await kill9(first);
    answer = true;

    const second = await serve(dir);
    await receiver.waitFor(2, 30_000);
    const [interrupted, redelivered] = receiver.received;
    if (!interrupted || !redelivered) throw new Error("missing attempts");
    expect(redelivered.body).toBe(interrupted.body);
    expect(JSON.parse(redelivered.body).data.id).toBe(scan.id);
    expect(redelivered.headers["service-delivery"]).not.toBe(interrupted.headers["service-delivery"]);

    const endpoints = (await (
      await fetch(`${second.url}/api/v1/webhook_endpoints`, { headers: { authorization: `Bearer ${key}` } })
    ).json()) as { data: { id: string }[] };
    const endpointId = endpoints.data[0]?.id;
    let delivery: { status: string; log: { outcome: string }[] } | undefined;
    for (let i = 0; i < 50 && delivery?.status !== "succeeded"; i++) {
      await Bun.sleep(100);
      const page = (await (
        await fetch(`${second.url}/api/v1/webhook_endpoints/${endpointId}/deliveries`, {
          headers: { authorization: `Bearer ${key}` },
        })
      ).json()) as { data: { status: string; log: { outcome: string }[] }[] };
      delivery = page.data[0];
    }
    expect(delivery?.status).toBe("succeeded");
    expect(delivery?.log.map((a) => a.outcome)).toEqual(["interrupted", "succeeded"]);
    await second.stop();
  }, 60_000);
});
