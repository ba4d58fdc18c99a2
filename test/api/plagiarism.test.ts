import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { addLibraryDocument } from "../../src/fingerprints/index.ts";
import { type JobDeps, PermanentJobError, RetryableJobError, runOnce } from "../../src/jobs/index.ts";
import { plagiarismCheck } from "../../src/jobs/plagiarism.ts";
import { essay, json, type TestApp, testApp } from "../support/harness.ts";

let app: TestApp;
let now = Date.parse("2026-11-22T12:00:00Z");
beforeAll(() => {
  app = testApp({ clock: () => now });
});
afterAll(() => app.close());

const SOURCE =
  "Glaciers in the high valleys retreated by almost a kilometre over the last century, leaving behind moraines " +
  "that botanists now study to understand how plant communities colonise bare ground. The first arrivals are " +
  "mosses and lichens, followed within decades by dwarf willows and fireweed, and only much later by spruce.";

const jobs = (run?: JobDeps["run"]): JobDeps => ({
  db: app.service.store.db,
  clock: () => now,
  run: run ?? plagiarismCheck(app.ctx),
  backoffMs: () => 10_000,
  maxAttempts: 3,
});

/** Runs every due job, as the server's workers would. */
async function drain(deps: JobDeps) {
  while (await runOnce(deps)) {}
}

const submit = (key: string, body: unknown, headers?: Record<string, string>) =>
  app.request("POST", "/api/v1/plagiarism", { key, body, ...(headers && { headers }) });

const eventsOf = (scanId: string) =>
  app.service.store.sqlite
    .query("SELECT type, payload FROM events WHERE scan_id = ? ORDER BY created_at")
    .all(scanId) as Array<{
    type: string;
    payload: string;
  }>;

describe("POST /api/v1/plagiarism", () => {
  test("202 with a queued scan, charged 2 credits per word, then polled to completed with a library match", async () => {
    const { key, workspace } = app.workspace({ plan: "advanced", credits: 10_000 });
    const doc = addLibraryDocument(
      app.service.store,
      workspace.id,
      { title: "Glacier notes", text: SOURCE },
      now,
    );
    const text = `My report begins with an introduction of my own words about a field trip we took in the summer. ${SOURCE}`;
    const res = await submit(key, { text, metadata: { course: "bio" } });
    expect(res.status).toBe(202);
    const scan = await json(res);
    expect(scan).toMatchObject({
      object: "scan",
      type: "plagiarism",
      status: "queued",
      result: null,
      error: null,
      completed_at: null,
      metadata: { course: "bio" },
    });
    const words = scan.credits_used / 2;
    expect(Number.isInteger(words)).toBe(true);
    expect(res.headers.get("x-credits-remaining")).toBe(String(10_000 - scan.credits_used));
    expect(res.headers.get("x-ratelimit-limit")).toBe("60");

    const polled = await json(app.request("GET", `/api/v1/scans/${scan.id}`, { key }));
    expect(polled.status).toBe("queued");

    await drain(jobs());
    const done = await json(app.request("GET", `/api/v1/scans/${scan.id}`, { key }));
    expect(done.status).toBe("completed");
    expect(done.completed_at).not.toBeNull();
    expect(done.result.word_count).toBe(words);
    expect(done.result.similarity).toBeGreaterThan(50);
    expect(done.result.sources[0]).toMatchObject({
      type: "document",
      url: null,
      title: "Glacier notes",
      document_id: doc.id,
    });
    for (const m of done.result.sources[0].matches) {
      expect(m.end).toBeGreaterThan(m.start);
    }
    const events = eventsOf(scan.id);
    expect(events.map((e) => e.type)).toEqual(["scan.completed"]);
    expect(JSON.parse(events[0]?.payload ?? "{}").data).toEqual(done);
  });

  test("plan_required (403) for free and essential plans, and nothing is charged", async () => {
    for (const plan of ["free", "essential"]) {
      const { key } = app.workspace({ plan, credits: 5_000 });
      const res = await submit(key, { text: essay(50) });
      expect(res.status).toBe(403);
      expect((await json(res)).error).toMatchObject({ type: "permission_error", code: "plan_required" });
      expect((await json(app.request("GET", "/api/v1/usage", { key }))).credits.balance).toBe(5_000);
    }
  });

  test("insufficient_credits (402) at 2 credits per word", async () => {
    const { key } = app.workspace({ plan: "team", credits: 99 });
    const res = await submit(key, { text: essay(50) });
    expect(res.status).toBe(402);
    expect((await json(res)).error).toMatchObject({ code: "insufficient_credits", cost: 100, balance: 99 });
  });

  test("word limits and body rules", async () => {
    const { key } = app.workspace({ plan: "team", credits: 100_000 });
    expect((await json(submit(key, { text: essay(39) }))).error.code).toBe("too_short");
    expect((await json(submit(key, { text: essay(25_001) }))).error.code).toBe("too_long");
    const tooMany = await json(
      submit(key, {
        text: essay(50),
        exclude_urls: Array.from({ length: 51 }, (_, i) => `https://x.test/${i}`),
      }),
    );
    expect(tooMany.error.code).toBe("invalid_body");
    const notUrl = await json(submit(key, { text: essay(50), exclude_urls: ["not a url"] }));
    expect(notUrl.error.code).toBe("invalid_body");
    expect(notUrl.error.issues[0].path).toBe("/exclude_urls/0");
    expect((await json(submit(key, { text: essay(50), exclude_quotes: "no" }))).error.code).toBe(
      "invalid_body",
    );
  });

  test("an 11th concurrent check is rate_limited with retry_after 30; a finished one frees a place", async () => {
    const { key } = app.workspace({ plan: "team", credits: 100_000, rateLimit: 1_000 });
    for (let i = 0; i < 10; i++) expect((await submit(key, { text: essay(50, i) })).status).toBe(202);
    const res = await submit(key, { text: essay(50, 11) });
    expect(res.status).toBe(429);
    const { error } = await json(res);
    expect(error).toMatchObject({ type: "rate_limit_error", code: "rate_limited", retry_after: 30 });
    expect(res.headers.get("retry-after")).toBe("30");
    const balance = (await json(app.request("GET", "/api/v1/usage", { key }))).credits.balance;
    expect(balance).toBe(100_000 - 10 * 100);
    await drain(jobs());
    expect((await submit(key, { text: essay(50, 12) })).status).toBe(202);
  });

  test("an idempotent replay answers 202 again without a second charge", async () => {
    const { key } = app.workspace({ plan: "team", credits: 1_000 });
    const first = await submit(key, { text: essay(50) }, { "idempotency-key": "plag-1" });
    const again = await submit(key, { text: essay(50) }, { "idempotency-key": "plag-1" });
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.text()).toBe(await first.text());
    expect((await json(app.request("GET", "/api/v1/usage", { key }))).credits.balance).toBe(900);
  });
});

