import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { workerPoolDetector } from "../../src/detector/index.ts";
import { beginIdempotent, hashBody } from "../../src/idempotency/index.ts";
import { registerInstance, renewInstance } from "../../src/instances/index.ts";
import { essay, json, type TestApp, testApp } from "../support/harness.ts";

let app: TestApp;
let now = Date.parse("2026-11-22T10:00:00Z");
beforeAll(() => {
  // Worker threads, as the server runs them: a request then really is in flight while its twin arrives.
  app = testApp({ clock: () => now, detector: workerPoolDetector(2) });
});
afterAll(() => app.close());

const detect = (key: string, body: unknown, idempotencyKey?: string) =>
  app.request("POST", "/api/v1/detect", {
    key,
    body,
    ...(idempotencyKey !== undefined && { headers: { "idempotency-key": idempotencyKey } }),
  });

const balanceOf = async (key: string) =>
  (await json(app.request("GET", "/api/v1/usage", { key }))).credits.balance as number;

const scanCount = (workspaceId: string) =>
  (
    app.service.store.sqlite
      .query("SELECT count(*) AS n FROM scans WHERE workspace_id = ?")
      .get(workspaceId) as { n: number }
  ).n;

describe("Idempotency-Key", () => {
  test("a repeat with the same key and body replays the first response, without scanning or charging again", async () => {
    const { key, workspace } = app.workspace({ credits: 1000 });
    const body = { text: essay(60), metadata: { run: "1" } };
    const first = await detect(key, body, "key-replay-1");
    expect(first.status).toBe(200);
    const firstBody = await first.text();
    const second = await detect(key, body, "key-replay-1");
    expect(second.status).toBe(200);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(await second.text()).toBe(firstBody);
    expect(second.headers.get("x-credits-remaining")).toBe(first.headers.get("x-credits-remaining"));
    expect(second.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
    expect(second.headers.get("x-ratelimit-limit")).toBe("60");
    expect(await balanceOf(key)).toBe(940);
    expect(scanCount(workspace.id)).toBe(1);
  });

  test("the same key with another body is idempotency_key_reused (409)", async () => {
    const { key } = app.workspace();
    expect((await detect(key, { text: essay(60) }, "key-reuse-body")).status).toBe(200);
    const res = await detect(key, { text: essay(61) }, "key-reuse-body");
    expect(res.status).toBe(409);
    const { error } = await json(res);
    expect(error).toMatchObject({ type: "invalid_request_error", code: "idempotency_key_reused" });
  });

  test("the same key on another endpoint is idempotency_key_reused (409)", async () => {
    const { key } = app.workspace();
    const body = { text: essay(60) };
    expect((await detect(key, body, "key-reuse-endpoint")).status).toBe(200);
    const res = await app.request("POST", "/api/v1/image", {
      key,
      body,
      headers: { "idempotency-key": "key-reuse-endpoint" },
    });
    // POST /image does not read JSON, but its key is still checked against the first request's endpoint.
    expect(res.status).toBe(409);
    expect((await json(res)).error.code).toBe("idempotency_key_reused");
  });

  test("a concurrent twin gets request_in_progress (409) and only one scan is charged", async () => {
    const { key, workspace } = app.workspace({ credits: 100_000 });
    const body = { text: essay(20_000), sentences: false };
    const responses = await Promise.all([detect(key, body, "twin"), detect(key, body, "twin")]);
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
    const conflict = responses.find((r) => r.status === 409);
    expect((await json(conflict as Response)).error).toMatchObject({
      type: "invalid_request_error",
      code: "request_in_progress",
    });
    expect(await balanceOf(key)).toBe(80_000);
    expect(scanCount(workspace.id)).toBe(1);
    // Once the first has finished, the twin replays it.
    const later = await detect(key, body, "twin");
    expect(later.headers.get("idempotent-replayed")).toBe("true");
  });

  test("request_in_progress while the claim's holder lives, however long; free once its lease runs out", async () => {
    const { key, workspace } = app.workspace({ credits: 1000 });
    const body = { text: essay(60) };
    // Another server process holds the key: its request is still running there.
    const other = registerInstance(app.service.store.db, () => now, 10_000);
    beginIdempotent(app.service.store.db, {
      workspaceId: workspace.id,
      key: "held",
      endpoint: "POST /api/v1/detect",
      bodyHash: hashBody(JSON.stringify(body)),
      now,
      holder: other.id,
    });
    const res = await detect(key, body, "held");
    expect(res.status).toBe(409);
    expect((await json(res)).error.code).toBe("request_in_progress");
    // Age alone frees nothing: the holder renews its lease, so after 5 minutes the twin still waits.
    for (let i = 0; i < 60; i++) {
      now += 5_000;
      renewInstance(app.service.store.db, () => now, other);
    }
    expect((await json(detect(key, body, "held"))).error.code).toBe("request_in_progress");
    // The holder dies (stops renewing): once its lease has run out the key runs again, once.
    now += 10_001;
    const retry = await detect(key, body, "held");
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    expect(await balanceOf(key)).toBe(940);
  });

  test("a failed first attempt (4xx) releases the key, so a retry runs again", async () => {
    const { key } = app.workspace({ credits: 50 });
    const body = { text: essay(60) };
    const first = await detect(key, body, "after-402");
    expect(first.status).toBe(402);
    app.service.store.sqlite.run("UPDATE workspaces SET balance = balance + 100 WHERE balance = 50");
    const retry = await detect(key, body, "after-402");
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
  });

  test("replays last 24 hours; after that the key is free again", async () => {
    const { key } = app.workspace({ credits: 1000 });
    const body = { text: essay(60) };
    expect((await detect(key, body, "day-old")).status).toBe(200);
    now += 23 * 60 * 60 * 1000;
    expect((await detect(key, body, "day-old")).headers.get("idempotent-replayed")).toBe("true");
    now += 2 * 60 * 60 * 1000;
    const fresh = await detect(key, body, "day-old");
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("idempotent-replayed")).toBeNull();
    expect(await balanceOf(key)).toBe(880);
  });

  test("keys are per workspace", async () => {
    const a = app.workspace();
    const b = app.workspace();
    expect((await detect(a.key, { text: essay(60) }, "shared-name")).status).toBe(200);
    const res = await detect(b.key, { text: essay(70) }, "shared-name");
    expect(res.status).toBe(200);
    expect(res.headers.get("idempotent-replayed")).toBeNull();
  });

  test("a key over 255 characters is invalid_idempotency_key (400); 255 is accepted", async () => {
    const { key } = app.workspace();
    const res = await detect(key, { text: essay(60) }, "k".repeat(256));
    expect(res.status).toBe(400);
    expect((await json(res)).error).toMatchObject({
      type: "invalid_request_error",
      code: "invalid_idempotency_key",
    });
    expect((await detect(key, { text: essay(60) }, "k".repeat(255))).status).toBe(200);
  });
});

describe("stored responses at rest", () => {
  test("are sealed: a replayed webhook endpoint keeps its secret, which is never readable in the store", async () => {
    const { key } = app.workspace();
    const body = { url: "https://hooks.example.com/textscan", events: ["scan.completed"] };
    const headers = { "idempotency-key": "endpoint-create-1" };
    const first = await app.request("POST", "/api/v1/webhook_endpoints", { key, body, headers });
    expect(first.status).toBeLessThan(300);
    const created = await json(first);
    expect(created.secret).toMatch(/^whsec_/);
    const replay = await app.request("POST", "/api/v1/webhook_endpoints", { key, body, headers });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect((await json(replay)).secret).toBe(created.secret);
    const rows = app.service.store.sqlite.query("SELECT response_body FROM idempotency_keys").all() as Array<{
      response_body: string | null;
    }>;
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.response_body ?? "").not.toContain("whsec_");
  });
});
