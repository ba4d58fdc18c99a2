import { afterEach, describe, expect, test } from "bun:test";
import { createKey } from "../../src/keys/index.ts";
import { openStore } from "../../src/store/db.ts";
import { createWorkspace } from "../../src/workspaces/index.ts";
import { contextOver, essay, tempDataDir } from "../support/harness.ts";
import { type ServerProcess, startServerProcess } from "../support/processes.ts";

/**
 * Idempotency across a crash: a real `textscan serve` is killed with SIGKILL while idempotent detect requests
 * are in flight, and started again. A client that follows the spec (retry `request_in_progress` after a short
 * pause, retry a dropped connection) must see every key complete, once, with one charge, within seconds of the
 * restart: claims of the dead process are freed when the new one starts, not after a fixed age.
 */
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const KEYS = 40;
// A lease of ten minutes: within this test only the restart's release can free the dead process's claims (a
// lease or an age-based takeover would take longer than the test allows), so completion itself is the proof.
const ENV = { TEXTSCAN_WORKERS: "0", TEXTSCAN_DETECT_THREADS: "1", TEXTSCAN_INSTANCE_LEASE_MS: "600000" };

function prepare() {
  const { dir, cleanup } = tempDataDir();
  cleanups.push(cleanup);
  const store = openStore(dir);
  try {
    const ctx = contextOver(store);
    const workspace = createWorkspace(ctx, { name: "Crash", credits: 1_000_000 });
    const { key } = createKey(ctx, { workspaceId: workspace.id, rateLimit: 100_000 });
    return { dir, key, workspaceId: workspace.id };
  } finally {
    store.close();
  }
}

interface Outcome {
  scanId: string;
  credits: number;
  completedAt: number;
}

/** Sends one idempotent detect until it succeeds, as the spec tells a client to. */
async function untilDone(
  base: () => string,
  apiKey: string,
  idempotencyKey: string,
  text: string,
  deadline: number,
): Promise<Outcome> {
  for (;;) {
    if (performance.now() > deadline) throw new Error(`${idempotencyKey} did not complete in time`);
    try {
      const res = await fetch(`${base()}/api/v1/detect`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${apiKey}`,
          "content-type": "application/json",
          "idempotency-key": idempotencyKey,
        },
        body: JSON.stringify({ text, sentences: false }),
      });
      const body = (await res.json()) as { id?: string; credits_used?: number; error?: { code: string } };
      if (res.status === 200 && body.id) {
        return { scanId: body.id, credits: body.credits_used ?? 0, completedAt: performance.now() };
      }
      if (body.error?.code !== "request_in_progress") {
        throw new Error(`${idempotencyKey}: unexpected ${res.status} ${JSON.stringify(body)}`);
      }
    } catch (error) {
      if ((error as Error).message.startsWith(idempotencyKey)) throw error;
      // The server is down (killed, not yet restarted): retry like a client would.
    }
    await Bun.sleep(100);
  }
}

describe("idempotency across a crash", () => {
  test("kill -9 under concurrent idempotent load: every key completes once, with one charge, seconds after restart", async () => {
    const { dir, key, workspaceId } = prepare();
    let server: ServerProcess = await startServerProcess(dir, { env: ENV });
    cleanups.push(() => server.stop("SIGKILL"));
    let url = server.url;
    const texts = Array.from({ length: KEYS }, (_, i) => essay(300 + i, i));
    const deadline = performance.now() + 60_000;
    const clients = texts.map((text, i) => untilDone(() => url, key, `crash-key-${i}`, text, deadline));
    // Let requests pile up behind the one detection thread, then kill the server mid-load.
    await Bun.sleep(400);
    server.proc.kill("SIGKILL");
    await server.proc.exited;
    server = await startServerProcess(dir, { env: ENV });
    const restarted = performance.now();
    url = server.url;
    const outcomes = await Promise.all(clients);

    // Every key ended with exactly one scan, and the store holds exactly one scan and one charge per key.
    const scanIds = new Set(outcomes.map((o) => o.scanId));
    expect(scanIds.size).toBe(KEYS);
    const store = openStore(dir);
    try {
      const scans = store.sqlite
        .query("SELECT id, credits_used AS credits FROM scans WHERE workspace_id = ?")
        .all(workspaceId) as Array<{ id: string; credits: number }>;
      expect(scans.length).toBe(KEYS);
      expect(new Set(scans.map((s) => s.id))).toEqual(scanIds);
      const charges = store.sqlite
        .query(
          "SELECT count(*) AS n, coalesce(sum(-delta), 0) AS spent FROM credit_ledger WHERE workspace_id = ? AND delta < 0",
        )
        .get(workspaceId) as { n: number; spent: number };
      expect(charges.n).toBe(KEYS);
      expect(charges.spent).toBe(scans.reduce((sum, s) => sum + s.credits, 0));
      const balance = store.sqlite
        .query(
          "SELECT w.balance AS balance, (SELECT sum(delta) FROM credit_ledger l WHERE l.workspace_id = w.id) AS sum FROM workspaces w WHERE w.id = ?",
        )
        .get(workspaceId) as { balance: number; sum: number };
      expect(balance.sum).toBe(balance.balance);
    } finally {
      store.close();
    }
    // Stuck keys were freed at the restart: the last key completed within a few seconds of it.
    const lastMs = Math.max(...outcomes.map((o) => o.completedAt)) - restarted;
    console.log(
      JSON.stringify({ crash_test: { keys: KEYS, last_key_done_after_restart_ms: Math.round(lastMs) } }),
    );
    expect(lastMs).toBeLessThan(15_000);
  }, 90_000);
});
