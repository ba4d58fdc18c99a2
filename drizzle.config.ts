import { defineConfig } from "drizzle-kit";

// `bun run db:generate` writes a new SQL migration into schema/migrations from the table definitions.
// The binary embeds that folder at build time (src/store/migrations.macro.ts) and applies it at start.
export default defineConfig({
  dialect: "sqlite",
  schema: "./schema/index.ts",
  out: "./schema/migrations",
});
