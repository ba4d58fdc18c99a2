/**
 * Replays the security review's gateway findings against a real server (the binary when built, else
 * `bun src/main.ts`) over loopback and prints the figures as JSON:
 * - finding 1: the answer time of an unauthenticated 120 KB body nested 20,000 deep sent with `Host: x` to
 *   /zz/api/v1/detect, and of the same body sent with a key to /api/v1/detect; a 60-word detect of another
 *   workspace timed right after, next to one timed before (the ratio shows whether anyone else was slowed);
 * - finding 7: the server's RSS before and after 600 unauthenticated 4 MiB uploads to a path outside /api/v1.
 * Usage: bun scripts/bench-hostile-gateway.ts [--binary dist/textscan] [--uploads 600]
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { defaultConfig } from "../src/config.ts";
import { createContext } from "../src/context/index.ts";
import { silentLogger } from "../src/context/log.ts";
import { createKey } from "../src/keys/index.ts";
import { openStore } from "../src/store/db.ts";
import { createWorkspace } from "../src/workspaces/index.ts";

const { values: args } = parseArgs({
  options: { binary: { type: "string" }, uploads: { type: "string", default: "600" } },
});
const REPO = new URL("../", import.meta.url).pathname;
const binary = args.binary ?? (existsSync(join(REPO, "dist/textscan")) ? join(REPO, "dist/textscan") : null);

const dir = mkdtempSync(join(tmpdir(), "textscan-hostile-"));
const store = openStore(dir);
const ctx = createContext({ store, logger: silentLogger, config: defaultConfig({ dataDir: dir }) });
const keys = [0, 1].map((i) => {
  const ws = createWorkspace(ctx, { name: `ws${i}`, credits: 1_000_000 });
  return createKey(ctx, { workspaceId: ws.id, rateLimit: 100_000 }).key;
});
store.close();

const cmd = binary ? [binary] : [process.execPath, join(REPO, "src/main.ts")];
const proc = Bun.spawn([...cmd, "serve", "--port", "0", "--data-dir", dir, "--workers", "0"], {
  stdout: "pipe",
  stderr: "pipe",
  env: { ...process.env, TEXTSCAN_LOG_FORMAT: "json" },
});
let log = "";
// The start-up line: structured on stderr now; "listening on URL" on stdout in builds before the logger.
const url = await new Promise<string>((resolve) => {
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) {
      log += new TextDecoder().decode(chunk);
      const match = log.match(/"address":"(http:\/\/[^"]+)"|listening on (http:\/\/\S+)/);
      const found = match?.[1] ?? match?.[2];
      if (found) resolve(found);
    }
  };
  void pump(proc.stdout);
  void pump(proc.stderr);
});
const { hostname, port } = new URL(url);

/** Sends raw bytes and resolves with the time until the answer's first bytes, in ms. */
function rawTimed(bytes: string | Uint8Array): Promise<number> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    socket.once("data", () => {
      resolve(performance.now() - started);
      socket.destroy();
    });
    socket.once("error", () => resolve(performance.now() - started));
  });
}

const rss = () => {
  const status = readFileSync(`/proc/${proc.pid}/status`, "utf8");
  return Math.round(Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0) / 1024);
};

const text60 = Array.from({ length: 60 }, (_, i) => `word${i % 17} plain`).join(" ");
const detect60 = async () => {
  const started = performance.now();
  await fetch(`${url}/api/v1/detect`, {
    method: "POST",
    headers: { authorization: `Bearer ${keys[1]}`, "content-type": "application/json" },
    body: JSON.stringify({ text: text60, sentences: false }),
  });
  return performance.now() - started;
};

await detect60(); // warm
const otherBefore = await detect60();
const deep = `{"text":${"[".repeat(20_000)}${"]".repeat(20_000)}}`.padEnd(120_000, " ");
const hostX = await rawTimed(
  `POST /zz/api/v1/detect HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${deep.length}\r\n\r\n${deep}`,
);
const withKey = await rawTimed(
  `POST /api/v1/detect HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${keys[0]}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${deep.length}\r\n\r\n${deep}`,
);
const otherAfter = await detect60();

const rssBefore = rss();
const body = new Uint8Array(4 * 1024 * 1024).fill(120);
await Promise.all(
  Array.from({ length: Number(args.uploads) }, () =>
    rawTimed(
      Buffer.concat([
        Buffer.from(`POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${body.length}\r\n\r\n`),
        body,
      ]),
    ),
  ),
);
const rssAfter = rss();

console.log(
  JSON.stringify(
    {
      server: binary ? "binary" : "bun src/main.ts",
      finding1_deep_body_host_x_ms: Math.round(hostX * 10) / 10,
      finding1_deep_body_with_key_ms: Math.round(withKey * 10) / 10,
      other_tenant_detect_60_words_ms: { before: Math.round(otherBefore), after: Math.round(otherAfter) },
      finding7_rss_mb: {
        before: rssBefore,
        after_unauthenticated_4mib_posts: rssAfter,
        posts: Number(args.uploads),
      },
    },
    null,
    2,
  ),
);
proc.kill();
await proc.exited;
rmSync(dir, { recursive: true, force: true });
