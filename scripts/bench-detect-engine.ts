/**
 * Speed and memory of the detection engine, printed as JSON (issue 3 targets in brackets):
 * - model load at start-up [<= 300 ms], measured in this fresh process;
 * - a 1,000-word essay [p50 <= 20 ms on one core] and a 25,000-word text [<= 300 ms];
 * - heap and RSS over 10,000 calls [steady], sampled every 1,000 calls after a forced GC.
 *
 *   bun scripts/bench-detect-engine.ts [--calls 10000]
 *
 * The engine is synchronous, so everything runs on one core. The texts are human documents of the training
 * set, concatenated (the score does not matter here, only the cost).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { detect, loadDetector } from "../src/detection/index.ts";
import { countWords, tokenizeWords } from "../src/text/index.ts";

const callsFlag = process.argv.indexOf("--calls");
const CALLS = callsFlag > 0 ? Number(process.argv[callsFlag + 1]) : 10_000;
const DATA = process.env.AI_TEXT_DATA ?? join(import.meta.dir, "..", "..", "shared", "data", "ai-text");

function corpus(): string[] {
  return readFileSync(join(DATA, "train.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.includes('"label": "human"'))
    .map((l) => (JSON.parse(l) as { text: string }).text);
}

/** Whole documents joined as paragraphs until `words` words, then cut right after the last of them. */
function textOf(docs: string[], words: number): string {
  const parts: string[] = [];
  let count = 0;
  for (const d of docs) {
    parts.push(d);
    count += countWords(d);
    if (count >= words) break;
  }
  const text = parts.join("\n\n");
  const last = tokenizeWords(text)[words - 1];
  return last ? text.slice(0, last.end) : text;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}

function timed(text: string, runs: number): { p50: number; p95: number; max: number } {
  for (let i = 0; i < 3; i++) detect(text);
  const t: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    detect(text);
    t.push(performance.now() - s);
  }
  t.sort((a, b) => a - b);
  return {
    p50: round(percentile(t, 0.5)),
    p95: round(percentile(t, 0.95)),
    max: round(t[t.length - 1] ?? 0),
  };
}

function mb(bytes: number): number {
  return round(bytes / 1024 / 1024);
}

function main(): void {
  const loadStarted = performance.now();
  const { modelVersion } = loadDetector();
  const loadMs = performance.now() - loadStarted;
  const docs = corpus();
  const essay = textOf(docs, 1000);
  const long = textOf(docs, 25_000);
  const essayMs = timed(essay, 100);
  const longMs = timed(long, 10);

  const samples: Array<{ calls: number; heapMb: number; rssMb: number }> = [];
  const sample = (calls: number) => {
    Bun.gc(true);
    samples.push({ calls, heapMb: mb(process.memoryUsage().heapUsed), rssMb: mb(process.memoryUsage().rss) });
  };
  sample(0);
  const loopStarted = performance.now();
  for (let i = 1; i <= CALLS; i++) {
    detect(essay);
    if (i % 1000 === 0 || i === CALLS) sample(i);
  }
  const first = samples[1] ?? samples[0];
  const last = samples[samples.length - 1];
  console.log(
    JSON.stringify(
      {
        modelVersion,
        loadMs: round(loadMs),
        essay: { words: countWords(essay), ms: essayMs },
        long: { words: countWords(long), ms: longMs },
        memory: {
          calls: CALLS,
          seconds: round((performance.now() - loopStarted) / 1000),
          samples,
          heapGrowthMbAfterFirst1000: first && last ? round(last.heapMb - first.heapMb) : null,
        },
        targets: { loadMs: 300, essayP50Ms: 20, longP50Ms: 300 },
      },
      null,
      2,
    ),
  );
}

main();
