import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { join } from "node:path";
import { fairDetector } from "../../src/detector/fair.ts";
import type { Detector } from "../../src/detector/index.ts";
import { createKey } from "../../src/keys/index.ts";
import { openStore, STORE_FILE } from "../../src/store/db.ts";
import { createWorkspace } from "../../src/workspaces/index.ts";
import { contextOver, essay, json, type TestApp, tempDataDir, testApp } from "../support/harness.ts";
import { type ServerProcess, startServerProcess } from "../support/processes.ts";

/** Replays of the security review's findings on the gateway (issue "Foundation", items 1, 7, 10, 13, 15, 16). */
let app: TestApp;
beforeAll(() => {
  app = testApp();
});
afterAll(() => app.close());

const nested = (depth: number) => `{"text":${"[".repeat(depth)}${"]".repeat(depth)}}`;

/** A body that never ends: a gateway that waited for it would never answer. */
const endless = () =>
  new ReadableStream<Uint8Array>({
    pull: async (controller) => {
      await Bun.sleep(5);
      controller.enqueue(new TextEncoder().encode("x".repeat(1024)));
    },
  });

describe("finding 1: one notion of the path", () => {
  test("with Host: x, POST /zz/api/v1/detect is a 404 for an unknown route, not an unauthenticated detect", async () => {
    const res = await app.service.fetch(
      new Request("http://x/zz/api/v1/detect", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: nested(20_000),
      }),
    );
    expect(res.status).toBe(404);
    expect((await json(res)).error.code).toBe("not_found");
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });

  test("API calls through short host names (app, api, app:80) reach their routes", async () => {
    const { key } = app.workspace();
    for (const host of ["app", "api", "app:80", "x"]) {
      const res = await app.service.fetch(
        new Request(`http://${host}/api/v1/usage`, { headers: { authorization: `Bearer ${key}` } }),
      );
      expect(res.status).toBe(200);
    }
  });

  test("a body nested 20,000 deep is refused as invalid_body before parsing or validation", async () => {
    const { key } = app.workspace();
    const res = await app.request("POST", "/api/v1/detect", { key, body: nested(20_000) });
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body.error.code).toBe("invalid_body");
    expect(body.error.message).toContain("nests deeper");
  });

  test("metadata nested 10,000 deep is a 400, not a retryable 500", async () => {
    const { key } = app.workspace();
    const deep = `{"text":${JSON.stringify(essay(50))},"metadata":{"a":${"[".repeat(10_000)}${"]".repeat(10_000)}}}`;
    const res = await app.request("POST", "/api/v1/detect", { key, body: deep });
    expect(res.status).toBe(400);
  });
});

describe("finding 7: bodies are read only for known routes, after authentication", () => {
  test("a POST to a path outside /api/v1 is answered 404 without reading its body", async () => {
    const res = await app.service.fetch(
      new Request("http://localhost/upload", {
        method: "POST",
        body: endless(),
        duplex: "half",
      } as RequestInit),
    );
    expect(res.status).toBe(404);
  });

  test("a POST to an API route without a key is answered 401 without reading its body", async () => {
    const res = await app.service.fetch(
      new Request("http://localhost/api/v1/detect", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: endless(),
        duplex: "half",
      } as RequestInit),
    );
    expect(res.status).toBe(401);
  });

  test("a body declared in another content type is refused before it is read", async () => {
    const { key } = app.workspace();
    const res = await app.service.fetch(
      new Request("http://localhost/api/v1/detect", {
        method: "POST",
        headers: {
          authorization: `Bearer ${key}`,
          "content-type": "text/plain",
          "content-length": "1000000",
        },
        body: endless(),
        duplex: "half",
      } as RequestInit),
    );
    expect(res.status).toBe(400);
    expect((await json(res)).error.code).toBe("invalid_body");
  });
});

