#!/usr/bin/env bun
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
/**
 * Speed of filling the plagiarism sources, printed as JSON:
 *  - main-text extraction of HTML pages (Readability over linkedom), ms per page;
 *  - `importWarc` of a WARC file of N pages (gzip, chunked+gzip HTTP bodies) into a fresh store, pages/s, words/s;
 *  - `createDocuments` (the library's bulk path, 50 per transaction), documents/s and words/s;
 *  - the live step of a check (`addLiveSources`) against a local SearXNG-speaking server, ms per check;
 *  - phrase selection of a 25,000-word text, ms.
 * Pages are made of human texts of the shared corpus (label "human"), joined to ~800 words each.
 *
 *   bun scripts/bench-web-sources.ts [--pages 1000] [--input /work/shared/data/ai-text/train.jsonl]
 */
import { defaultConfig } from "../src/config.ts";
import { createContext } from "../src/context/index.ts";
import { createDocuments } from "../src/library/index.ts";
import { openStore } from "../src/store/db.ts";
import { countWords } from "../src/text/index.ts";
import { parseCidrList } from "../src/webhooks/cidr.ts";
import { DEFAULT_WEB_FETCH_SETTINGS, extractHtml, importWarc } from "../src/webimport/index.ts";
import { addLiveSources, distinctivePhrases } from "../src/websearch/index.ts";
import { createWorkspace } from "../src/workspaces/index.ts";

const { values } = parseArgs({
  options: {
    pages: { type: "string", default: "1000" },
    input: { type: "string", default: "/work/shared/data/ai-text/train.jsonl" },
  },
});
const PAGES = Number(values.pages);
const WORDS_PER_PAGE = 800;

const texts: string[] = [];
for (const line of (await Bun.file(values.input).text()).split("\n")) {
  if (!line.trim()) continue;
  const row = JSON.parse(line) as { text: string; label: string };
  if (row.label === "human") texts.push(row.text);
}
/** Page i: human texts joined until ~800 words, a different mix for every page. */
function pageText(i: number): string {
  const parts: string[] = [];
  let words = 0;
  for (let j = 0; words < WORDS_PER_PAGE; j++) {
    const text = texts[(i * 7 + j * 13) % texts.length] as string;
    parts.push(text);
    words += countWords(text);
  }
  return parts.join("\n\n");
}
const html = (i: number, text: string) =>
  `<!doctype html><html><head><title>Page ${i}</title><script>window.analytics = {};</script></head><body>` +
  `<header><a href="/">Site</a><nav><a href="/a">Archive</a> <a href="/b">About</a> <a href="/c">Contact</a></nav></header>` +
  `<main><article><h1>Page ${i}</h1>${text
    .split("\n\n")
    .map((p) => `<p>${p}</p>`)
    .join("")}</article><aside>Related: other pages you may like</aside></main>` +
  `<footer>Copyright, cookie settings, imprint</footer></body></html>`;

const pages = Array.from({ length: PAGES }, (_, i) => pageText(i));
const htmlPages = pages.map((text, i) => html(i, text));
const totalWords = pages.reduce((sum, text) => sum + countWords(text), 0);

// 1. extraction
const extractSample = htmlPages.slice(0, Math.min(200, PAGES));
let started = performance.now();
for (const page of extractSample) extractHtml(page);
const extractMsPerPage = (performance.now() - started) / extractSample.length;

