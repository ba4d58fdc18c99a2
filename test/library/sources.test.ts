import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { upsertWebPage } from "../../src/fingerprints/index.ts";
import { type JobDeps, runOnce } from "../../src/jobs/index.ts";
import { plagiarismCheck } from "../../src/jobs/plagiarism.ts";
import { json, type TestApp, testApp } from "../support/harness.ts";
import {
  deadPort,
  GLACIER_SOURCE,
  LIGHTHOUSE_SOURCE,
  liveSettings,
  OWN_WORDS,
  page,
  type SearchProvider,
  startSearchProvider,
} from "./support.ts";

/**
 * The plagiarism check through HTTP with the sources of this room: library documents added with
 * POST /api/v1/documents, pages of the web index, the live search provider, and the exclusions.
 */
let app: TestApp;
let provider: SearchProvider;
let now = Date.parse("2026-11-22T12:00:00Z");
beforeAll(() => {
  app = testApp({ clock: () => now });
  provider = startSearchProvider();
  provider.pages.set("/glaciers", page("Retreating glaciers", GLACIER_SOURCE));
  provider.pages.set("/lighthouse", page("The northern lighthouse", LIGHTHOUSE_SOURCE));
});
afterAll(async () => {
  provider.stop();
  await app.close();
});

const jobs = (run: JobDeps["run"]): JobDeps => ({
  db: app.service.store.db,
  clock: () => now,
  run,
  backoffMs: () => 10_000,
  maxAttempts: 3,
});
const offline = () => jobs(plagiarismCheck(app.ctx, { liveSearch: null }));
const live = (searchUrl: string) =>
  jobs(plagiarismCheck(app.ctx, { liveSearch: { ...liveSettings(searchUrl), now: () => now } }));

/** Runs every due job, as the server's workers would. */
async function drain(deps: JobDeps) {
  while (await runOnce(deps)) {}
}

async function check(key: string, body: Record<string, unknown>, deps: JobDeps) {
  const res = await app.request("POST", "/api/v1/plagiarism", { key, body });
  expect(res.status).toBe(202);
  const scan = await json(res);
  await drain(deps);
  return json(app.request("GET", `/api/v1/scans/${scan.id}`, { key }));
}

const eventsOf = (scanId: string) =>
  (
    app.service.store.sqlite
      .query("SELECT type, payload FROM events WHERE scan_id = ? ORDER BY created_at")
      .all(scanId) as Array<{ type: string; payload: string }>
  ).map((e) => ({ type: e.type, data: JSON.parse(e.payload).data }));

describe("library documents as sources", () => {
  test("a document added with POST /api/v1/documents is found by POST /api/v1/plagiarism", async () => {
    const { key } = app.workspace({ plan: "team", credits: 10_000 });
    const doc = await json(
      app.request("POST", "/api/v1/documents", {
        key,
        body: { title: "Glacier field notes", text: GLACIER_SOURCE },
      }),
    );
    const text = `${OWN_WORDS} ${GLACIER_SOURCE}`;
    const done = await check(key, { text }, offline());
    expect(done.status).toBe("completed");
    expect(done.result.similarity).toBeGreaterThan(40);
    expect(done.result.sources).toHaveLength(1);
    const source = done.result.sources[0];
    expect(source).toMatchObject({
      type: "document",
      url: null,
      title: "Glacier field notes",
      document_id: doc.id,
    });
    for (const m of source.matches) expect(GLACIER_SOURCE).toContain(text.slice(m.start, m.end));

    // Deleted: the next check no longer finds it.
    await app.request("DELETE", `/api/v1/documents/${doc.id}`, { key });
    const after = await check(key, { text }, offline());
    expect(after.result.sources).toEqual([]);
    expect(after.result.similarity).toBe(0);
  });

  test("another workspace's document is never a source", async () => {
    const owner = app.workspace({ plan: "team", credits: 10_000 });
    const other = app.workspace({ plan: "team", credits: 10_000 });
    await app.request("POST", "/api/v1/documents", {
      key: owner.key,
      body: { title: "Lighthouse ledger", text: LIGHTHOUSE_SOURCE },
    });
    const done = await check(other.key, { text: `${OWN_WORDS} ${LIGHTHOUSE_SOURCE}` }, offline());
    expect(done.result.sources).toEqual([]);
  });
});