describe("finding 10: fair share of the detection threads", () => {
  test("a workspace's burst does not hold another workspace's text behind all of it", async () => {
    const order: string[] = [];
    let release: () => void = () => {};
    const inner: Detector = {
      score: async (text) => {
        order.push(text);
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return {
          human_score: 50,
          verdict: "mixed",
          ai_probability: 0.5,
          word_count: 1,
          sentence_count: 1,
          readability: 50,
          language: "en",
          model_version: "test",
        };
      },
      close: () => {},
    };
    const fair = fairDetector(inner, 1);
    const burst = Array.from({ length: 10 }, (_, i) => fair.score(`a${i}`, {}, "workspace-a"));
    const other = fair.score("b0", {}, "workspace-b");
    for (let i = 0; i < 11; i++) {
      await Bun.sleep(1);
      release();
    }
    await Promise.all([...burst, other]);
    // B's one text runs second, not eleventh.
    expect(order.slice(0, 3)).toEqual(["a0", "b0", "a1"]);
  });
});

describe("finding 13: every error in the envelope with a request id, client errors as 4xx", () => {
  let server: ServerProcess;
  let cleanup: () => void;
  let apiKey = "";
  beforeAll(async () => {
    const temp = tempDataDir();
    cleanup = temp.cleanup;
    const store = openStore(temp.dir);
    const ctx = contextOver(store);
    const workspace = createWorkspace(ctx, { name: "Raw" });
    apiKey = createKey(ctx, { workspaceId: workspace.id }).key;
    store.close();
    server = await startServerProcess(temp.dir, { env: { TEXTSCAN_WORKERS: "0" } });
  });
  afterAll(async () => {
    await server.stop();
    cleanup();
  });

  /** Sends raw bytes and returns the raw answer (the request line and headers exactly as written). */
  const raw = (bytes: string) =>
    new Promise<string>((resolve, reject) => {
      const { hostname, port } = new URL(server.url);
      const socket = connect(Number(port), hostname, () => socket.write(bytes));
      let answer = "";
      socket.on("data", (chunk) => {
        answer += chunk.toString();
      });
      socket.on("end", () => resolve(answer));
      socket.on("error", reject);
      socket.setTimeout(5_000, () => {
        socket.destroy();
        resolve(answer);
      });
    });

  test("a body declared over 16 MiB gets 413 body_too_large in the envelope, not Bun's bare 413", async () => {
    const answer = await raw(
      `POST /api/v1/detect HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${apiKey}\r\n` +
        "Content-Type: application/json\r\nContent-Length: 20000000\r\nConnection: close\r\n\r\n{",
    );
    expect(answer).toStartWith("HTTP/1.1 413");
    expect(answer.toLowerCase()).toContain("x-request-id: req_");
    expect(answer).toContain('"code":"body_too_large"');
  });

  test("finding 16: an upload aborted mid-body writes no log line (and no stack), however many arrive", async () => {
    const before = server.output().length;
    await Promise.all(
      Array.from(
        { length: 20 },
        () =>
          new Promise<void>((resolve) => {
            const { hostname, port } = new URL(server.url);
            const socket = connect(Number(port), hostname, () => {
              socket.write(
                `POST /api/v1/detect HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${apiKey}\r\n` +
                  'Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"text":"abc',
              );
              setTimeout(() => {
                socket.destroy();
                resolve();
              }, 50);
            });
          }),
      ),
    );
    // A request the server can still answer proves it has handled the aborted ones.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    await Bun.sleep(200);
    expect(server.output().slice(before)).toBe("");
  });

  test("HTTP/1.0 without a Host header is answered 4xx, never a retryable 500", async () => {
    const answer = await raw("GET /api/v1/usage HTTP/1.0\r\n\r\n");
    const status = Number(answer.slice(9, 12));
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
  });
});

describe("finding 15: a long write elsewhere is a retryable 503, not a 500", () => {
  test("the store's write lock held past the busy timeout: 503 unavailable, nothing written", async () => {
    const local = testApp();
    try {
      const { key } = local.workspace({ credits: 1000 });
      const other = new Database(join(local.dataDir, STORE_FILE));
      other.run("PRAGMA busy_timeout = 0");
      other.run("BEGIN IMMEDIATE");
      let res: Response;
      try {
        res = await local.request("POST", "/api/v1/detect", { key, body: { text: essay(50) } });
      } finally {
        other.run("ROLLBACK");
        other.close();
      }
      expect(res.status).toBe(503);
      expect((await json(res)).error.code).toBe("unavailable");
      const usage = await json(local.request("GET", "/api/v1/usage", { key }));
      expect(usage.credits.balance).toBe(1000);
    } finally {
      await local.close();
    }
  }, 30_000);
});
