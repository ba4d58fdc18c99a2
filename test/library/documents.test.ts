import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { countWords } from "../../src/text/index.ts";
import { essay, json, type TestApp, testApp } from "../support/harness.ts";
import { GLACIER_SOURCE, LIGHTHOUSE_SOURCE } from "./support.ts";

let app: TestApp;
beforeAll(() => {
  app = testApp();
});
afterAll(() => app.close());

const create = (key: string, body: unknown, headers?: Record<string, string>) =>
  app.request("POST", "/api/v1/documents", { key, body, ...(headers && { headers }) });

describe("POST /api/v1/documents", () => {
  test("201 with a document object; free; its fields as sent (URL normalised)", async () => {
    const { key } = app.workspace({ plan: "team", credits: 1_000 });
    const res = await create(key, {
      title: "Glacier notes",
      text: GLACIER_SOURCE,
      url: "HTTPS://Example.ORG:443/notes/#top",
      metadata: { course: "bio-101" },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    expect(res.headers.get("x-ratelimit-limit")).toBe("60");
    const doc = await json(res);
    expect(doc).toEqual({
      id: expect.stringMatching(/^doc_[0-9a-f]{32}$/),
      object: "document",
      title: "Glacier notes",
      url: "https://example.org/notes",
      word_count: countWords(GLACIER_SOURCE),
      metadata: { course: "bio-101" },
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const usage = await json(app.request("GET", "/api/v1/usage", { key }));
    expect(usage.credits.balance).toBe(1_000);
  });

  test("validation: invalid_body with issues; word limits are too_short / too_long; nothing is stored", async () => {
    const { key } = app.workspace();
    const missing = await create(key, { text: GLACIER_SOURCE });
    expect(missing.status).toBe(400);
    const body = await json(missing);
    expect(body.error).toMatchObject({ type: "invalid_request_error", code: "invalid_body" });
    expect(body.error.issues.map((i: { path: string }) => i.path)).toContain("/title");

    const cases: Array<[unknown, string, string | undefined]> = [
      [{ title: "", text: GLACIER_SOURCE }, "invalid_body", "/title"],
      [{ title: "   ", text: GLACIER_SOURCE }, "invalid_body", "/title"],
      [{ title: "x".repeat(201), text: GLACIER_SOURCE }, "invalid_body", "/title"],
      [{ title: "t", text: 42 }, "invalid_body", "/text"],
      [{ title: "t", text: GLACIER_SOURCE, url: "ftp://example.org/x" }, "invalid_body", "/url"],
      [{ title: "t", text: GLACIER_SOURCE, url: "not a url" }, "invalid_body", "/url"],
      [{ title: "t", text: GLACIER_SOURCE, metadata: { k: 1 } }, "invalid_body", "/metadata/k"],
      [{ title: "t", text: GLACIER_SOURCE, metadata: { ["k".repeat(41)]: "v" } }, "invalid_body", undefined],
      [{ title: "t", text: "only eleven words here are not enough to be a source" }, "too_short", undefined],
      [{ title: "t", text: essay(200_001) }, "too_long", undefined],
    ];
    for (const [payload, code, path] of cases) {
      const res = await create(key, payload);
      const { error } = await json(res);
      expect({ payload: JSON.stringify(payload).slice(0, 80), code: error?.code }).toEqual({
        payload: JSON.stringify(payload).slice(0, 80),
        code,
      });
      expect(res.status).toBe(400);
      if (path !== undefined) expect(error.issues.map((i: { path: string }) => i.path)).toContain(path);
    }
    expect((await create(key, "{not json")).status).toBe(400);
    const list = await json(app.request("GET", "/api/v1/documents", { key }));
    expect(list.data).toEqual([]);
  });

  test("the library's upper limit itself is accepted (200,000 words)", async () => {
    const { key } = app.workspace();
    const res = await create(key, { title: "A long book", text: essay(200_000) });
    expect(res.status).toBe(201);
    expect((await json(res)).word_count).toBe(200_000);
  });

  test("an Idempotency-Key replays the creation instead of adding a second document", async () => {
    const { key } = app.workspace();
    const first = await create(key, { title: "Once", text: GLACIER_SOURCE }, { "idempotency-key": "doc-1" });
    const again = await create(key, { title: "Once", text: GLACIER_SOURCE }, { "idempotency-key": "doc-1" });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await json(again)).id).toBe((await json(first)).id);
    expect((await json(app.request("GET", "/api/v1/documents", { key }))).data).toHaveLength(1);
  });

  test("401 without a key", async () => {
    const res = await app.request("POST", "/api/v1/documents", {
      body: { title: "t", text: GLACIER_SOURCE },
    });
    expect(res.status).toBe(401);
    expect((await json(res)).error.code).toBe("unauthorized");
  });
});

describe("GET /api/v1/documents", () => {
  test("newest first, paged with limit and starting_after until has_more is false", async () => {
    const { key } = app.workspace();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      await Bun.sleep(2); // created_at is the wall clock's millisecond; ties are ordered by id
      ids.push((await json(create(key, { title: `Doc ${i}`, text: essay(30, i) }))).id);
    }
    const seen: string[] = [];
    let after: string | undefined;
    for (let pages = 0; pages < 5; pages++) {
      const path = `/api/v1/documents?limit=2${after ? `&starting_after=${after}` : ""}`;
      const page = await json(app.request("GET", path, { key }));
      expect(page.object).toBe("list");
      seen.push(...page.data.map((d: { id: string }) => d.id));
      if (!page.has_more) break;
      after = page.data.at(-1).id;
    }
    expect(seen).toEqual([...ids].reverse());
    const all = await json(app.request("GET", "/api/v1/documents", { key }));
    expect(all.data).toHaveLength(5);
    expect(all.has_more).toBe(false);
  });

  test("a bad limit or an unknown starting_after is invalid_body", async () => {
    const { key } = app.workspace();
    for (const query of ["limit=0", "limit=101", "limit=abc", "starting_after=doc_nope"]) {
      const res = await app.request("GET", `/api/v1/documents?${query}`, { key });
      expect(res.status).toBe(400);
      expect((await json(res)).error.code).toBe("invalid_body");
    }
  });
});

describe("GET and DELETE /api/v1/documents/{id}", () => {
  test("get, delete, then not_found for both", async () => {
    const { key } = app.workspace();
    const doc = await json(create(key, { title: "Lighthouse", text: LIGHTHOUSE_SOURCE }));
    const got = await app.request("GET", `/api/v1/documents/${doc.id}`, { key });
    expect(got.status).toBe(200);
    expect(await json(got)).toEqual(doc);
    const deleted = await app.request("DELETE", `/api/v1/documents/${doc.id}`, { key });
    expect(deleted.status).toBe(200);
    expect(await json(deleted)).toEqual({ id: doc.id, object: "document", deleted: true });
    for (const method of ["GET", "DELETE"]) {
      const res = await app.request(method, `/api/v1/documents/${doc.id}`, { key });
      expect(res.status).toBe(404);
      expect((await json(res)).error).toMatchObject({ type: "invalid_request_error", code: "not_found" });
    }
  });

  test("another workspace's document is not_found everywhere, and is never its source", async () => {
    const a = app.workspace();
    const b = app.workspace();
    const doc = await json(create(a.key, { title: "A's notes", text: LIGHTHOUSE_SOURCE }));
    for (const method of ["GET", "DELETE"]) {
      const res = await app.request(method, `/api/v1/documents/${doc.id}`, { key: b.key });
      expect(res.status).toBe(404);
      expect((await json(res)).error.code).toBe("not_found");
    }
    expect((await json(app.request("GET", "/api/v1/documents", { key: b.key }))).data).toEqual([]);
    const foreignCursor = await app.request("GET", `/api/v1/documents?starting_after=${doc.id}`, {
      key: b.key,
    });
    expect(foreignCursor.status).toBe(400);
    // Still there for its owner after B's attempts.
    expect((await app.request("GET", `/api/v1/documents/${doc.id}`, { key: a.key })).status).toBe(200);
  });
});

describe("OpenAPI", () => {
  test("the document endpoints, their error codes and the Documents tag are described", async () => {
    const doc = await json(app.request("GET", "/api/v1/openapi.json"));
    expect(doc.tags.map((t: { name: string }) => t.name)).toContain("Documents");
    const post = doc.paths["/api/v1/documents"].post;
    expect(post.tags).toEqual(["Documents"]);
    expect(post.responses["201"]).toBeDefined();
    expect(post.responses["400"].description).toContain("too_short");
    expect(post.responses["400"].description).toContain("invalid_body");
    expect(doc.paths["/api/v1/documents"].get.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(["limit", "starting_after"]),
    );
    expect(doc.paths["/api/v1/documents/{id}"].get.responses["404"].description).toContain("not_found");
    expect(doc.paths["/api/v1/documents/{id}"].delete.responses["404"]).toBeDefined();
  });
});
