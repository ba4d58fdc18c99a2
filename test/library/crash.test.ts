import { afterEach, describe, expect, test } from "bun:test";
import { createKey } from "../../src/keys/index.ts";
import { openStore } from "../../src/store/db.ts";
import { createWorkspace } from "../../src/workspaces/index.ts";
import { contextOver, tempDataDir } from "../support/harness.ts";
import { type ServerProcess, startServerProcess } from "../support/processes.ts";
import { GLACIER_SOURCE, OWN_WORDS, page, startSearchProvider } from "./support.ts";

/**
 * DESIGN invariant 4 with a live source: a real `textscan serve` is killed with SIGKILL while its worker is
 * inside a plagiarism check (the search provider holds the request open, so the scan is `processing`). A server
 * started again on the same data directory takes the scan over once the dead worker's lease expires, and the
 * check, with the provider now answering, completes with the web source found.
 */
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function prepare() {
  const { dir, cleanup } = tempDataDir();
  cleanups.push(cleanup);
  const store = openStore(dir);
  try {
    const ctx = contextOver(store);
    const workspace = createWorkspace(ctx, { name: "Crash", plan: "team", credits: 100_000 });
    const { key } = createKey(ctx, { workspaceId: workspace.id });
    return { dir, key };
  } finally {
    store.close();
  }
}

async function serve(dir: string, searchUrl: string, leaseMs: number): Promise<ServerProcess> {
  const server = await startServerProcess(dir, {
    env: {
      TEXTSCAN_SEARCH_URL: searchUrl,
      TEXTSCAN_WEB_ALLOW_NETWORKS: "127.0.0.0/8",
      TEXTSCAN_JOB_LEASE_MS: String(leaseMs),
      TEXTSCAN_WORKERS: "1",
      TEXTSCAN_DETECT_THREADS: "1",
    },
  });
  cleanups.push(() => (server.proc.exitCode === null ? server.stop("SIGKILL") : undefined));
  return server;
}

const getScan = async (server: ServerProcess, key: string, id: string) =>
  (await (
    await fetch(`${server.url}/api/v1/scans/${id}`, { headers: { authorization: `Bearer ${key}` } })
  ).json()) as { status: string; result: { sources: Array<{ type: string; url: string | null }> } | null };

async function waitForStatus(
  server: ServerProcess,
  key: string,
  id: string,
  wanted: string,
  timeoutMs: number,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const scan = await getScan(server, key, id);
    if (scan.status === wanted) return scan;
    if (Date.now() > deadline)
      throw new Error(`scan still ${scan.status}, wanted ${wanted}\n${server.output()}`);
    await Bun.sleep(100);
  }
}

describe("kill -9 mid-job", () => {
  test("a scan whose server died inside the live search is finished by the restarted server", async () => {
    const provider = startSearchProvider();
    cleanups.push(() => provider.stop());
    provider.pages.set("/glaciers", page("Retreating glaciers", GLACIER_SOURCE));
    provider.mode = "hold";
    const { dir, key } = prepare();

    // The first server's lease is short too: the lease a claim records is the claiming server's.
    const first = await serve(dir, provider.url, 2_000);
    const res = await fetch(`${first.url}/api/v1/plagiarism`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ text: `${OWN_WORDS} ${GLACIER_SOURCE}` }),
    });
    expect(res.status).toBe(202);
    const scan = (await res.json()) as { id: string; credits_used: number };
    await provider.searched();
    expect((await getScan(first, key, scan.id)).status).toBe("processing");

    first.proc.kill("SIGKILL");
    await first.proc.exited;
    expect(first.proc.signalCode).toBe("SIGKILL");

    provider.mode = "answer";
    const second = await serve(dir, provider.url, 1_000);
    const done = await waitForStatus(second, key, scan.id, "completed", 20_000);
    expect(done.result?.sources).toContainEqual(
      expect.objectContaining({ type: "web", url: `${provider.url}/glaciers` }),
    );
    expect(provider.pageHits.get("/glaciers")).toBe(1);

    // Charged once, never refunded; exactly one terminal event; two attempts (the dead one and the takeover).
    await second.stop();
    const store = openStore(dir);
    try {
      const row = store.sqlite.query("SELECT attempts FROM scans WHERE id = ?").get(scan.id) as {
        attempts: number;
      };
      expect(row.attempts).toBe(2);
      const events = store.sqlite.query("SELECT type FROM events WHERE scan_id = ?").all(scan.id) as Array<{
        type: string;
      }>;
      expect(events.map((e) => e.type)).toEqual(["scan.completed"]);
      const ledger = store.sqlite
        .query("SELECT delta, reason FROM credit_ledger WHERE scan_id = ?")
        .all(scan.id) as Array<{
        delta: number;
        reason: string;
      }>;
      expect(ledger).toEqual([{ delta: -scan.credits_used, reason: "scan_charge" }]);
    } finally {
      store.close();
    }
  }, 60_000);
});
