import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { workerPoolDetector } from "../../src/detector/index.ts";
import { addCredits, grantMonthlyAllowances } from "../../src/workspaces/index.ts";
import { at, essay, json, type TestApp, testApp } from "../support/harness.ts";

let app: TestApp;
beforeAll(() => {
  app = testApp({ detector: workerPoolDetector(2) });
});
afterAll(() => app.close());

function ledger(workspaceId: string) {
  const sqlite = app.service.store.sqlite;
  const sum = sqlite
    .query("SELECT coalesce(sum(delta), 0) AS s FROM credit_ledger WHERE workspace_id = ?")
    .get(workspaceId) as { s: number };
  const balance = sqlite.query("SELECT balance FROM workspaces WHERE id = ?").get(workspaceId) as {
    balance: number;
  };
  const orphans = sqlite
    .query(
      `SELECT count(*) AS n FROM scans s WHERE s.workspace_id = ? AND NOT EXISTS
         (SELECT 1 FROM credit_ledger l WHERE l.scan_id = s.id AND l.reason = 'scan_charge' AND l.delta = -s.credits_used)`,
    )
    .get(workspaceId) as { n: number };
  const scans = sqlite.query("SELECT count(*) AS n FROM scans WHERE workspace_id = ?").get(workspaceId) as {
    n: number;
  };
  const events = sqlite
    .query("SELECT count(*) AS n FROM events WHERE workspace_id = ? AND type = 'scan.completed'")
    .get(workspaceId) as { n: number };
  return { sum: sum.s, balance: balance.balance, orphans: orphans.n, scans: scans.n, events: events.n };
}

describe("credit conservation", () => {
  test("200 concurrent detects racing for a balance that covers only some of them", async () => {
    const { key, workspace } = app.workspace({ credits: 5_000, rateLimit: 1_000 });
    const text = essay(60);
    const responses = await Promise.all(
      Array.from({ length: 200 }, () =>
        app.request("POST", "/api/v1/detect", { key, body: { text, sentences: false } }),
      ),
    );
    const ok = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status === 402);
    expect(ok.length + refused.length).toBe(200);
    expect(ok.length).toBe(Math.floor(5_000 / 60));
    for (const res of refused) {
      const { error } = await json(res);
      expect(error.code).toBe("insufficient_credits");
      expect(error.cost).toBe(60);
      expect(error.balance).toBeLessThan(60);
      expect(error.balance).toBeGreaterThanOrEqual(0);
    }
    const remaining = ok.map((r) => Number(r.headers.get("x-credits-remaining")));
    expect(new Set(remaining).size).toBe(ok.length); // every success saw its own balance
    expect(Math.min(...remaining)).toBe(5_000 - ok.length * 60);

    const state = ledger(workspace.id);
    expect(state.balance).toBe(5_000 - ok.length * 60);
    expect(state.balance).toBeGreaterThanOrEqual(0);
    expect(state.sum).toBe(state.balance);
    expect(state.scans).toBe(ok.length);
    expect(state.orphans).toBe(0);
    expect(state.events).toBe(ok.length);
  });

  test("admin grants are ledger rows too", () => {
    const { workspace } = app.workspace({ credits: 10 });
    const after = addCredits(app.ctx, workspace.id, 90);
    expect(after.credits.balance).toBe(100);
    const state = ledger(workspace.id);
    expect(state.sum).toBe(100);
    expect(state.balance).toBe(100);
  });
});

describe("monthly allowance", () => {
  test("is granted once per calendar month, never twice, and counted in the ledger", () => {
    const { workspace } = app.workspace({ plan: "essential" }); // created this month with its allowance
    const nextMonth = Date.UTC(2099, 0, 1, 0, 30);
    const before = ledger(workspace.id).balance;
    grantMonthlyAllowances(at(app.ctx, nextMonth));
    expect(ledger(workspace.id).balance).toBe(before + 150_000);
    grantMonthlyAllowances(at(app.ctx, nextMonth + 3_600_000));
    grantMonthlyAllowances(at(app.ctx, Date.UTC(2099, 0, 31, 23, 59)));
    const state = ledger(workspace.id);
    expect(state.balance).toBe(before + 150_000);
    expect(state.sum).toBe(state.balance);
    grantMonthlyAllowances(at(app.ctx, Date.UTC(2099, 1, 1)));
    expect(ledger(workspace.id).balance).toBe(before + 300_000);
  });

  test("the creation month counts as granted, with --credits too", () => {
    const { workspace } = app.workspace({ plan: "team", credits: 7 });
    grantMonthlyAllowances(app.ctx);
    expect(ledger(workspace.id).balance).toBe(7);
  });
});

describe("workspace isolation", () => {
  test("a key sees only its own workspace's scans and usage", async () => {
    const a = app.workspace({ credits: 1_000 });
    const b = app.workspace({ credits: 2_000 });
    const scanA = await json(
      app.request("POST", "/api/v1/detect", { key: a.key, body: { text: essay(50) } }),
    );
    const scanB = await json(
      app.request("POST", "/api/v1/detect", { key: b.key, body: { text: essay(55) } }),
    );
    expect((await app.request("GET", `/api/v1/scans/${scanB.id}`, { key: a.key })).status).toBe(404);
    expect((await app.request("GET", `/api/v1/scans/${scanA.id}`, { key: b.key })).status).toBe(404);
    const usageA = await json(app.request("GET", "/api/v1/usage", { key: a.key }));
    const usageB = await json(app.request("GET", "/api/v1/usage", { key: b.key }));
    expect(usageA.workspace_id).toBe(a.workspace.id);
    expect(usageA.credits.balance).toBe(950);
    expect(usageB.credits.balance).toBe(1_945);
  });

  test("a folder of another workspace is an unknown folder_id", async () => {
    const a = app.workspace();
    const b = app.workspace();
    app.service.store.sqlite.run(
      "INSERT INTO folders (id, workspace_id, name, created_at) VALUES (?, ?, ?, ?)",
      ["fld_of_b", b.workspace.id, "B's folder", Date.now()],
    );
    const res = await app.request("POST", "/api/v1/detect", {
      key: a.key,
      body: { text: essay(50), folder_id: "fld_of_b" },
    });
    expect(res.status).toBe(400);
    expect((await json(res)).error.code).toBe("invalid_body");
    const own = await app.request("POST", "/api/v1/detect", {
      key: b.key,
      body: { text: essay(50), folder_id: "fld_of_b" },
    });
    expect(own.status).toBe(200);
    expect((await json(own)).folder_id).toBe("fld_of_b");
  });
});
