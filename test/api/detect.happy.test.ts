import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { essay, json, type TestApp, testApp } from "../support/harness.ts";

let app: TestApp;
beforeAll(() => {
  app = testApp();
});
afterAll(() => app.close());

describe("POST /api/v1/detect", () => {
  test("returns a completed ai_text scan with the spec's fields and headers", async () => {
    const { key, workspace } = app.workspace({ credits: 10_000 });
    const text = essay(120);
    const res = await app.request("POST", "/api/v1/detect", {
      key,
      body: { text, title: "Essay 1", author: "Ada", metadata: { student: "42" } },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{24}$/);
    expect(res.headers.get("x-ratelimit-limit")).toBe("60");
    expect(res.headers.get("x-ratelimit-remaining")).toBe("59");
    expect(Number(res.headers.get("x-ratelimit-reset"))).toBeGreaterThan(0);
    expect(res.headers.get("x-credits-remaining")).toBe(String(10_000 - 120));
    expect(res.headers.get("idempotent-replayed")).toBeNull();

    const scan = await json(res);
    expect(scan).toMatchObject({
      object: "scan",
      type: "ai_text",
      status: "completed",
      credits_used: 120,
      metadata: { student: "42" },
      error: null,
      title: "Essay 1",
      author: "Ada",
      source: "api",
    });
    expect(scan.id).toMatch(/^scn_[0-9a-f]{32}$/);
    expect(Date.parse(scan.created_at)).not.toBeNaN();
    expect(scan.created_at.endsWith("Z")).toBe(true);
    expect(scan.completed_at).toBe(scan.created_at);

    const result = scan.result;
    expect(result.word_count).toBe(120);
    expect(Number.isInteger(result.human_score)).toBe(true);
    expect(result.human_score).toBeGreaterThanOrEqual(0);
    expect(result.human_score).toBeLessThanOrEqual(100);
    const expectedVerdict = result.human_score >= 60 ? "human" : result.human_score >= 35 ? "mixed" : "ai";
    expect(result.verdict).toBe(expectedVerdict);
    expect(result.sentence_count).toBeGreaterThan(5);
    expect(result.readability).toBeGreaterThanOrEqual(0);
    expect(result.readability).toBeLessThanOrEqual(100);
    expect(result.sentences.length).toBe(result.sentence_count);
    for (const s of result.sentences) {
      expect(text.slice(s.start, s.end)).toBe(s.text);
      expect(s.ai_probability).toBe(Math.round(s.ai_probability * 1000) / 1000);
      expect(s.verdict).toBe(s.ai_probability >= 0.65 ? "ai" : s.ai_probability >= 0.4 ? "mixed" : "human");
    }

    const usage = await json(app.request("GET", "/api/v1/usage", { key }));
    expect(usage.credits.balance).toBe(10_000 - 120);
    expect(usage.workspace_id).toBe(workspace.id);
  });

  test("sentences: false omits per-sentence results; language is echoed as scored", async () => {
    const { key } = app.workspace();
    const res = await app.request("POST", "/api/v1/detect", {
      key,
      body: { text: essay(60), sentences: false, language: "EN" },
    });
    expect(res.status).toBe(200);
    const scan = await json(res);
    expect(scan.result.sentences).toBeUndefined();
    expect(scan.result.language).toBe("en");
    expect(scan.metadata).toEqual({});
  });

  test("a 25,000-word text is accepted and charged 25,000 credits", async () => {
    const { key } = app.workspace({ credits: 30_000 });
    const res = await app.request("POST", "/api/v1/detect", {
      key,
      body: { text: essay(25_000), sentences: false },
    });
    expect(res.status).toBe(200);
    const scan = await json(res);
    expect(scan.credits_used).toBe(25_000);
    expect(scan.result.word_count).toBe(25_000);
    expect(res.headers.get("x-credits-remaining")).toBe("5000");
  });

  test("metadata at its limits is kept exactly", async () => {
    const { key } = app.workspace();
    const metadata = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`k${String(i).padStart(38, "0")}`, "v".repeat(500)]),
    );
    const res = await app.request("POST", "/api/v1/detect", { key, body: { text: essay(50), metadata } });
    expect(res.status).toBe(200);
    expect((await json(res)).metadata).toEqual(metadata);
  });
});

