/**
 * POST /api/v1/detect throughput and latency against the compiled binary over loopback, next to a bare Elysia
 * handler echoing the same body, in one run. Prints JSON.
 *
 *   bun run build && bun scripts/bench-detect.ts [--seconds 10] [--concurrency 8]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: { seconds: { type: "string", default: "10" }, concurrency: { type: "string", default: "8" } },
});
const SECONDS = Number(values.seconds);
const CONCURRENCY = Number(values.concurrency);
const REPO = new URL("../", import.meta.url).pathname;
const BINARY = join(REPO, "dist", "textscan");

async function run(cmd: string[], env: Record<string, string> = {}): Promise<string> {
  const proc = Bun.spawn(cmd, { cwd: REPO, env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  if (code !== 0) throw new Error(`${cmd.join(" ")} failed: ${err}`);
  return out;
}

async function startListening(cmd: string[]): Promise<{ url: string; stop: () => void }> {
  // textscan logs its start-up line on stderr (JSON when not on a terminal); the echo server prints on stdout.
  const proc = Bun.spawn(cmd, { cwd: REPO, stdout: "pipe", stderr: "pipe" });
  const decoder = new TextDecoder();
  let output = "";
  return new Promise((resolve, reject) => {
    const pump = async (stream: ReadableStream<Uint8Array>) => {
      for await (const chunk of stream) {
        output += decoder.decode(chunk);
        const match = output.match(
          /"address":"(http:\/\/[^"]+)"|address=(http:\/\/\S+)|listening on (http:\/\/\S+)/,
        );
        const url = match?.[1] ?? match?.[2] ?? match?.[3];
        if (url) resolve({ url, stop: () => proc.kill() });
      }
    };
    void pump(proc.stdout);
    void pump(proc.stderr);
    void proc.exited.then(() => reject(new Error(`did not start: ${output}`)));
  });
}

/** A text of n words of ordinary prose, varied so that no two requests are the same string. */
function text(words: number, salt: number): string {
  const vocabulary =
    "the committee reviewed a budget for next year while residents argued about parking and books in town halls across several counties during spring".split(
      " ",
    );
  const out: string[] = [];
  let x = salt * 7919 + 1;
  for (let i = 0; i < words; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out.push(vocabulary[x % vocabulary.length] as string);
    if (i % 15 === 14) out[out.length - 1] += ".";
  }
  return out.join(" ");
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function load(url: string, key: string | undefined, words: number) {
  const bodies = Array.from({ length: 32 }, (_, i) =>
    JSON.stringify({ text: text(words, i), sentences: true }),
  );
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (key) headers.authorization = `Bearer ${key}`;
  const send = (i: number) =>
    fetch(`${url}/api/v1/detect`, { method: "POST", headers, body: bodies[i % bodies.length] });
  for (let i = 0; i < 8; i++) await (await send(i)).arrayBuffer(); // warm-up
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + SECONDS * 1000;
  let counter = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) {
        const started = performance.now();
        const res = await send(counter++);
        await res.arrayBuffer();
        if (res.status !== 200) errors++;
        latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    requests_per_second: Math.round((latencies.length / SECONDS) * 10) / 10,
    p50_ms: Math.round(percentile(latencies, 50) * 100) / 100,
    p99_ms: Math.round(percentile(latencies, 99) * 100) / 100,
  };
}

const dataDir = mkdtempSync(join(tmpdir(), "textscan-bench-"));
try {
  const ws = JSON.parse(
    await run([
      BINARY,
      "workspace",
      "create",
      "--name",
      "bench",
      "--credits",
      "2000000000",
      "--json",
      "--data-dir",
      dataDir,
    ]),
  );
  const { key } = JSON.parse(
    await run([
      BINARY,
      "key",
      "create",
      "--workspace",
      ws.id,
      "--rate-limit",
      "100000000",
      "--json",
      "--data-dir",
      dataDir,
    ]),
  );
  const textscan = await startListening([
    BINARY,
    "serve",
    "--port",
    "0",
    "--data-dir",
    dataDir,
    "--workers",
    "0",
  ]);
  const echo = await startListening([process.execPath, join(REPO, "scripts/bench-echo-server.ts")]);
  const results: Record<string, unknown> = {};
  try {
    for (const words of [300, 3000]) {
      results[`words_${words}`] = {
        textscan_detect: await load(textscan.url, key, words),
        bare_elysia_echo: await load(echo.url, undefined, words),
      };
    }
  } finally {
    textscan.stop();
    echo.stop();
  }
  console.log(
    JSON.stringify(
      {
        benchmark: "POST /api/v1/detect over loopback",
        binary: "dist/textscan",
        seconds_per_case: SECONDS,
        concurrency: CONCURRENCY,
        cores: navigator.hardwareConcurrency,
        results,
      },
      null,
      2,
    ),
  );
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
