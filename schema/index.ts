// Every table of the store. drizzle-kit reads this file to generate migrations (drizzle.config.ts).
export * from "./core.ts";
export * from "./plagiarism.ts";
export * from "./webhooks.ts";