describe("exclusions", () => {
  test("exclude_urls drops a web source of the index (and a document carrying that URL)", async () => {
    const { key } = app.workspace({ plan: "team", credits: 10_000 });
    upsertWebPage(app.service.store, {
      url: "https://news.example.org/lighthouse",
      title: "The northern lighthouse",
      text: LIGHTHOUSE_SOURCE,
      fetchedAt: now,
    });
    await app.request("POST", "/api/v1/documents", {
      key,
      body: {
        title: "Ledger (library copy)",
        text: LIGHTHOUSE_SOURCE,
        url: "https://news.example.org/lighthouse",
      },
    });
    const text = `${OWN_WORDS} ${LIGHTHOUSE_SOURCE}`;
    const found = await check(key, { text }, offline());
    expect(found.result.sources.map((s: { type: string; url: string }) => [s.type, s.url]).sort()).toEqual([
      ["document", null],
      ["web", "https://news.example.org/lighthouse"],
    ]);

    // Another spelling of the same address (case, default port, trailing slash, fragment) still excludes it.
    const excluded = await check(
      key,
      { text, exclude_urls: ["HTTPS://News.Example.org:443/lighthouse/#ledger"] },
      offline(),
    );
    expect(excluded.status).toBe("completed");
    expect(excluded.result.sources).toEqual([]);
    expect(excluded.result.similarity).toBe(0);
  });

  test("exclude_quotes: a quoted passage is skipped by default and matched when exclude_quotes is false", async () => {
    const { key } = app.workspace({ plan: "team", credits: 10_000 });
    await app.request("POST", "/api/v1/documents", {
      key,
      body: { title: "Glaciers", text: GLACIER_SOURCE },
    });
    const text = `${OWN_WORDS} As the survey put it, \u201C${GLACIER_SOURCE}\u201D That is all I will quote.`;
    const skipped = await check(key, { text }, offline());
    expect(skipped.result.sources).toEqual([]);
    const counted = await check(key, { text, exclude_quotes: false }, offline());
    expect(counted.result.sources).toHaveLength(1);
    expect(counted.result.sources[0].title).toBe("Glaciers");
    expect(skipped.result.similarity).toBe(0);
    expect(counted.result.similarity).toBeGreaterThan(40);
  });
});

