import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { configureWebhooks } from "../../src/context/index.ts";
import { MAX_ENDPOINTS_PER_WORKSPACE } from "../../src/webhooks/endpoints.ts";
import { json } from "../support/harness.ts";
import { LOOPBACK, type WebhookTestApp, webhookTestApp } from "./support.ts";

let t: WebhookTestApp;
let url: string;
beforeAll(() => {
  t = webhookTestApp();
  url = "http://127.0.0.1:9/hooks";
});
afterAll(() => t.close());

const req = (
  method: string,
  path: string,
  init: { key?: string | null; body?: unknown; headers?: Record<string, string> } = {},
) =>
  t.app.request(method, path, {
    ...(init.key !== null && { key: init.key ?? t.ws.key }),
    ...(init.body !== undefined && { body: init.body }),
    ...(init.headers && { headers: init.headers }),
  });

async function expectError(res: Response, status: number, code: string, issuePath?: string) {
  expect(res.status).toBe(status);
  const body = await json(res);
  expect(body.error.code).toBe(code);
  expect(body.error.request_id).toBe(res.headers.get("x-request-id"));
  if (issuePath !== undefined)
    expect(body.error.issues.map((i: { path: string }) => i.path)).toContain(issuePath);
  return body.error;
}

describe("managing endpoints (happy paths)", () => {
  test("create shows the secret once; list and get never show it", async () => {
    const res = await req("POST", "/api/v1/webhook_endpoints", { body: { url, description: "billing" } });
    expect(res.status).toBe(201);
    const created = await json(res);
    expect(created).toMatchObject({
      object: "webhook_endpoint",
      workspace_id: t.ws.workspace.id,
      url,
      events: ["scan.completed", "scan.failed"],
      status: "active",
      description: "billing",
      previous_secret_expires_at: null,
    });
    expect(created.id).toMatch(/^we_[0-9a-f]{32}$/);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9]{40}$/);

    const got = await json(req("GET", `/api/v1/webhook_endpoints/${created.id}`));
    const { secret: _secret, ...withoutSecret } = created;
    expect(got).toEqual(withoutSecret);
    const list = await json(req("GET", "/api/v1/webhook_endpoints"));
    expect(list.object).toBe("list");
    expect(list.has_more).toBe(false);
    expect(list.data.map((e: { id: string }) => e.id)).toContain(created.id);
    expect(JSON.stringify(list)).not.toContain(created.secret);
  });

  test("update changes url, events, description and status; delete removes it", async () => {
    const created = await t.endpoint({ url });
    const res = await req("PATCH", `/api/v1/webhook_endpoints/${created.id}`, {
      body: {
        url: "http://127.0.0.2:9/other",
        events: ["scan.failed", "scan.failed"],
        description: "x",
        status: "paused",
      },
    });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({
      url: "http://127.0.0.2:9/other",
      events: ["scan.failed"],
      description: "x",
      status: "paused",
    });
    const cleared = await json(
      req("PATCH", `/api/v1/webhook_endpoints/${created.id}`, { body: { description: null } }),
    );
    expect(cleared.description).toBeNull();
    const deleted = await req("DELETE", `/api/v1/webhook_endpoints/${created.id}`);
    expect(await json(deleted)).toEqual({ id: created.id, object: "webhook_endpoint", deleted: true });
    await expectError(await req("GET", `/api/v1/webhook_endpoints/${created.id}`), 404, "not_found");
  });

  test("an Idempotency-Key replays the creation (same endpoint, same secret) instead of creating a second one", async () => {
    const headers = { "idempotency-key": "create-hook-1" };
    const first = await req("POST", "/api/v1/webhook_endpoints", { body: { url }, headers });
    const again = await req("POST", "/api/v1/webhook_endpoints", { body: { url }, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await json(again)).toEqual(await json(first));
  });

  test("the OpenAPI document lists every webhook operation with its error codes", async () => {
    const doc = await json(t.app.request("GET", "/api/v1/openapi.json"));
    const ops: [string, string, string[]][] = [
      ["/api/v1/webhook_endpoints", "post", ["400", "401", "409", "413", "429"]],
      ["/api/v1/webhook_endpoints", "get", ["401", "429"]],
      ["/api/v1/webhook_endpoints/{id}", "get", ["404"]],
      ["/api/v1/webhook_endpoints/{id}", "patch", ["400", "404"]],
      ["/api/v1/webhook_endpoints/{id}", "delete", ["404"]],
      ["/api/v1/webhook_endpoints/{id}/test", "post", ["404"]],
      ["/api/v1/webhook_endpoints/{id}/rotate_secret", "post", ["404"]],
      ["/api/v1/webhook_endpoints/{id}/deliveries", "get", ["400", "404"]],
      ["/api/v1/webhook_deliveries/{id}/retry", "post", ["404"]],
    ];
    for (const [path, method, statuses] of ops) {
      const op = doc.paths[path]?.[method];
      expect(op?.tags).toEqual(["Webhooks"]);
      for (const status of statuses) expect(Object.keys(op.responses)).toContain(status);
    }
    expect(doc.tags.map((tag: { name: string }) => tag.name)).toContain("Webhooks");
  });
});

