/**
 * The baseline for scripts/bench-detect.ts: a bare Elysia handler that parses the same JSON body and echoes it.
 * Prints "listening on URL" like `textscan serve`.
 */
import { Elysia } from "elysia";

const app = new Elysia().post("/api/v1/detect", ({ body }) => body, { parse: "json" });
const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (request) => app.handle(request) });
console.log(`listening on http://127.0.0.1:${server.port}`);
