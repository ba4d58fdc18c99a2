#!/usr/bin/env bun
// Must stay the first import: it sets production mode before any module loads Elysia.
import "./production-mode.ts";
import { main } from "./cli/index.ts";

const code = await main(process.argv.slice(2));
process.exitCode = code;
// Whatever handle a failed start or a finished command left open, the process ends: a supervisor or script
// must learn the outcome (the timer is unref'd, so it never delays a process that would end by itself).
setTimeout(() => process.exit(code), 500).unref();
