import { join } from "node:path";
import { readMigrationFiles } from "drizzle-orm/migrator";

/**
 * Runs at bundle time (imported `with { type: "macro" }`): reads drizzle-kit's SQL migrations from disk and
 * inlines them, so the compiled binary carries its schema and needs no migrations folder. Under `bun run` and
 * `bun test` the macro runs again on each start, so a new migration needs no code change.
 */
export function embeddedMigrations() {
  return readMigrationFiles({ migrationsFolder: join(import.meta.dir, "../../schema/migrations") });
}
