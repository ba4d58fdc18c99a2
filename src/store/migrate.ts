import type { Database } from "bun:sqlite";
import { embeddedMigrations } from "./migrations.macro.ts" with { type: "macro" };

export interface Migration {
  sql: string[];
  folderMillis: number;
  hash: string;
}

const MIGRATIONS: Migration[] = embeddedMigrations();

/**
 * Applies pending migrations. Unlike drizzle's own migrator this takes the write lock before it reads what
 * is applied, so a server and a CLI command starting together on a fresh data directory cannot both apply
 * the same migration. The bookkeeping table is drizzle's, so drizzle-kit tooling still understands the store.
 */
export function applyMigrations(sqlite: Database, migrations: Migration[] = MIGRATIONS): number {
  sqlite.run(
    `CREATE TABLE IF NOT EXISTS "__drizzle_migrations" (id INTEGER PRIMARY KEY, hash text NOT NULL, created_at numeric)`,
  );
  sqlite.run("BEGIN IMMEDIATE");
  try {
    const applied = new Set(
      sqlite
        .query<{ hash: string }, []>(`SELECT hash FROM "__drizzle_migrations"`)
        .all()
        .map((row) => row.hash),
    );
    let count = 0;
    for (const migration of migrations) {
      if (applied.has(migration.hash)) continue;
      for (const statement of migration.sql) {
        if (statement.trim()) sqlite.run(statement);
      }
      sqlite.run(`INSERT INTO "__drizzle_migrations" (hash, created_at) VALUES (?, ?)`, [
        migration.hash,
        migration.folderMillis,
      ]);
      count++;
    }
    sqlite.run("COMMIT");
    return count;
  } catch (error) {
    sqlite.run("ROLLBACK");
    throw error;
  }
}

/** Migrations embedded in this build that the store has not applied (GET /readyz: 0 when up to date). */
export function pendingMigrations(sqlite: Database, migrations: Migration[] = MIGRATIONS): number {
  const applied = new Set(
    sqlite
      .query<{ hash: string }, []>(`SELECT hash FROM "__drizzle_migrations"`)
      .all()
      .map((row) => row.hash),
  );
  return migrations.filter((migration) => !applied.has(migration.hash)).length;
}
