/**
 * Imported first by the binary's entry point, before Elysia loads: Elysia decides at import time whether it
 * runs in development mode, where a validation error renders the whole offending body (pretty-printed, so a
 * deeply nested body costs time quadratic in its depth). A served binary is always production.
 */
Bun.env.NODE_ENV = "production";