describe("live web search", () => {
  test("pages named by the search provider are fetched, indexed and reported as web sources", async () => {
    const { key } = app.workspace({ plan: "team", credits: 10_000 });
    provider.results = null;
    provider.searches.length = 0;
    provider.pageHits.clear();
    const text = `${OWN_WORDS} ${GLACIER_SOURCE}`;
    const done = await check(key, { text }, live(provider.url));
    expect(done.status).toBe("completed");
    expect(provider.searches.length).toBeGreaterThan(0);
    // The queries are quoted phrases of the submitted text.
    for (const q of provider.searches) {
      expect(q).toMatch(/^".+"$/);
      expect(text.replace(/[^\p{L}\p{N}\s'-]/gu, "").replace(/\s+/g, " ")).toContain(q.slice(1, -1));
    }
    const web = done.result.sources.filter((s: { type: string }) => s.type === "web");
    expect(web.map((s: { url: string; title: string }) => [s.url, s.title])).toEqual([
      [`${provider.url}/glaciers`, "Retreating glaciers"],
    ]);
    // The page's furniture (navigation, footer) is not part of the indexed text.
    expect(web[0].excerpt).not.toContain("Archive");

    // A page fetched moments ago is used as indexed, not fetched again.
    const hits = provider.pageHits.get("/glaciers");
    await check(key, { text }, live(provider.url));
    expect(provider.pageHits.get("/glaciers")).toBe(hits as number);
  });

  test("exclude_urls also keeps a search result from being fetched at all", async () => {
    const { key } = app.workspace({ plan: "team", credits: 10_000 });
    provider.pageHits.clear();
    const text = `${OWN_WORDS} ${LIGHTHOUSE_SOURCE} The end.`;
    const done = await check(
      key,
      { text, exclude_urls: [`${provider.url}/lighthouse`, "https://news.example.org/lighthouse"] },
      live(provider.url),
    );
    expect(done.status).toBe("completed");
    expect(done.result.sources).toEqual([]);
    expect(provider.pageHits.get("/lighthouse")).toBeUndefined();
  });

  test("a result on a private address is not fetched unless the operator allows the network", async () => {
    const { key } = app.workspace({ plan: "team", credits: 10_000 });
    provider.pageHits.clear();
    const guarded = jobs(
      plagiarismCheck(app.ctx, {
        liveSearch: {
          ...liveSettings(provider.url, {
            fetch: { ...liveSettings(provider.url).settings.fetch, allowNetworks: [] },
          }),
          now: () => now,
        },
      }),
    );
    const text = `${OWN_WORDS} The keepers of the lighthouse wrote in a ledger every single night without fail.`;
    provider.pages.set("/private", page("Private", text));
    const searchesBefore = provider.searches.length;
    const done = await check(key, { text }, guarded);
    expect(done.status).toBe("completed");
    expect(provider.searches.length).toBeGreaterThan(searchesBefore);
    expect(provider.pageHits.size).toBe(0);
    expect(done.result.sources.filter((s: { url: string }) => s.url?.endsWith("/private"))).toEqual([]);
    provider.pages.delete("/private");
  });

  test("a search provider that is down: retried with backoff, then failed with source_unreachable, a refund and scan.failed", async () => {
    const { key } = app.workspace({ plan: "team", credits: 1_000 });
    const down = live(`http://127.0.0.1:${deadPort()}`);
    const res = await app.request("POST", "/api/v1/plagiarism", {
      key,
      body: { text: `${OWN_WORDS} ${GLACIER_SOURCE}` },
    });
    const scan = await json(res);
    expect((await json(app.request("GET", "/api/v1/usage", { key }))).credits.balance).toBe(
      1_000 - scan.credits_used,
    );
    await drain(down);
    expect((await json(app.request("GET", `/api/v1/scans/${scan.id}`, { key }))).status).toBe("queued");
    for (let attempt = 2; attempt <= 3; attempt++) {
      now += 10_000;
      await drain(down);
    }
    const failed = await json(app.request("GET", `/api/v1/scans/${scan.id}`, { key }));
    expect(failed.status).toBe("failed");
    expect(failed.result).toBeNull();
    expect(failed.error.code).toBe("source_unreachable");
    expect(failed.error.message).not.toContain("127.0.0.1"); // the operator's provider is not named to customers
    expect((await json(app.request("GET", "/api/v1/usage", { key }))).credits.balance).toBe(1_000);
    const events = eventsOf(scan.id);
    expect(events.map((e) => e.type)).toEqual(["scan.failed"]);
    expect(events[0]?.data).toEqual(failed);
  });

  test("a provider answering with an error status is unreachable too; one that recovers completes the scan", async () => {
    const { key } = app.workspace({ plan: "team", credits: 1_000 });
    provider.mode = "fail";
    const res = await app.request("POST", "/api/v1/plagiarism", {
      key,
      body: { text: `${OWN_WORDS} ${GLACIER_SOURCE}` },
    });
    const scan = await json(res);
    await drain(live(provider.url));
    expect((await json(app.request("GET", `/api/v1/scans/${scan.id}`, { key }))).status).toBe("queued");
    provider.mode = "answer";
    now += 10_000;
    await drain(live(provider.url));
    const done = await json(app.request("GET", `/api/v1/scans/${scan.id}`, { key }));
    expect(done.status).toBe("completed");
    expect(done.result.sources.map((s: { url: string }) => s.url)).toContain(`${provider.url}/glaciers`);
  });
});
