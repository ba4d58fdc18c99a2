import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { detect as scoreText } from "../../src/detection/index.ts";
import { revokeKey } from "../../src/keys/index.ts";
import { essay, json, type TestApp, testApp } from "../support/harness.ts";

let app: TestApp;
beforeAll(() => {
  app = testApp();
});
afterAll(() => app.close());

/** Asserts the spec 7 envelope and returns its `error` object. */
async function expectError(res: Response, status: number, type: string, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toContain("application/json");
  const body = await json(res);
  expect(body.error.type).toBe(type);
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe("string");
  expect(body.error.message.length).toBeGreaterThan(0);
  expect(body.error.request_id).toBe(res.headers.get("x-request-id"));
  return body.error;
}

const detect = (key: string, body: unknown, headers?: Record<string, string>) =>
  app.request("POST", "/api/v1/detect", { key, body, ...(headers && { headers }) });

describe("invalid_body (400)", () => {
  const cases: Array<[string, unknown, string]> = [
    ["text missing", { title: "x" }, "/text"],
    ["text not a string", { text: 42 }, "/text"],
    ["title over 200 characters", { text: essay(50), title: "t".repeat(201) }, "/title"],
    ["author over 120 characters", { text: essay(50), author: "a".repeat(121) }, "/author"],
    ["sentences not a boolean", { text: essay(50), sentences: "false" }, "/sentences"],
    ["language not an ISO 639-1 code", { text: essay(50), language: "english" }, "/language"],
    ["metadata value not a string", { text: essay(50), metadata: { n: 1 } }, "/metadata"],
    [
      "metadata with 21 pairs",
      { text: essay(50), metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, "v"])) },
      "/metadata",
    ],
    [
      "metadata key over 40 characters",
      { text: essay(50), metadata: { ["k".repeat(41)]: "v" } },
      "/metadata",
    ],
    [
      "metadata value over 500 characters",
      { text: essay(50), metadata: { k: "v".repeat(501) } },
      "/metadata",
    ],
    ["unknown folder_id", { text: essay(50), folder_id: "fld_nope" }, "/folder_id"],
  ];
  for (const [name, body, path] of cases) {
    test(name, async () => {
      const { key } = app.workspace();
      const error = await expectError(await detect(key, body), 400, "invalid_request_error", "invalid_body");
      expect(error.issues.length).toBeGreaterThan(0);
      expect(error.issues.some((i: { path: string }) => i.path.startsWith(path))).toBe(true);
      for (const issue of error.issues) expect(typeof issue.message).toBe("string");
    });
  }

  test("malformed JSON", async () => {
    const { key } = app.workspace();
    const error = await expectError(
      await detect(key, '{"text": "unterminated'),
      400,
      "invalid_request_error",
      "invalid_body",
    );
    expect(error.issues).toBeArray();
  });

  test("a body that is not JSON (wrong content type)", async () => {
    const { key } = app.workspace();
    const res = await detect(key, essay(50), { "content-type": "text/plain" });
    await expectError(res, 400, "invalid_request_error", "invalid_body");
  });

  test("an empty body", async () => {
    const { key } = app.workspace();
    const res = await app.request("POST", "/api/v1/detect", { key });
    const error = await expectError(res, 400, "invalid_request_error", "invalid_body");
    expect(error.issues.length).toBeGreaterThan(0);
  });

  test("nothing is charged or written for an invalid body", async () => {
    const { key } = app.workspace({ credits: 500 });
    await detect(key, { text: essay(50), folder_id: "fld_nope" });
    const usage = await json(app.request("GET", "/api/v1/usage", { key }));
    expect(usage.credits.balance).toBe(500);
  });
});

describe("word limits", () => {
  test("too_short: 39 words", async () => {
    const { key } = app.workspace();
    const error = await expectError(
      await detect(key, { text: essay(39) }),
      400,
      "invalid_request_error",
      "too_short",
    );
    expect(error.message).toContain("39");
  });

  test("40 words is enough", async () => {
    const { key } = app.workspace();
    expect((await detect(key, { text: essay(40) })).status).toBe(200);
  });

  test("too_long: 25,001 words, and nothing is charged", async () => {
    const { key } = app.workspace({ credits: 100_000 });
    await expectError(await detect(key, { text: essay(25_001) }), 400, "invalid_request_error", "too_long");
    const usage = await json(app.request("GET", "/api/v1/usage", { key }));
    expect(usage.credits.balance).toBe(100_000);
  });
});

