import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { essay, json, tempDataDir } from "../support/harness.ts";
import { runCli, startServerProcess } from "../support/processes.ts";

const { dir, cleanup } = tempDataDir();
afterAll(cleanup);
const env = { TEXTSCAN_DATA_DIR: dir };

const cliJson = async (args: string[]) => {
  const res = await runCli(args, { env });
  expect(res.stderr).toBe("");
  expect(res.code).toBe(0);
  return JSON.parse(res.stdout);
};

describe("textscan workspace / key / credits", () => {
  test("workspace create --json prints id, name, plan and credits; the plan's allowance is the default start", async () => {
    const ws = await cliJson(["workspace", "create", "--name", "Acme", "--plan", "advanced", "--json"]);
    expect(Object.keys(ws).sort()).toEqual(["credits", "id", "name", "plan"]);
    expect(ws.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(ws).toMatchObject({
      name: "Acme",
      plan: "advanced",
      credits: { balance: 500_000, monthly_allowance: 500_000 },
    });
  });

  test("--credits sets the starting balance exactly; --data-dir wins over the environment", async () => {
    const other = tempDataDir();
    try {
      const ws = await cliJson([
        "workspace",
        "create",
        "--name",
        "Exact",
        "--credits",
        "123",
        "--json",
        "--data-dir",
        other.dir,
      ]);
      expect(ws.credits).toEqual({ balance: 123, monthly_allowance: 10_000 });
      const listed = await cliJson(["workspace", "list", "--json", "--data-dir", other.dir]);
      expect(listed.map((w: { id: string }) => w.id)).toEqual([ws.id]);
    } finally {
      other.cleanup();
    }
  });

  test("workspace list and show", async () => {
    const ws = await cliJson(["workspace", "create", "--name", "Listed", "--json"]);
    const all = await cliJson(["workspace", "list", "--json"]);
    expect(all.some((w: { id: string }) => w.id === ws.id)).toBe(true);
    expect(await cliJson(["workspace", "show", ws.id, "--json"])).toEqual(ws);
    const text = await runCli(["workspace", "show", ws.id], { env });
    expect(text.stdout).toContain(ws.id);
    expect(text.stdout).toContain("Listed");
  });

  test("credits add writes a ledger row and prints the new balance", async () => {
    const ws = await cliJson(["workspace", "create", "--name", "Topup", "--credits", "5", "--json"]);
    const after = await cliJson(["credits", "add", "--workspace", ws.id, "--amount", "95", "--json"]);
    expect(after.credits.balance).toBe(100);
  });

  test("key create prints id and key once; key list shows prefixes only; a revoked key is refused by a running server at once", async () => {
    const ws = await cliJson(["workspace", "create", "--name", "Keys", "--credits", "10000", "--json"]);
    const created = await cliJson(["key", "create", "--workspace", ws.id, "--name", "ci", "--json"]);
    expect(Object.keys(created).sort()).toEqual(["id", "key"]);
    expect(created.key).toMatch(/^svc_live_[A-Za-z0-9]{32}$/);
    const listed = await runCli(["key", "list", "--workspace", ws.id, "--json"], { env });
    expect(listed.stdout).not.toContain(created.key);
    expect(JSON.parse(listed.stdout)[0]).toMatchObject({
      id: created.id,
      name: "ci",
      rate_limit: 60,
      revoked_at: null,
    });

    const server = await startServerProcess(dir, { args: ["--workers", "0"] });
    try {
      const call = () =>
        fetch(`${server.url}/api/v1/detect`, {
          method: "POST",
          headers: { authorization: `Bearer ${created.key}`, "content-type": "application/json" },
          body: JSON.stringify({ text: essay(50) }),
        });
      expect((await call()).status).toBe(200);
      await cliJson(["key", "revoke", created.id, "--json"]);
      const refused = await call();
      expect(refused.status).toBe(401);
      expect((await json(refused)).error.code).toBe("unauthorized");
    } finally {
      await server.stop();
    }
  });

  test("credits added by the CLI are spendable by a running server at once", async () => {
    const ws = await cliJson(["workspace", "create", "--name", "Live", "--credits", "0", "--json"]);
    const { key } = await cliJson(["key", "create", "--workspace", ws.id, "--json"]);
    const server = await startServerProcess(dir, { args: ["--workers", "0"] });
    try {
      const usage = () =>
        json(fetch(`${server.url}/api/v1/usage`, { headers: { authorization: `Bearer ${key}` } }));
      expect((await usage()).credits.balance).toBe(0);
      await cliJson(["credits", "add", "--workspace", ws.id, "--amount", "77", "--json"]);
      expect((await usage()).credits.balance).toBe(77);
    } finally {
      await server.stop();
    }
  });
});

describe("errors are one clear line and a non-zero exit", () => {
  const cases: Array<[string, string[], number, RegExp]> = [
    ["unknown command", ["frobnicate"], 2, /unknown command/],
    ["missing required option", ["workspace", "create"], 2, /--name is required/],
    ["bad plan", ["workspace", "create", "--name", "x", "--plan", "gold"], 1, /Unknown plan 'gold'/],
    [
      "bad number",
      ["credits", "add", "--workspace", "x", "--amount", "ten"],
      2,
      /--amount must be a whole number/,
    ],
    ["unknown workspace", ["key", "create", "--workspace", "nope"], 1, /No workspace with id 'nope'/],
    ["unknown option", ["workspace", "list", "--colour"], 2, /Unknown option '--colour'/],
    ["unknown key", ["key", "revoke", "key_nope"], 1, /No API key with id 'key_nope'/],
  ];
  for (const [name, args, code, message] of cases) {
    test(name, async () => {
      const res = await runCli(args, { env });
      expect(res.code).toBe(code);
      expect(res.stderr).toMatch(message);
      expect(res.stderr.trim().split("\n")).toHaveLength(1);
    });
  }
});

describe("--help", () => {
  const commands = [
    "serve",
    "workspace create",
    "workspace list",
    "workspace show",
    "key create",
    "key list",
    "key revoke",
    "credits add",
    "detect",
  ];
  for (const command of commands) {
    test(`${command} --help`, async () => {
      const res = await runCli([...command.split(" "), "--help"], { env });
      expect(res.code).toBe(0);
      expect(res.stdout).toContain(`Usage: textscan ${command}`);
      if (command !== "detect" && command !== "serve") expect(res.stdout).toContain("--data-dir");
    });
  }

  test("textscan --help lists every command", async () => {
    const res = await runCli(["--help"]);
    expect(res.code).toBe(0);
    for (const command of commands) expect(res.stdout).toContain(command);
  });
});

describe("textscan detect", () => {
  test("scores a file and prints a readable report", async () => {
    const file = join(dir, "essay.txt");
    writeFileSync(file, essay(120));
    const res = await runCli(["detect", file]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/verdict: (human|mixed|ai)/);
    expect(res.stdout).toMatch(/human_score: \d+\/100/);
    expect(res.stdout).toContain("words: 120");
    expect(res.stdout).not.toContain("\x1b["); // no colour when not on a terminal
    const coloured = await runCli(["detect", file, "--color"]);
    expect(coloured.stdout).toContain("\x1b[");
  });

  test("reads standard input with -, and --json prints the API's result object", async () => {
    const text = essay(80);
    const res = await runCli(["detect", "-", "--json"], { stdin: text });
    expect(res.code).toBe(0);
    const result = JSON.parse(res.stdout);
    expect(result.word_count).toBe(80);
    expect(["human", "mixed", "ai"]).toContain(result.verdict);
    expect(result.sentences.length).toBe(result.sentence_count);
    expect(text.slice(result.sentences[0].start, result.sentences[0].end)).toBe(result.sentences[0].text);
  });

  test("refuses a text under 40 words and a missing file", async () => {
    const short = await runCli(["detect", "-"], { stdin: "too few words here" });
    expect(short.code).toBe(1);
    expect(short.stderr).toMatch(/at least 40/);
    const missing = await runCli(["detect", "/no/such/file.txt"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read/);
  });
});

describe("textscan detect --workspace", () => {
  test("saves a charged scan with source cli, readable through the API", async () => {
    const ws = await cliJson(["workspace", "create", "--name", "CliScans", "--credits", "500", "--json"]);
    const res = await runCli(
      ["detect", "-", "--workspace", ws.id, "--title", "From the terminal", "--json"],
      {
        env,
        stdin: essay(70),
      },
    );
    expect(res.code).toBe(0);
    const scan = JSON.parse(res.stdout);
    expect(scan).toMatchObject({
      type: "ai_text",
      status: "completed",
      source: "cli",
      title: "From the terminal",
      credits_used: 70,
    });
    expect((await cliJson(["workspace", "show", ws.id, "--json"])).credits.balance).toBe(430);
  });

  test("refuses when the workspace cannot pay", async () => {
    const ws = await cliJson(["workspace", "create", "--name", "Poor", "--credits", "10", "--json"]);
    const res = await runCli(["detect", "-", "--workspace", ws.id], { env, stdin: essay(70) });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/costs 70 credits and the workspace has 10/);
  });
});
