import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Config, defaultConfig } from "../../src/config.ts";
import { type ContextOptions, createContext, type ServiceContext } from "../../src/context/index.ts";
import { type Logger, silentLogger } from "../../src/context/log.ts";
import type { Detector } from "../../src/detector/index.ts";
import { createKey } from "../../src/keys/index.ts";
import { createService, type Service } from "../../src/server.ts";
import { openStore, type Store } from "../../src/store/db.ts";
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
  /** The one service context of this app: its clock is the test's. */
  ctx: ServiceContext;
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

/**
 * A clock the test steps by hand: it starts at a fixed instant and moves only when told, so nothing depends on
 * the day the suite runs.
 */
export function manualClock(start = Date.parse("2026-11-22T12:00:00Z")): Clock & {
  set(ms: number): void;
  advance(ms: number): void;
} {
  let now = start;
  const clock = () => now;
  clock.set = (ms: number) => {
    now = ms;
  };
  clock.advance = (ms: number) => {
    now += ms;
  };
  return clock;
}

/**
 * A clock that starts at a fixed instant and runs at real speed (for tests whose timing is real: receivers,
 * retries in fractions of a second), so dates still do not depend on the day the suite runs.
 */
export function runningClock(start = Date.parse("2026-11-22T12:00:00Z")): Clock {
  const origin = performance.now();
  return () => start + Math.floor(performance.now() - origin);
}

/** A context over a fresh data directory with a manual clock (unless given), for tests of verbs. */
export function testContext(
  options: Omit<ContextOptions, "store"> & { dataDir?: string } = {},
): ServiceContext & { cleanup(): void } {
  const temp = options.dataDir === undefined ? tempDataDir() : null;
  const dir = options.dataDir ?? (temp?.dir as string);
  const ctx = createContext({
    config: options.config ?? defaultConfig({ dataDir: dir }),
    clock: options.clock ?? runningClock(),
    logger: options.logger ?? silentLogger,
    store: openStore(dir),
    ...(options.webhooks && { webhooks: options.webhooks }),
  });
  return Object.assign(ctx, {
    cleanup: () => {
      ctx.store.close();
      temp?.cleanup();
    },
  });
}

/** A service over a fresh store, as `textscan serve` builds it, but without listening or background jobs. */
export function testApp(
  options: { clock?: Clock; detector?: Detector; config?: Partial<Config>; logger?: Logger } = {},
): TestApp {
  const { dir, cleanup } = tempDataDir();
  const ctx = createContext({
    config: defaultConfig({ dataDir: dir, ...options.config }),
    clock: options.clock ?? runningClock(),
    logger: options.logger ?? silentLogger,
    store: openStore(dir),
  });
  const service = createService(ctx, options.detector ? { detector: options.detector } : {});
  return {
    service,
    ctx,
    dataDir: dir,
    workspace(opts = {}) {
      const workspace = createWorkspace(ctx, {
        name: opts.name ?? "Test workspace",
        plan: opts.plan ?? "team",
        ...(opts.credits !== undefined && { credits: opts.credits }),
      });
      const { key, view } = createKey(ctx, {
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

/** The same context, seen at a fixed instant (for a verb that must run "next month" or "after the lease"). */
export const at = (ctx: ServiceContext, ms: number): ServiceContext => ({ ...ctx, clock: () => ms });

/** A service context over a store a test opened itself (system defaults, silent log, the given clock). */
export const contextOver = (store: Store, clock: Clock = runningClock()): ServiceContext =>
  createContext({ store, clock, logger: silentLogger, config: defaultConfig({ dataDir: store.dataDir }) });