describe("error paths", () => {
  test("no key or a bad key: unauthorized, on every operation", async () => {
    const paths: [string, string][] = [
      ["POST", "/api/v1/webhook_endpoints"],
      ["GET", "/api/v1/webhook_endpoints"],
      ["GET", "/api/v1/webhook_endpoints/we_00000000000000000000000000000000"],
      ["PATCH", "/api/v1/webhook_endpoints/we_00000000000000000000000000000000"],
      ["DELETE", "/api/v1/webhook_endpoints/we_00000000000000000000000000000000"],
      ["POST", "/api/v1/webhook_endpoints/we_00000000000000000000000000000000/test"],
      ["POST", "/api/v1/webhook_endpoints/we_00000000000000000000000000000000/rotate_secret"],
      ["GET", "/api/v1/webhook_endpoints/we_00000000000000000000000000000000/deliveries"],
      ["POST", "/api/v1/webhook_deliveries/whd_00000000000000000000000000000000/retry"],
    ];
    for (const [method, path] of paths) {
      await expectError(await req(method, path, { key: null }), 401, "unauthorized");
      await expectError(
        await req(method, path, { key: "svc_live_wrongwrongwrongwrongwrongwrong12" }),
        401,
        "unauthorized",
      );
    }
  });

  test("another workspace's endpoint or delivery is not_found, exactly like a missing one", async () => {
    const mine = await t.endpoint({ url });
    await req("POST", `/api/v1/webhook_endpoints/${mine.id}/test`);
    const [delivery] = (await json(req("GET", `/api/v1/webhook_endpoints/${mine.id}/deliveries`))).data;
    const other = t.app.workspace();
    const key = other.key;
    expect((await json(req("GET", "/api/v1/webhook_endpoints", { key }))).data).toEqual([]);
    for (const id of [mine.id, "we_ffffffffffffffffffffffffffffffff", "not-an-id"]) {
      await expectError(await req("GET", `/api/v1/webhook_endpoints/${id}`, { key }), 404, "not_found");
      await expectError(
        await req("PATCH", `/api/v1/webhook_endpoints/${id}`, { key, body: { status: "paused" } }),
        404,
        "not_found",
      );
      await expectError(await req("DELETE", `/api/v1/webhook_endpoints/${id}`, { key }), 404, "not_found");
      await expectError(await req("POST", `/api/v1/webhook_endpoints/${id}/test`, { key }), 404, "not_found");
      await expectError(
        await req("POST", `/api/v1/webhook_endpoints/${id}/rotate_secret`, { key }),
        404,
        "not_found",
      );
      await expectError(
        await req("GET", `/api/v1/webhook_endpoints/${id}/deliveries`, { key }),
        404,
        "not_found",
      );
    }
    for (const id of [delivery.id, "whd_ffffffffffffffffffffffffffffffff", "x"]) {
      await expectError(
        await req("POST", `/api/v1/webhook_deliveries/${id}/retry`, { key }),
        404,
        "not_found",
      );
    }
    // Untouched by the other workspace's attempts.
    expect(await json(req("GET", `/api/v1/webhook_endpoints/${mine.id}`))).toMatchObject({
      status: "active",
    });
  });

  test.each([
    ["no body", undefined, ""],
    ["no url", { events: ["scan.completed"] }, "/url"],
    ["url not a string", { url: 42 }, "/url"],
    ["url too long", { url: `http://127.0.0.1/${"a".repeat(2_100)}` }, "/url"],
    ["events empty", { url: "http://127.0.0.1:9/", events: [] }, "/events"],
    ["events not an array", { url: "http://127.0.0.1:9/", events: "scan.completed" }, "/events"],
    [
      "unknown event",
      { url: "http://127.0.0.1:9/", events: ["scan.completed", "scan.deleted"] },
      "/events/1",
    ],
    ["webhook.test subscribed", { url: "http://127.0.0.1:9/", events: ["webhook.test"] }, "/events/0"],
    ["description too long", { url: "http://127.0.0.1:9/", description: "d".repeat(201) }, "/description"],
    ["unknown status", { url: "http://127.0.0.1:9/", status: "disabled" }, "/status"],
  ])("create with %s: invalid_body", async (_name, body, path) => {
    await expectError(
      await req("POST", "/api/v1/webhook_endpoints", { ...(body !== undefined && { body }) }),
      400,
      "invalid_body",
      path,
    );
  });

  test("create with malformed JSON or another content type: invalid_body; a huge body: body_too_large", async () => {
    await expectError(
      await req("POST", "/api/v1/webhook_endpoints", { body: "{not json" }),
      400,
      "invalid_body",
    );
    await expectError(
      await req("POST", "/api/v1/webhook_endpoints", {
        body: "url=x",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      }),
      400,
      "invalid_body",
    );
    await expectError(
      await req("POST", "/api/v1/webhook_endpoints", {
        body: { url, description: "x".repeat(5 * 1024 * 1024) },
      }),
      413,
      "body_too_large",
    );
  });

  test.each([
    ["nothing to change", {}, ""],
    ["a refused url", { url: "ftp://127.0.0.1/" }, "/url"],
    ["empty events", { events: [] }, "/events"],
    ["an unknown event", { events: ["scan.created"] }, "/events/0"],
    ["an unknown status", { status: "deleted" }, "/status"],
    ["a long description", { description: "d".repeat(201) }, "/description"],
  ])("update with %s: invalid_body", async (_name, body, path) => {
    const created = await t.endpoint({ url });
    await expectError(
      await req("PATCH", `/api/v1/webhook_endpoints/${created.id}`, { body }),
      400,
      "invalid_body",
      path,
    );
  });

  test.each([
    ["limit=0", "/limit"],
    ["limit=101", "/limit"],
    ["limit=ten", "/limit"],
    ["status=lost", "/status"],
  ])("deliveries?%s: invalid_body", async (query, path) => {
    const created = await t.endpoint({ url });
    await expectError(
      await req("GET", `/api/v1/webhook_endpoints/${created.id}/deliveries?${query}`),
      400,
      "invalid_body",
      path,
    );
  });

  test("deliveries?starting_after with an unknown delivery: not_found; a known one pages", async () => {
    const created = await t.endpoint({ url });
    await expectError(
      await req(
        "GET",
        `/api/v1/webhook_endpoints/${created.id}/deliveries?starting_after=whd_ffffffffffffffffffffffffffffffff`,
      ),
      404,
      "not_found",
    );
    for (let i = 0; i < 3; i++) {
      await req("POST", `/api/v1/webhook_endpoints/${created.id}/test`);
      t.clock.advance(1);
    }
    const first = await json(req("GET", `/api/v1/webhook_endpoints/${created.id}/deliveries?limit=2`));
    expect(first.data).toHaveLength(2);
    expect(first.has_more).toBe(true);
    const next = await json(
      req(
        "GET",
        `/api/v1/webhook_endpoints/${created.id}/deliveries?limit=2&starting_after=${first.data[1].id}`,
      ),
    );
    expect(next.data).toHaveLength(1);
    expect(next.has_more).toBe(false);
    expect(new Set([...first.data, ...next.data].map((d: { id: string }) => d.id)).size).toBe(3);
  });

  test(`a workspace may have at most ${MAX_ENDPOINTS_PER_WORKSPACE} endpoints`, async () => {
    const ws = t.app.workspace();
    for (let i = 0; i < MAX_ENDPOINTS_PER_WORKSPACE; i++) await t.endpoint({ url }, ws.key);
    const error = await expectError(
      await req("POST", "/api/v1/webhook_endpoints", { key: ws.key, body: { url } }),
      400,
      "invalid_body",
    );
    expect(error.issues[0].message).toContain(String(MAX_ENDPOINTS_PER_WORKSPACE));
  });

  test("Idempotency-Key errors: too long, reused with another body, still in progress", async () => {
    await expectError(
      await req("POST", "/api/v1/webhook_endpoints", {
        body: { url },
        headers: { "idempotency-key": "k".repeat(256) },
      }),
      400,
      "invalid_idempotency_key",
    );
    const headers = { "idempotency-key": "reuse-1" };
    expect((await req("POST", "/api/v1/webhook_endpoints", { body: { url }, headers })).status).toBe(201);
    await expectError(
      await req("POST", "/api/v1/webhook_endpoints", { body: { url: "http://127.0.0.3:9/" }, headers }),
      409,
      "idempotency_key_reused",
    );
    // A slow DNS answer keeps the first request running while its twin arrives.
    let answer = () => {};
    configureWebhooks(t.app.ctx, {
      clock: t.clock.read,
      settings: { allowNetworks: LOOPBACK },
      resolve: () =>
        new Promise((resolve) => {
          answer = () => resolve(["127.0.0.1"]);
        }),
    });
    try {
      const body = { url: "http://slow.example.test/" };
      const twinHeaders = { "idempotency-key": "twin-1" };
      const first = req("POST", "/api/v1/webhook_endpoints", { body, headers: twinHeaders });
      await Bun.sleep(20);
      await expectError(
        await req("POST", "/api/v1/webhook_endpoints", { body, headers: twinHeaders }),
        409,
        "request_in_progress",
      );
      answer();
      expect((await first).status).toBe(201);
    } finally {
      t.rt = configureWebhooks(t.app.ctx, {
        clock: t.clock.read,
        settings: { allowNetworks: LOOPBACK },
      });
    }
  });

  test("over the key's rate limit: rate_limited with Retry-After", async () => {
    const limited = t.app.workspace({ rateLimit: 1 });
    expect((await req("GET", "/api/v1/webhook_endpoints", { key: limited.key })).status).toBe(200);
    const res = await req("POST", "/api/v1/webhook_endpoints", { key: limited.key, body: { url } });
    await expectError(res, 429, "rate_limited");
  });
});
