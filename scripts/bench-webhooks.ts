#!/usr/bin/env bun
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
/**
 * Webhook delivery benchmark; prints JSON.
 *
 *   bun scripts/bench-webhooks.ts [--events 5000] [--scans 200] [--gap-ms 25]
 *
 * 1. Throughput: `--events` scan.completed events are committed to the outbox while the dispatcher is stopped,
 *    then the dispatcher (background mode, default settings) delivers them to a local receiver; deliveries/s is
 *    events / time until the last one is recorded as succeeded.
 * 2. Delay while idle: `--scans` ai_text scans are completed one at a time, `--gap-ms` apart, with the dispatcher
 *    running; the delay is from the scan's commit to the receiver reading the request.
 * The receiver runs in its own process (Bun.serve on 127.0.0.1), so it does not share the dispatcher's thread.
 * Scoring is stubbed: the server scores on worker threads, and this measures what happens after the commit.
 */
import { defaultConfig } from "../src/config.ts";
import { configureWebhooks, createContext } from "../src/context/index.ts";
import type { Detector } from "../src/detector/index.ts";
import { recordEvent } from "../src/events/outbox.ts";
import { createAiTextScan } from "../src/scans/index.ts";
import { openStore, writeTransaction } from "../src/store/db.ts";
import { parseCidrList } from "../src/webhooks/cidr.ts";
import { createDispatcher, createEndpoint } from "../src/webhooks/index.ts";
import { createWorkspace } from "../src/workspaces/index.ts";

const wallMs = () => performance.timeOrigin + performance.now();

if (process.argv.includes("--receiver")) {
  // Receiver mode: records when each event id arrived; GET /arrivals returns them.
  const arrivals: Record<string, number> = {};
  let count = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      if (request.method === "GET") return Response.json({ count, arrivals });
      const at = wallMs();
      const body = await request.text();
      const id = body.slice(7, body.indexOf('"', 7)); // {"id":"evt_..."
      arrivals[id] ??= at;
      count++;
      return new Response("ok");
    },
  });
  console.log(`port ${server.port}`);
  await new Promise(() => {});
}

const { values } = parseArgs({
  options: {
    events: { type: "string", default: "5000" },
    scans: { type: "string", default: "200" },
    "gap-ms": { type: "string", default: "25" },
  },
});
const EVENTS = Number(values.events);
const SCANS = Number(values.scans);
const GAP_MS = Number(values["gap-ms"]);

const receiverProc = Bun.spawn([process.execPath, import.meta.path, "--receiver"], {
  stdout: "pipe",
  stderr: "inherit",
});
const port = await (async () => {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of receiverProc.stdout) {
    text += decoder.decode(chunk);
    const match = text.match(/port (\d+)/);
    if (match) return Number(match[1]);
  }
  throw new Error("receiver did not start");
})();
const receiverUrl = `http://127.0.0.1:${port}`;
const arrivals = async () =>
  (await (await fetch(`${receiverUrl}/arrivals`)).json()) as {
    count: number;
    arrivals: Record<string, number>;
  };

const dir = mkdtempSync(join(tmpdir(), "textscan-bench-webhooks-"));
const store = openStore(dir);
const ctx = createContext({ store, config: defaultConfig({ dataDir: dir }) });
const rt = configureWebhooks(ctx, {
  settings: { allowNetworks: parseCidrList("127.0.0.0/8", "bench") },
});
const workspace = createWorkspace(ctx, { name: "bench", plan: "team", credits: 100_000_000 });
await createEndpoint(rt, workspace.id, { url: `${receiverUrl}/hook` });
const succeeded = store.sqlite.query<{ n: number }, []>(
  "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'succeeded'",
);

// 1. Throughput from a backlog.
writeTransaction(store.db, (tx) => {
  for (let i = 0; i < EVENTS; i++) {
    recordEvent(tx, { workspaceId: workspace.id, type: "scan.completed", data: { n: i }, now: Date.now() });
  }
});
const dispatcher = createDispatcher(rt);
const started = performance.now();
dispatcher.start();
while ((succeeded.get()?.n ?? 0) < EVENTS) await Bun.sleep(5);
const throughputS = (performance.now() - started) / 1000;

// 2. Delay from a scan's commit to its arrival, one scan at a time.
const fixed: Detector = {
  score: async (text) => ({
    human_score: 70,
    verdict: "human",
    ai_probability: 0.3,
    word_count: text.split(/\s+/).length,
    sentence_count: 1,
    readability: 60,
    language: "en",
    model_version: "bench",
  }),
  close: () => {},
};
const text = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
const committed = new Map<string, number>();
for (let i = 0; i < SCANS; i++) {
  let eventScan = "";
  const outcome = await createAiTextScan(ctx, fixed, workspace.id, {
    text,
    source: "api",
    sentences: false,
  });
  eventScan = outcome.scan.id;
  committed.set(eventScan, wallMs());
  await Bun.sleep(GAP_MS);
}
while ((succeeded.get()?.n ?? 0) < EVENTS + SCANS) await Bun.sleep(5);
await dispatcher.stop();

const eventOfScan = new Map(
  store.sqlite
    .query<{ id: string; scan_id: string }, []>("SELECT id, scan_id FROM events WHERE scan_id IS NOT NULL")
    .all()
    .map((row) => [row.scan_id, row.id]),
);
const { arrivals: arrived, count } = await arrivals();
const delays = [...committed]
  .map(([scanId, at]) => (arrived[eventOfScan.get(scanId) ?? ""] ?? Number.NaN) - at)
  .filter((d) => Number.isFinite(d))
  .sort((a, b) => a - b);
const pct = (p: number) =>
  delays[Math.min(delays.length - 1, Math.floor((p / 100) * delays.length))] ?? Number.NaN;
const round = (n: number) => Math.round(n * 100) / 100;

console.log(
  JSON.stringify(
    {
      benchmark: "webhooks",
      machine: { cpus: availableParallelism(), bun: Bun.version },
      settings: { concurrency: rt.settings.concurrency, per_endpoint: rt.settings.perEndpointConcurrency },
      throughput: {
        events: EVENTS,
        endpoints: 1,
        seconds: round(throughputS),
        deliveries_per_second: Math.round(EVENTS / throughputS),
      },
      delay_while_idle: {
        scans: SCANS,
        measured: delays.length,
        gap_ms: GAP_MS,
        p50_ms: round(pct(50)),
        p99_ms: round(pct(99)),
        max_ms: round(delays.at(-1) ?? Number.NaN),
      },
      requests_received: count,
    },
    null,
    2,
  ),
);

store.close();
receiverProc.kill();
rmSync(dir, { recursive: true, force: true });
