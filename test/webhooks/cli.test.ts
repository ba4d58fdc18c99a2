import { afterAll, describe, expect, test } from "bun:test";
import { tempDataDir } from "../support/harness.ts";
import { runCli } from "../support/processes.ts";
import { startReceiver, verifySignature } from "./support.ts";

const { dir, cleanup } = tempDataDir();
const receiver = startReceiver();
afterAll(() => {
  receiver.stop();
  cleanup();
});
const env = { TEXTSCAN_DATA_DIR: dir, TEXTSCAN_WEBHOOK_ALLOW_NETWORKS: "127.0.0.0/8" };

const cli = (args: string[], extraEnv: Record<string, string> = {}) =>
  runCli(args, { env: { ...env, ...extraEnv } });
const cliJson = async (args: string[]) => {
  const res = await cli(args);
  expect(res.stderr).toBe("");
  expect(res.code).toBe(0);
  return JSON.parse(res.stdout);
};

describe("textscan webhook ...", () => {
  let workspaceId = "";
  let endpoint: { id: string; url: string; events: string[]; status: string; secret: string };

  test("create --json prints exactly id, url, events, status and secret", async () => {
    workspaceId = (await cliJson(["workspace", "create", "--name", "Hooks", "--json"])).id;
    endpoint = await cliJson([
      "webhook",
      "create",
      "--workspace",
      workspaceId,
      "--url",
      receiver.url,
      "--events",
      "scan.completed",
      "--json",
    ]);
    expect(Object.keys(endpoint).sort()).toEqual(["events", "id", "secret", "status", "url"]);
    expect(endpoint).toMatchObject({ url: receiver.url, events: ["scan.completed"], status: "active" });
    expect(endpoint.id).toMatch(/^we_[0-9a-f]{32}$/);
    expect(endpoint.secret).toMatch(/^whsec_/);
  });

  test("list and show print the endpoint without its secret", async () => {
    const listed = await cli(["webhook", "list", "--workspace", workspaceId]);
    expect(listed.stdout).toContain(endpoint.id);
    expect(listed.stdout).toContain(receiver.url);
    const shown = await cliJson(["webhook", "show", endpoint.id, "--json"]);
    expect(shown).toMatchObject({ id: endpoint.id, status: "active", workspace_id: workspaceId });
    expect(JSON.stringify(shown)).not.toContain(endpoint.secret);
    expect(listed.stdout).not.toContain(endpoint.secret);
  });

  test("pause and resume change the status", async () => {
    expect((await cliJson(["webhook", "pause", endpoint.id, "--json"])).status).toBe("paused");
    expect((await cli(["webhook", "resume", endpoint.id])).stdout).toContain("resumed");
    expect((await cliJson(["webhook", "show", endpoint.id, "--json"])).status).toBe("active");
  });

  test("test delivers a signed webhook.test at once and prints the outcome; deliveries shows the log", async () => {
    const res = await cli(["webhook", "test", endpoint.id]);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("webhook.test");
    expect(res.stdout).toContain("succeeded HTTP 200");
    const got = receiver.received.at(-1);
    if (!got) throw new Error("nothing received");
    expect(got.headers["service-event"]).toBe("webhook.test");
    expect(
      verifySignature(
        got.headers["service-signature"],
        got.body,
        endpoint.secret,
        Math.floor(Date.now() / 1000),
      ),
    ).toBe(true);
    const page = await cliJson(["webhook", "deliveries", endpoint.id, "--json"]);
    expect(page.data[0]).toMatchObject({ event_type: "webhook.test", status: "succeeded", attempts: 1 });
    expect(page.data[0].log[0].id).toBe(got.headers["service-delivery"]);
    const text = await cli(["webhook", "deliveries", endpoint.id]);
    expect(text.stdout).toContain(got.headers["service-delivery"] ?? "missing");
  });

  test("retry sends a delivery again and prints the outcome", async () => {
    const page = await cliJson(["webhook", "deliveries", endpoint.id, "--json"]);
    const before = receiver.received.length;
    const res = await cli(["webhook", "retry", page.data[0].id, "--json"]);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ status: "succeeded", attempts: 2 });
    expect(receiver.received.length).toBe(before + 1);
  });

  test("rotate-secret prints a new secret; the next test event carries both signatures", async () => {
    const rotated = await cliJson(["webhook", "rotate-secret", endpoint.id, "--json"]);
    expect(rotated.secret).not.toBe(endpoint.secret);
    await cli(["webhook", "test", endpoint.id]);
    const got = receiver.received.at(-1);
    if (!got) throw new Error("nothing received");
    const now = Math.floor(Date.now() / 1000);
    expect(verifySignature(got.headers["service-signature"], got.body, rotated.secret, now)).toBe(true);
    expect(verifySignature(got.headers["service-signature"], got.body, endpoint.secret, now)).toBe(true);
  });

  test("a failing test event exits 1 with the reason", async () => {
    receiver.behave(() => new Response("broken", { status: 500 }));
    try {
      const res = await cli(["webhook", "test", endpoint.id]);
      expect(res.code).toBe(1);
      expect(res.stdout).toContain("failed HTTP 500");
      expect(res.stderr).toContain("HTTP 500");
    } finally {
      receiver.behave(() => new Response("ok"));
    }
  });

  test("refusals and mistakes: private URL (exit 1), unknown endpoint (exit 1), missing --url (exit 2)", async () => {
    const refused = await cli(
      ["webhook", "create", "--workspace", workspaceId, "--url", "http://127.0.0.1:9/"],
      {
        TEXTSCAN_WEBHOOK_ALLOW_NETWORKS: "",
      },
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("The URL is refused: 127.0.0.1 is a loopback address");
    const missing = await cli(["webhook", "show", "we_ffffffffffffffffffffffffffffffff"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("No webhook endpoint");
    const usage = await cli(["webhook", "create", "--workspace", workspaceId]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("--url is required");
    const badStatus = await cli(["webhook", "deliveries", endpoint.id, "--status", "lost"]);
    expect(badStatus.code).toBe(2);
  });

  test("delete removes the endpoint", async () => {
    expect((await cliJson(["webhook", "delete", endpoint.id, "--json"])).deleted).toBe(true);
    expect((await cli(["webhook", "show", endpoint.id])).code).toBe(1);
  });
});
