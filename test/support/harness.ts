import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Detector } from "../../src/detector/index.ts";
import { createKey } from "../../src/keys/index.ts";
import { createService, type Service } from "../../src/server.ts";
import { openStore } from "../../src/store/db.ts";
import type { Clock } from "../../src/time.ts";
import { createWorkspace, type WorkspaceView } from "../../src/workspaces/index.ts";

/** A fresh data directory under the system temp folder; removed by the returned cleanup. */
export function tempDataDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "textscan-test-"));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface TestWorkspace {
  workspace: WorkspaceView;
  key: string;
  keyId: string;
}

export interface TestApp {
  service: Service;
  dataDir: string;
  /** Creates a workspace and an API key for it. */
  workspace(options?: { plan?: string; credits?: number; rateLimit?: number; name?: string }): TestWorkspace;
  /** Sends a request through the full pipeline (gateway + router), no socket. */
  request(
    method: string,
    path: string,
    init?: { key?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<Response>;
  close(): Promise<void>;
}

/** A service over a fresh store, as `textscan serve` builds it, but without listening or background jobs. */
export function testApp(options: { clock?: Clock; detector?: Detector } = {}): TestApp {
  const { dir, cleanup } = tempDataDir();
  const store = openStore(dir);
  const service = createService(store, options);
  return {
    service,
    dataDir: dir,
    workspace(opts = {}) {
      const workspace = createWorkspace(store.db, {
        name: opts.name ?? "Test workspace",
        plan: opts.plan ?? "team",
        ...(opts.credits !== undefined && { credits: opts.credits }),
      });
      const { key, view } = createKey(store.db, {
        workspaceId: workspace.id,
        ...(opts.rateLimit !== undefined && { rateLimit: opts.rateLimit }),
      });
      return { workspace, key, keyId: view.id };
    },
    request(method, path, init = {}) {
      const headers: Record<string, string> = { ...(init.headers ?? {}) };
      if (init.key) headers.authorization = `Bearer ${init.key}`;
      let body: string | undefined;
      if (init.body !== undefined) {
        body = typeof init.body === "string" ? init.body : JSON.stringify(init.body);
        headers["content-type"] ??= "application/json";
      }
      return service.fetch(new Request(`http://localhost${path}`, { method, headers, body }));
    },
    async close() {
      await service.stop();
      cleanup();
    },
  };
}

/** A text of exactly `words` words made of varied ordinary sentences. */
export function essay(words: number, seed = 0): string {
  const pool = [
    "The committee met on Tuesday to review the budget for the coming year.",
    "Several members raised concerns about the cost of the new library wing.",
    "After a long debate, they agreed to postpone the final vote until spring.",
    "Local residents had mixed feelings about the proposal and its timing.",
    "Some argued that the town needed more parking far more than more books.",
    "Others pointed out that the old building had been falling apart for years.",
    "In the end, the mayor promised to hold a public meeting in March.",
    "Nobody expected the turnout to be as large as it eventually was.",
  ];
  const out: string[] = [];
  let i = seed;
  while (out.length < words) {
    const sentence = pool[i % pool.length] ?? "";
    for (const w of sentence.split(" ")) {
      if (out.length < words) out.push(w);
    }
    i++;
  }
  return out.join(" ");
}

/**
 * A response body as loosely typed JSON: tests pin its shape with assertions, not with types.
 */
// biome-ignore lint/suspicious/noExplicitAny: response bodies in tests are checked by assertions, not types.
export type JsonBody = any;

export async function json(res: Response | Promise<Response>): Promise<JsonBody> {
  return (await res).json();
}
