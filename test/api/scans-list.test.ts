import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { essay, json, manualClock, type TestApp, testApp } from "../support/harness.ts";
import { runCli } from "../support/processes.ts";

const clock = manualClock(Date.parse("2026-11-22T12:00:00Z"));
let app: TestApp;
beforeAll(() => {
  app = testApp({ clock });
});
afterAll(() => app.close());

const detect = async (key: string, body: Record<string, unknown>) => {
  clock.advance(1_000);
  const res = await app.request("POST", "/api/v1/detect", { key, body: { text: essay(60), ...body } });
  expect(res.status).toBe(200);
  return json(res);
};

describe("GET /api/v1/scans", () => {
  test("newest first, paged with starting_after, never another workspace's", async () => {
    const { key } = app.workspace({ credits: 100_000 });
    const other = app.workspace({ credits: 100_000 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await detect(key, { title: `Essay ${i}` })).id);
    await detect(other.key, { title: "Not yours" });
    const first = await json(app.request("GET", "/api/v1/scans?limit=2", { key }));
    expect(first.object).toBe("list");
    expect(first.data.map((s: { id: string }) => s.id)).toEqual([ids[4], ids[3]]);
    expect(first.has_more).toBe(true);
    const second = await json(app.request("GET", `/api/v1/scans?limit=2&starting_after=${ids[3]}`, { key }));
    expect(second.data.map((s: { id: string }) => s.id)).toEqual([ids[2], ids[1]]);
    const last = await json(app.request("GET", `/api/v1/scans?limit=2&starting_after=${ids[1]}`, { key }));
    expect(last.data.map((s: { id: string }) => s.id)).toEqual([ids[0]]);
    expect(last.has_more).toBe(false);
    // Another workspace's scan id is not a cursor here.
    const foreign = (await json(app.request("GET", "/api/v1/scans", { key: other.key }))).data[0].id;
    const refused = await app.request("GET", `/api/v1/scans?starting_after=${foreign}`, { key });
    expect(refused.status).toBe(400);
    expect((await json(refused)).error.code).toBe("invalid_body");
  });

  test("filters: type, status, verdict, folder, source, created after/before, title; bad values are 400", async () => {
    const { key } = app.workspace({ credits: 100_000 });
    const folder = await json(app.request("POST", "/api/v1/folders", { key, body: { name: "Period 3" } }));
    const before = new Date(clock()).toISOString();
    const a = await detect(key, { title: "Causes of the French Revolution", folder_id: folder.id });
    const middle = new Date(clock() + 500).toISOString();
    const b = await detect(key, { title: "Lab report: titration" });
    const list = async (query: string) =>
      (await json(app.request("GET", `/api/v1/scans?${query}`, { key }))).data.map(
        (s: { id: string }) => s.id,
      );
    expect(await list("type=ai_text")).toEqual([b.id, a.id]);
    expect(await list("type=plagiarism")).toEqual([]);
    expect(await list("status=completed")).toEqual([b.id, a.id]);
    expect(await list(`folder_id=${folder.id}`)).toEqual([a.id]);
    expect(await list("source=api")).toEqual([b.id, a.id]);
    expect(await list("source=cli")).toEqual([]);
    expect(await list(`verdict=${a.result.verdict}`)).toContain(a.id);
    expect(await list(`created_after=${encodeURIComponent(middle)}`)).toEqual([b.id]);
    expect(
      await list(`created_after=${encodeURIComponent(before)}&created_before=${encodeURIComponent(middle)}`),
    ).toEqual([a.id]);
    expect(await list("title=french%20REVOLUTION")).toEqual([a.id]);
    expect(await list("title=%25")).toEqual([]);
    for (const query of ["limit=0", "limit=101", "type=essay", "verdict=maybe", "created_after=yesterday"]) {
      const res = await app.request("GET", `/api/v1/scans?${query}`, { key });
      expect(res.status).toBe(400);
      expect((await json(res)).error.code).toBe("invalid_body");
    }
  });
});

describe("folders", () => {
  test("create, list, rename, delete (its scans stay, out of any folder); another workspace's is not_found", async () => {
    const { key } = app.workspace({ credits: 100_000 });
    const other = app.workspace();
    const created = await app.request("POST", "/api/v1/folders", { key, body: { name: "  Essays  " } });
    expect(created.status).toBe(201);
    const folder = await json(created);
    expect(folder).toMatchObject({ object: "folder", name: "Essays", scan_count: 0 });
    expect(folder.id).toMatch(/^fld_/);
    const scan = await detect(key, { folder_id: folder.id });
    expect(scan.folder_id).toBe(folder.id);
    expect((await json(app.request("GET", "/api/v1/folders", { key }))).data).toEqual([
      { ...folder, scan_count: 1 },
    ]);
    const renamed = await json(
      app.request("PATCH", `/api/v1/folders/${folder.id}`, { key, body: { name: "Term 1" } }),
    );
    expect(renamed.name).toBe("Term 1");
    expect((await app.request("GET", `/api/v1/folders/${folder.id}`, { key: other.key })).status).toBe(404);
    expect((await app.request("DELETE", `/api/v1/folders/${folder.id}`, { key: other.key })).status).toBe(
      404,
    );
    const badName = await app.request("POST", "/api/v1/folders", { key, body: { name: "" } });
    expect(badName.status).toBe(400);
    const deleted = await json(app.request("DELETE", `/api/v1/folders/${folder.id}`, { key }));
    expect(deleted).toEqual({ id: folder.id, object: "folder", deleted: true });
    const kept = await json(app.request("GET", `/api/v1/scans/${scan.id}`, { key }));
    expect(kept.folder_id).toBeNull();
    expect((await app.request("GET", `/api/v1/folders/${folder.id}`, { key })).status).toBe(404);
  });

  test("an idempotent folder create is stored with the folder: the retry replays it", async () => {
    const { key } = app.workspace();
    const headers = { "idempotency-key": "folder-1" };
    const first = await app.request("POST", "/api/v1/folders", { key, body: { name: "Once" }, headers });
    const again = await app.request("POST", "/api/v1/folders", { key, body: { name: "Once" }, headers });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await json(again)).toEqual(await json(first));
    expect((await json(app.request("GET", "/api/v1/folders", { key }))).data).toHaveLength(1);
  });
});

describe("textscan scans list|show", () => {
  test("lists the same scans as the API, newest first, and shows one; --json prints the API's objects", async () => {
    const { key, workspace } = app.workspace({ credits: 100_000 });
    const a = await detect(key, { title: "First" });
    const b = await detect(key, { title: "Second" });
    const env = { TEXTSCAN_DATA_DIR: app.dataDir };
    const listed = await runCli(["scans", "list", "--workspace", workspace.id, "--json"], { env });
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout).data.map((s: { id: string }) => s.id)).toEqual([b.id, a.id]);
    const text = await runCli(["scans", "list", "--workspace", workspace.id, "--limit", "1"], { env });
    expect(text.stdout).toContain(b.id);
    expect(text.stdout).toContain(`--after ${b.id}`);
    const shown = await runCli(["scans", "show", a.id, "--workspace", workspace.id, "--json"], { env });
    expect(JSON.parse(shown.stdout)).toEqual(a);
    const missing = await runCli(["scans", "show", a.id, "--workspace", app.workspace().workspace.id], {
      env,
    });
    expect(missing.code).toBe(1);
  });
});