describe("unauthorized (401)", () => {
  test("missing Authorization header", async () => {
    const res = await app.request("POST", "/api/v1/detect", { body: { text: essay(50) } });
    await expectError(res, 401, "authentication_error", "unauthorized");
    expect(res.headers.get("x-ratelimit-limit")).toBeNull();
  });

  test("not a Bearer header", async () => {
    const { key } = app.workspace();
    const res = await app.request("GET", "/api/v1/usage", { headers: { authorization: `Basic ${key}` } });
    await expectError(res, 401, "authentication_error", "unauthorized");
  });

  test("mistyped key", async () => {
    const { key } = app.workspace();
    await expectError(
      await app.request("GET", "/api/v1/usage", { key: `${key.slice(0, -1)}X` }),
      401,
      "authentication_error",
      "unauthorized",
    );
    await expectError(
      await app.request("GET", "/api/v1/usage", { key: "svc_live_short" }),
      401,
      "authentication_error",
      "unauthorized",
    );
  });

  test("revoked key is refused at once", async () => {
    const { key, keyId } = app.workspace();
    expect((await app.request("GET", "/api/v1/usage", { key })).status).toBe(200);
    revokeKey(app.ctx, keyId);
    await expectError(
      await app.request("GET", "/api/v1/usage", { key }),
      401,
      "authentication_error",
      "unauthorized",
    );
  });

  test("auth comes before body validation and routing", async () => {
    await expectError(
      await app.request("POST", "/api/v1/detect", { body: "{bad" }),
      401,
      "authentication_error",
      "unauthorized",
    );
    await expectError(await app.request("GET", "/api/v1/nope"), 401, "authentication_error", "unauthorized");
  });
});

describe("insufficient_credits (402)", () => {
  test("carries cost and balance and writes nothing", async () => {
    const { key } = app.workspace({ credits: 49 });
    const error = await expectError(
      await detect(key, { text: essay(50) }),
      402,
      "billing_error",
      "insufficient_credits",
    );
    expect(error.cost).toBe(50);
    expect(error.balance).toBe(49);
    const usage = await json(app.request("GET", "/api/v1/usage", { key }));
    expect(usage.credits.balance).toBe(49);
    const scans = app.service.store.sqlite
      .query(
        "SELECT count(*) AS n FROM scans s JOIN api_keys k ON k.workspace_id = s.workspace_id WHERE k.key_hash = ?",
      )
      .get(new Bun.CryptoHasher("sha256").update(key).digest("hex")) as { n: number };
    expect(scans.n).toBe(0);
  });

  test("an exact balance is enough", async () => {
    const { key } = app.workspace({ credits: 50 });
    const res = await detect(key, { text: essay(50) });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-credits-remaining")).toBe("0");
  });
});

describe("not_found (404)", () => {
  test("unknown scan id, malformed id, another workspace's scan", async () => {
    const a = app.workspace();
    const b = app.workspace();
    const created = await json(detect(a.key, { text: essay(50) }));
    await expectError(
      await app.request("GET", `/api/v1/scans/scn_${"0".repeat(32)}`, { key: a.key }),
      404,
      "invalid_request_error",
      "not_found",
    );
    await expectError(
      await app.request("GET", "/api/v1/scans/nope", { key: a.key }),
      404,
      "invalid_request_error",
      "not_found",
    );
    await expectError(
      await app.request("GET", `/api/v1/scans/${created.id}`, { key: b.key }),
      404,
      "invalid_request_error",
      "not_found",
    );
    expect((await app.request("GET", `/api/v1/scans/${created.id}`, { key: a.key })).status).toBe(200);
  });

  test("unknown route and wrong method use the envelope", async () => {
    const { key } = app.workspace();
    await expectError(
      await app.request("GET", "/api/v1/nothing-here", { key }),
      404,
      "invalid_request_error",
      "not_found",
    );
    await expectError(
      await app.request("DELETE", "/api/v1/usage", { key }),
      404,
      "invalid_request_error",
      "not_found",
    );
    await expectError(await app.request("GET", "/favicon.ico"), 404, "invalid_request_error", "not_found");
  });
});