describe("background failures", () => {
  beforeAll(() => drain(jobs())); // finish what earlier tests queued, so counts below are this test's own
  test("a source that stays unreachable is retried with backoff, then the scan fails with a refund and scan.failed", async () => {
    const { key } = app.workspace({ plan: "team", credits: 1_000 });
    const scan = await json(submit(key, { text: essay(50) }));
    let calls = 0;
    const unreachable = jobs(() => {
      calls++;
      throw new RetryableJobError("source_unreachable", "The web search provider did not answer.");
    });
    await drain(unreachable);
    expect(calls).toBe(1);
    expect((await json(app.request("GET", `/api/v1/scans/${scan.id}`, { key }))).status).toBe("queued");
    now += 10_000;
    await drain(unreachable);
    now += 10_000;
    await drain(unreachable);
    expect(calls).toBe(3);
    const failed = await json(app.request("GET", `/api/v1/scans/${scan.id}`, { key }));
    expect(failed.status).toBe("failed");
    expect(failed.result).toBeNull();
    expect(failed.error).toEqual({
      code: "source_unreachable",
      message: "The web search provider did not answer.",
    });
    expect(failed.completed_at).not.toBeNull();
    expect(failed.credits_used).toBe(100);
    expect((await json(app.request("GET", "/api/v1/usage", { key }))).credits.balance).toBe(1_000);
    const events = eventsOf(scan.id);
    expect(events.map((e) => e.type)).toEqual(["scan.failed"]);
    expect(JSON.parse(events[0]?.payload ?? "{}").data.error.code).toBe("source_unreachable");
  });

  test("a permanent failure fails at once, refunded", async () => {
    const { key } = app.workspace({ plan: "team", credits: 1_000 });
    const scan = await json(submit(key, { text: essay(50) }));
    await drain(
      jobs(() => {
        throw new PermanentJobError("source_rejected", "nope");
      }),
    );
    const failed = await json(app.request("GET", `/api/v1/scans/${scan.id}`, { key }));
    expect(failed.error.code).toBe("source_rejected");
    expect((await json(app.request("GET", "/api/v1/usage", { key }))).credits.balance).toBe(1_000);
  });

  test("a scan whose worker died is taken over after its lease, and failed after the last attempt", async () => {
    const { key } = app.workspace({ plan: "team", credits: 1_000 });
    const scan = await json(submit(key, { text: essay(50) }));
    const dying = jobs(() => new Promise<never>(() => {})); // never settles: the worker "died" holding the lease
    void runOnce(dying);
    await Bun.sleep(0);
    expect((await json(app.request("GET", `/api/v1/scans/${scan.id}`, { key }))).status).toBe("processing");
    expect(await runOnce(dying)).toBe(false); // the lease still holds
    now += 61_000;
    await drain(jobs()); // a healthy worker takes it over
    expect((await json(app.request("GET", `/api/v1/scans/${scan.id}`, { key }))).status).toBe("completed");
  });
});
