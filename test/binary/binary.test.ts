import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { essay, json, tempDataDir } from "../support/harness.ts";
import { runCli, startServerProcess } from "../support/processes.ts";

const REPO = new URL("../../", import.meta.url).pathname;
const BINARY = join(REPO, "dist", "textscan");
const { dir, cleanup } = tempDataDir();

beforeAll(async () => {
  // Build exactly as `bun run build` does, so the test proves the shipped artefact.
  const build = Bun.spawn([process.execPath, "run", "build"], { cwd: REPO, stdout: "pipe", stderr: "pipe" });
  const code = await build.exited;
  if (code !== 0) throw new Error(`build failed: ${await new Response(build.stderr).text()}`);
}, 120_000);
afterAll(cleanup);

describe("the compiled binary", () => {
  test("is built to dist/textscan", () => {
    expect(existsSync(BINARY)).toBe(true);
  });

  test("migrates a fresh data directory, serves /detect with real engine output, and its docs offline", async () => {
    const ws = JSON.parse(
      (
        await runCli(["workspace", "create", "--name", "Bin", "--json", "--data-dir", dir], {
          binary: BINARY,
        })
      ).stdout,
    );
    const { key } = JSON.parse(
      (await runCli(["key", "create", "--workspace", ws.id, "--json", "--data-dir", dir], { binary: BINARY }))
        .stdout,
    );
    // Run from another working directory: nothing may be read relative to it but the data directory.
    const server = await startServerProcess(dir, { binary: BINARY, cwd: dir });
    try {
      const text = essay(300);
      const res = await fetch(`${server.url}/api/v1/detect`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ text }),
      });
      expect(res.status).toBe(200);
      const scan = await json(res);
      expect(scan.status).toBe("completed");
      expect(scan.result.word_count).toBe(300);
      expect(scan.result.model_version).toBeString();
      expect(scan.result.sentences.length).toBe(scan.result.sentence_count);
      expect(typeof scan.result.ai_probability).toBe("number");

      const fetched = await fetch(`${server.url}/api/v1/scans/${scan.id}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(await json(fetched)).toEqual(scan);
      const doc = await json(fetch(`${server.url}/api/v1/openapi.json`));
      expect(doc.openapi).toMatch(/^3\.1/);
      const script = await fetch(`${server.url}/docs/scalar.js`);
      expect(script.status).toBe(200);
      expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    } finally {
      await server.stop();
    }
  }, 60_000);

  test("finishes a plagiarism check on its worker threads", async () => {
    const other = tempDataDir();
    try {
      const ws = JSON.parse(
        (
          await runCli(
            ["workspace", "create", "--name", "Plag", "--plan", "team", "--json", "--data-dir", other.dir],
            { binary: BINARY },
          )
        ).stdout,
      );
      const { key } = JSON.parse(
        (
          await runCli(["key", "create", "--workspace", ws.id, "--json", "--data-dir", other.dir], {
            binary: BINARY,
          })
        ).stdout,
      );
      const server = await startServerProcess(other.dir, { binary: BINARY, cwd: other.dir });
      try {
        const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
        const source = essay(200, 3);
        const doc = await fetch(`${server.url}/api/v1/documents`, {
          method: "POST",
          headers,
          body: JSON.stringify({ title: "Minutes", text: source }),
        });
        expect(doc.status).toBe(201);
        const queued = await json(
          fetch(`${server.url}/api/v1/plagiarism`, {
            method: "POST",
            headers,
            body: JSON.stringify({ text: source }),
          }),
        );
        expect(queued.status).toBe("queued");
        let scan = queued;
        for (let i = 0; i < 100 && (scan.status === "queued" || scan.status === "processing"); i++) {
          await Bun.sleep(100);
          scan = await json(fetch(`${server.url}/api/v1/scans/${queued.id}`, { headers }));
        }
        expect(scan.status).toBe("completed");
        expect(scan.result.similarity).toBeGreaterThan(90);
        expect(scan.result.sources[0].title).toBe("Minutes");
      } finally {
        await server.stop();
      }
    } finally {
      other.cleanup();
    }
  }, 60_000);

  test("scores a file locally with `textscan detect`", async () => {
    const res = await runCli(["detect", "-", "--json"], { binary: BINARY, stdin: essay(100) });
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout).word_count).toBe(100);
  });
});
