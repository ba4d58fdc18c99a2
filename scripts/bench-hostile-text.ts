/**
 * Replays the security review's text findings through the full request pipeline (in process) and prints the
 * figures as JSON: credits billed for 1,000 hyphen-joined words (finding 2), the answer and peak RSS for 40
 * "words" of U+FDFA in a 4 MB body (finding 3), and bytes stored per credit for a 25,000-word detect (finding 4).
 * Usage: bun scripts/bench-hostile-text.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultConfig } from "../src/config.ts";
import { createContext } from "../src/context/index.ts";
import { silentLogger } from "../src/context/log.ts";
import { createKey } from "../src/keys/index.ts";
import { createService } from "../src/server.ts";
import { openStore } from "../src/store/db.ts";
import { createWorkspace } from "../src/workspaces/index.ts";

const dir = mkdtempSync(join(tmpdir(), "textscan-hostile-text-"));
const ctx = createContext({
  store: openStore(dir),
  logger: silentLogger,
  config: defaultConfig({ dataDir: dir }),
});
const service = createService(ctx);
const ws = createWorkspace(ctx, { name: "bench", plan: "team", credits: 10_000_000 });
const { key } = createKey(ctx, { workspaceId: ws.id, rateLimit: 100_000 });

const detect = async (text: string) => {
  const started = performance.now();
  const res = await service.fetch(
    new Request("http://localhost/api/v1/detect", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ text }),
    }),
  );
  const body = (await res.json()) as { id?: string; credits_used?: number; error?: { code: string } };
  return { status: res.status, body, ms: Math.round(performance.now() - started) };
};

const joined = Array.from({ length: 40 }, (_, g) =>
  Array.from({ length: 25 }, (_, i) => `word${g}n${i}`).join("-"),
).join(" ");
const finding2 = await detect(joined);

let peak = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 5);
const rssBefore = process.memoryUsage().rss;
const ligatures = Array.from({ length: 40 }, () => "\uFDFA".repeat(26_000)).join(" ");
const finding3 = await detect(ligatures);
clearInterval(sampler);

const words = [
  "the",
  "committee",
  "met",
  "on",
  "Tuesday",
  "to",
  "review",
  "budget",
  "for",
  "coming",
  "year.",
];
const long = Array.from({ length: 25_000 }, (_, i) => words[i % words.length]).join(" ");
const finding4 = await detect(long);
const stored = ctx.store.sqlite
  .query(
    `SELECT length(s.text) + length(s.result) + coalesce((SELECT sum(length(e.payload)) FROM events e
     WHERE e.scan_id = s.id), 0) AS bytes FROM scans s WHERE s.id = ?`,
  )
  .get(finding4.body.id ?? "") as { bytes: number } | null;

console.log(
  JSON.stringify(
    {
      finding2_hyphen_joined_1000_words: { status: finding2.status, credits: finding2.body.credits_used },
      finding3_fdfa_4mb_body: {
        body_mb: Math.round((ligatures.length * 3) / 1e5) / 10,
        status: finding3.status,
        code: finding3.body.error?.code,
        ms: finding3.ms,
        rss_growth_mb: Math.round((peak - rssBefore) / 1e6),
      },
      finding4_25000_words: {
        status: finding4.status,
        credits: finding4.body.credits_used,
        stored_bytes: stored?.bytes,
        bytes_per_credit: stored
          ? Math.round((stored.bytes / (finding4.body.credits_used ?? 1)) * 10) / 10
          : null,
      },
    },
    null,
    2,
  ),
);
await service.stop();
rmSync(dir, { recursive: true, force: true });