// 2. WARC import
const dir = mkdtempSync(join(tmpdir(), "bench-web-"));
const warcPath = join(dir, "crawl.warc.gz");
const enc = new TextEncoder();
const members = htmlPages.map((page, i) => {
  const body = gzipSync(enc.encode(page));
  const chunkedBody = Buffer.concat([
    enc.encode(`${body.byteLength.toString(16)}\r\n`),
    body,
    enc.encode("\r\n0\r\n\r\n"),
  ]);
  const http = Buffer.concat([
    enc.encode(
      "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nTransfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n\r\n",
    ),
    chunkedBody,
  ]);
  const header =
    `WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://bench.example/page/${i}\r\n` +
    `WARC-Date: 2026-11-01T00:00:00Z\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: ${http.byteLength}\r\n\r\n`;
  return gzipSync(Buffer.concat([enc.encode(header), http, enc.encode("\r\n\r\n")]));
});
writeFileSync(warcPath, Buffer.concat(members));
const warcBytes = Bun.file(warcPath).size;
const store = openStore(join(dir, "data"));
const memoryBefore = process.memoryUsage().rss;
started = performance.now();
const summary = await importWarc(store, warcPath, DEFAULT_WEB_FETCH_SETTINGS, { now: () => Date.now() });
const warcSeconds = (performance.now() - started) / 1000;
const imported = summary.outcomes.filter((o) => o.ok).length;

// 3. library bulk add
const ctx = createContext({ store, config: defaultConfig({ dataDir: store.dataDir }) });
const workspaceId = createWorkspace(ctx, { name: "bench", plan: "team" }).id;
started = performance.now();
for (let i = 0; i < PAGES; i += 50) {
  createDocuments(
    store,
    workspaceId,
    pages.slice(i, i + 50).map((text, j) => ({ title: `Doc ${i + j}`, text })),
    ctx.clock(),
  );
}
const librarySeconds = (performance.now() - started) / 1000;

// 4. the live step against a local provider with 8 result pages (fetch, extract, index); a fresh text each run
let base = "";
const provider = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(request): Response {
    const url = new URL(request.url);
    if (url.pathname === "/search") {
      const run = url.searchParams.get("q")?.length ?? 0;
      return Response.json({
        results: Array.from({ length: 8 }, (_, k) => ({
          url: `${base}/p/${run}-${k}-${Math.random()}`,
          title: "r",
        })),
      });
    }
    const k = Number(url.pathname.split("-")[1] ?? 0);
    return new Response(htmlPages[k % htmlPages.length], { headers: { "content-type": "text/html" } });
  },
});
base = `http://127.0.0.1:${provider.port}`;
const liveRuns: number[] = [];
for (let run = 0; run < 10; run++) {
  const text = pages[(run * 31) % pages.length] as string;
  const t0 = performance.now();
  await addLiveSources(
    store,
    text,
    { excludeQuotes: true, excludeUrls: [] },
    {
      settings: {
        searchUrl: base,
        queries: 6,
        resultsPerQuery: 3,
        maxPages: 8,
        refreshAfterMs: 0,
        fetch: { ...DEFAULT_WEB_FETCH_SETTINGS, allowNetworks: parseCidrList("127.0.0.0/8", "bench") },
      },
      now: ctx.clock,
    },
  );
  liveRuns.push(performance.now() - t0);
}
provider.stop(true);
liveRuns.sort((a, b) => a - b);

// 5. phrase selection over 25,000 words
const long = pages.join("\n\n").split(/\s+/).slice(0, 25_000).join(" ");
started = performance.now();
distinctivePhrases(long, { count: 6 });
const phrasesMs = performance.now() - started;

const memoryAfter = process.memoryUsage().rss;
store.close();
rmSync(dir, { recursive: true, force: true });

const round = (n: number, digits = 1) => Number(n.toFixed(digits));
console.log(
  JSON.stringify(
    {
      pages: PAGES,
      words: totalWords,
      extract_ms_per_page: round(extractMsPerPage, 2),
      warc: {
        file_mb: round(warcBytes / 1e6, 2),
        imported,
        seconds: round(warcSeconds, 2),
        pages_per_s: round(imported / warcSeconds),
        words_per_s: Math.round(totalWords / warcSeconds),
      },
      library_add: {
        documents_per_s: round(PAGES / librarySeconds),
        words_per_s: Math.round(totalWords / librarySeconds),
      },
      live_step_ms: { p50: round(liveRuns[5] ?? 0), max: round(liveRuns.at(-1) ?? 0), pages_per_check: 8 },
      phrases_25k_words_ms: round(phrasesMs, 2),
      rss_growth_mb: round((memoryAfter - memoryBefore) / 1e6),
    },
    null,
    2,
  ),
);