describe("GET /api/v1/scans/{id}", () => {
  test("returns the scan exactly as created", async () => {
    const { key } = app.workspace();
    const created = await json(app.request("POST", "/api/v1/detect", { key, body: { text: essay(45) } }));
    const res = await app.request("GET", `/api/v1/scans/${created.id}`, { key });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ratelimit-limit")).toBe("60");
    expect(res.headers.get("x-credits-remaining")).toBeNull();
    expect(await json(res)).toEqual(created);
  });
});

describe("GET /api/v1/usage", () => {
  test("rate_limit equals the same response's headers", async () => {
    const { key, workspace } = app.workspace({ plan: "essential", rateLimit: 7 });
    await app.request("GET", "/api/v1/usage", { key });
    const res = await app.request("GET", "/api/v1/usage", { key });
    expect(res.status).toBe(200);
    const usage = await json(res);
    expect(usage).toEqual({
      object: "usage",
      workspace_id: workspace.id,
      plan: "essential",
      credits: { balance: 150_000, monthly_allowance: 150_000 },
      rate_limit: {
        limit: Number(res.headers.get("x-ratelimit-limit")),
        remaining: Number(res.headers.get("x-ratelimit-remaining")),
        reset: Number(res.headers.get("x-ratelimit-reset")),
      },
    });
    expect(usage.rate_limit.limit).toBe(7);
    expect(usage.rate_limit.remaining).toBe(5);
    expect(usage.workspace_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
});

describe("GET /api/v1/openapi.json", () => {
  test("is an OpenAPI 3.1 document served without a key, describing every endpoint, error and header", async () => {
    const res = await app.request("GET", "/api/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(res.headers.get("x-ratelimit-limit")).toBeNull();
    const doc = await json(res);
    expect(doc.openapi).toMatch(/^3\.1\./);
    // Checked against the official OpenAPI 3.1 JSON schema by an independent validator.
    const validation = await new Validator().validate(doc);
    expect(validation).toEqual({ valid: true });
    for (const [path, method] of [
      ["/api/v1/detect", "post"],
      ["/api/v1/scans/{id}", "get"],
      ["/api/v1/usage", "get"],
      ["/api/v1/image", "post"],
      ["/api/v1/openapi.json", "get"],
    ] as const) {
      expect(doc.paths[path]?.[method]).toBeDefined();
    }
    const detect = doc.paths["/api/v1/detect"].post;
    expect(detect.requestBody.content["application/json"].schema.required).toContain("text");
    expect(Object.keys(detect.responses)).toEqual(
      expect.arrayContaining(["200", "400", "401", "402", "409", "413", "429", "500", "503"]),
    );
    expect(detect.responses["200"].headers["X-Credits-Remaining"]).toBeDefined();
    expect(detect.responses["429"].headers["Retry-After"]).toBeDefined();
    expect(detect.parameters.some((p: { name: string }) => p.name === "Idempotency-Key")).toBe(true);
    expect(doc.paths["/api/v1/image"].post.responses["501"]).toBeDefined();
    expect(doc.paths["/api/v1/scans/{id}"].get.responses["404"]).toBeDefined();
    expect(doc.components.securitySchemes.bearerAuth.scheme).toBe("bearer");
    expect(doc.components.schemas.Error).toBeDefined();
    for (const name of [
      "X-Request-Id",
      "X-RateLimit-Limit",
      "X-RateLimit-Remaining",
      "X-RateLimit-Reset",
      "Retry-After",
      "X-Credits-Remaining",
      "Idempotent-Replayed",
    ]) {
      expect(doc.components.headers[name]).toBeDefined();
    }
  });

  test("the reference page at /docs loads its script from this server, not a CDN", async () => {
    const page = await (await app.request("GET", "/docs")).text();
    expect(page).toContain('data-url="/api/v1/openapi.json"');
    expect(page).not.toMatch(/https?:\/\//);
    const script = await app.request("GET", "/docs/scalar.js");
    expect(script.status).toBe(200);
    expect((await script.text()).length).toBeGreaterThan(100_000);
  });
});