describe("not_available (501)", () => {
  test("POST /api/v1/image, after authentication, whatever the body", async () => {
    const { key } = app.workspace({ plan: "free" });
    await expectError(
      await app.request("POST", "/api/v1/image", { key, body: { url: "https://x/y.png" } }),
      501,
      "api_error",
      "not_available",
    );
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array([137, 80, 78, 71])], { type: "image/png" }), "a.png");
    const res = await app.service.fetch(
      new Request("http://localhost/api/v1/image", {
        method: "POST",
        headers: { authorization: `Bearer ${key}` },
        body: form,
      }),
    );
    await expectError(res, 501, "api_error", "not_available");
    await expectError(
      await app.request("POST", "/api/v1/image", { body: {} }),
      401,
      "authentication_error",
      "unauthorized",
    );
  });
});

describe("rate_limited (429)", () => {
  test("over the key's per-minute limit, with retry_after and Retry-After", async () => {
    const { key } = app.workspace({ rateLimit: 3 });
    for (let i = 0; i < 3; i++) expect((await app.request("GET", "/api/v1/usage", { key })).status).toBe(200);
    const res = await app.request("GET", "/api/v1/usage", { key });
    const error = await expectError(res, 429, "rate_limit_error", "rate_limited");
    expect(error.retry_after).toBeGreaterThan(0);
    expect(error.retry_after).toBeLessThanOrEqual(60);
    expect(res.headers.get("retry-after")).toBe(String(error.retry_after));
    expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(res.headers.get("x-ratelimit-limit")).toBe("3");
  });

  test("limits are per key: another key of the same workspace is not affected", async () => {
    const ws = app.workspace({ rateLimit: 1 });
    await app.request("GET", "/api/v1/usage", { key: ws.key });
    expect((await app.request("GET", "/api/v1/usage", { key: ws.key })).status).toBe(429);
    const other = app.workspace({ rateLimit: 1 });
    expect((await app.request("GET", "/api/v1/usage", { key: other.key })).status).toBe(200);
  });
});

describe("body limits", () => {
  test("body_too_large (413) above the service's body limit", async () => {
    const { key } = app.workspace();
    const res = await detect(key, { text: "word ".repeat(1_000_000) });
    await expectError(res, 413, "invalid_request_error", "body_too_large");
  });
});

describe("server_error (500)", () => {
  test("a store failing mid-scan answers 500, charges nothing, and the same Idempotency-Key then runs again", async () => {
    const { key } = app.workspace({ credits: 1000 });
    const sqlite = app.service.store.sqlite;
    const body = { text: essay(50) };
    const headers = { "idempotency-key": "retry-after-500" };
    // Make the scan insert fail inside its transaction, as a full disk or a failing device would. A TEMP
    // trigger lives on this connection only and is dropped right after.
    sqlite.run(
      "CREATE TEMP TRIGGER fail_scan_insert BEFORE INSERT ON scans BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END",
    );
    let res: Response;
    try {
      res = await detect(key, body, headers);
    } finally {
      sqlite.run("DROP TRIGGER temp.fail_scan_insert");
    }
    await expectError(res, 500, "api_error", "server_error");
    const usage = await json(app.request("GET", "/api/v1/usage", { key }));
    expect(usage.credits.balance).toBe(1000);
    const retry = await detect(key, body, headers);
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    expect(retry.headers.get("x-credits-remaining")).toBe("950");
  });
});

describe("unavailable (503)", () => {
  test("a detector that cannot score answers 503, charges nothing and frees the Idempotency-Key", async () => {
    let healthy = false;
    const flaky = testApp({
      detector: {
        // The failure is injected at the engine's seam, as a crashed detection thread would fail.
        score: async (text, options) => {
          if (!healthy) throw new Error("detection worker crashed");
          return scoreText(text, options);
        },
        close: () => {},
      },
    });
    try {
      const { key } = flaky.workspace({ credits: 1_000 });
      const body = { text: essay(50) };
      const headers = { "idempotency-key": "after-503" };
      const res = await flaky.request("POST", "/api/v1/detect", { key, body, headers });
      await expectError(res, 503, "api_error", "unavailable");
      expect((await json(flaky.request("GET", "/api/v1/usage", { key }))).credits.balance).toBe(1_000);
      healthy = true;
      const retry = await flaky.request("POST", "/api/v1/detect", { key, body, headers });
      expect(retry.status).toBe(200);
      expect(retry.headers.get("idempotent-replayed")).toBeNull();
    } finally {
      await flaky.close();
    }
  });
});
