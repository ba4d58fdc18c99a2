import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createLogger } from "../../src/context/log.ts";
import { createService } from "../../src/server.ts";
import { STORE_FILE } from "../../src/store/db.ts";
import { essay, json, tempDataDir, testApp, testContext } from "../support/harness.ts";
import { runCli, startServerProcess } from "../support/processes.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("serve fails loudly", () => {
  test("a port that is taken: exit 1 and one line naming the port and the setting", async () => {
    const holder = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("taken") });
    cleanups.push(() => holder.stop(true));
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    const result = await runCli(["serve", "--port", String(holder.port), "--data-dir", dir]);
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split("\n");
    expect(lines.at(-1)).toContain(`127.0.0.1:${holder.port}`);
    expect(lines.at(-1)).toContain("in use");
    expect(lines.at(-1)).toContain("--port");
  });

  test("an unwritable data directory: exit 1 and one line naming the path and the setting", async () => {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    // A path below a regular file can be created by nobody, root included (CI runs as root, which ignores
    // directory modes).
    const file = join(dir, "not-a-directory");
    writeFileSync(file, "");
    const target = join(file, "data");
    const result = await runCli(["serve", "--port", "0", "--data-dir", target]);
    expect(result.code).toBe(1);
    const last = result.stderr.trim().split("\n").at(-1) ?? "";
    expect(last).toContain(target);
    expect(last).toContain("--data-dir");
  });

  test("a malformed setting: exit 1 and one line naming the variable", async () => {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    for (const [name, value] of [
      ["TEXTSCAN_PORT", "eighty"],
      ["TEXTSCAN_WORKERS", "-1"],
      ["TEXTSCAN_LOG_FORMAT", "xml"],
      ["TEXTSCAN_WEBHOOK_TIMEOUT_MS", "soon"],
    ] as const) {
      const result = await runCli(["serve", "--data-dir", dir], { env: { [name]: value } });
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      expect(result.stderr).toContain(name);
    }
  });
});

describe("health", () => {
  test("/healthz answers 200 and /readyz 200 when store, migrations and detector are ready; no key needed", async () => {
    const app = testApp();
    cleanups.push(() => app.close());
    const live = await app.request("GET", "/healthz");
    expect(live.status).toBe(200);
    expect(await json(live)).toEqual({ status: "ok" });
    expect(live.headers.get("x-request-id")).toMatch(/^req_/);
    const ready = await app.request("GET", "/readyz");
    expect(ready.status).toBe(200);
    expect(await json(ready)).toEqual({
      status: "ready",
      checks: { store: "ok", migrations: "ok", detector: "ok" },
    });
  });

  test("/readyz is 503 with the reason while the detector loads, and when the store does not answer", async () => {
    const ctx = testContext();
    let loaded = false;
    const service = createService(ctx, { detectorReady: () => loaded });
    const ask = async () => service.fetch(new Request("http://localhost/readyz"));
    const loading = await ask();
    expect(loading.status).toBe(503);
    expect((await json(loading)).checks.detector).toContain("loading");
    loaded = true;
    expect((await ask()).status).toBe(200);
    ctx.store.sqlite.close();
    const broken = await ask();
    expect(broken.status).toBe(503);
    expect((await json(broken)).checks.store).toContain("does not answer");
    // The process still serves: liveness stays 200.
    expect((await service.fetch(new Request("http://localhost/healthz"))).status).toBe(200);
    ctx.cleanup();
  });

  test("both probes are in the OpenAPI document", async () => {
    const app = testApp();
    cleanups.push(() => app.close());
    const doc = await json(app.request("GET", "/api/v1/openapi.json"));
    expect(doc.paths["/healthz"]?.get).toBeDefined();
    expect(doc.paths["/readyz"]?.get?.responses?.["503"]).toBeDefined();
  });
});

describe("logs", () => {
  test("a 5xx is logged once with its request id and the error, never the key or the submitted text", async () => {
    const lines: string[] = [];
    const logger = createLogger({ format: "json", clock: () => 0, write: (line) => lines.push(line) });
    const app = testApp({ logger });
    cleanups.push(() => app.close());
    const { key } = app.workspace({ credits: 1000 });
    const text = `${essay(50)} Zyxwvut-secret-marker.`;
    app.service.store.sqlite.run(
      "CREATE TEMP TRIGGER fail_scan_insert BEFORE INSERT ON scans BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END",
    );
    const res = await app.request("POST", "/api/v1/detect", { key, body: { text } });
    app.service.store.sqlite.run("DROP TRIGGER temp.fail_scan_insert");
    expect(res.status).toBe(500);
    const requestId = res.headers.get("x-request-id");
    const errors = lines.map((line) => JSON.parse(line)).filter((entry) => entry.level === "error");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ event: "request.error", request_id: requestId });
    expect(errors[0].error).toContain("disk I/O error");
    for (const line of lines) {
      expect(line).not.toContain(key);
      expect(line).not.toContain("Zyxwvut-secret-marker");
    }
  });

  test("TEXTSCAN_ACCESS_LOG=1: one line per request with method, path, status, ms, request id and workspace", async () => {
    const lines: string[] = [];
    const logger = createLogger({ format: "json", clock: () => 0, write: (line) => lines.push(line) });
    const app = testApp({ logger, config: { log: { format: "json", access: true, slowRequestMs: 60_000 } } });
    cleanups.push(() => app.close());
    const { key, workspace } = app.workspace();
    const res = await app.request("GET", "/api/v1/usage?secret=nothing", { key });
    const entries = lines.map((line) => JSON.parse(line)).filter((entry) => entry.event === "request");
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      method: "GET",
      path: "/api/v1/usage",
      status: 200,
      request_id: res.headers.get("x-request-id"),
      workspace: workspace.id,
    });
    expect(typeof entries[0].ms).toBe("number");
    expect(lines.join("\n")).not.toContain("secret=nothing");
  });

  test("a served binary logs its start-up as one structured line with version, address and data directory", async () => {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    const server = await startServerProcess(dir, {
      env: { TEXTSCAN_LOG_FORMAT: "json", TEXTSCAN_WORKERS: "0", TEXTSCAN_SECRET_KEY: "x".repeat(40) },
    });
    cleanups.push(() => server.stop());
    const started = server
      .output()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line))
      .find((entry) => entry.event === "server.started");
    expect(started).toMatchObject({ level: "info", address: server.url, data_dir: dir });
    expect(started.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(started.settings).toContain("TEXTSCAN_WORKERS=0");
    expect(started.settings).toContain("TEXTSCAN_SECRET_KEY=(set)");
    expect(server.output()).not.toContain("x".repeat(40));
  });
});

describe("files at rest", () => {
  test("the data directory is created 0700 and the store with its WAL and SHM files 0600", async () => {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    const data = join(dir, "fresh");
    const server = await startServerProcess(data, { env: { TEXTSCAN_WORKERS: "0" } });
    cleanups.push(() => server.stop());
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(statSync(data).mode & 0o777).toBe(0o700);
    for (const file of [STORE_FILE, `${STORE_FILE}-wal`, `${STORE_FILE}-shm`]) {
      const path = join(data, file);
      expect(existsSync(path)).toBe(true);
      expect(statSync(path).mode & 0o777).toBe(0o600);
    }
  });
});
