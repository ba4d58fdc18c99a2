import { Database } from "bun:sqlite";
import { chmodSync, closeSync, mkdirSync, openSync } from "node:fs";
import { join, resolve } from "node:path";
import { drizzle } from "drizzle-orm/bun-sqlite";
import * as schema from "../../schema/index.ts";
import { applyMigrations } from "./migrate.ts";

export type Db = ReturnType<typeof drizzle<typeof schema>>;
/** A drizzle transaction handle; verbs accept `Db | Tx` so they compose inside an outer transaction. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Store {
  db: Db;
  sqlite: Database;
  dataDir: string;
  path: string;
  close(): void;
}

export const STORE_FILE = "textscan.db";

/**
 * Opens (creating when needed) the one SQLite file of a data directory and brings its schema up to date.
 * WAL lets the server and CLI commands work on the same file at once; busy_timeout makes writers wait for each
 * other instead of failing.
 */
export function openStore(dataDir: string): Store {
  const dir = resolve(dataDir);
  // The store holds every submitted text: the directory is the owner's alone (0700), and the database file is
  // created 0600 before SQLite opens it, which gives its -wal and -shm files the same mode.
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, STORE_FILE);
  closeSync(openSync(path, "a", 0o600));
  chmodSync(path, 0o600);
  const sqlite = new Database(path, { create: true, strict: true });
  sqlite.run("PRAGMA busy_timeout = 5000");
  sqlite.run("PRAGMA journal_mode = WAL");
  sqlite.run("PRAGMA synchronous = NORMAL");
  sqlite.run("PRAGMA foreign_keys = ON");
  applyMigrations(sqlite);
  const db = drizzle({ client: sqlite, schema });
  return {
    db,
    sqlite,
    dataDir: dir,
    path,
    close: () => sqlite.close(),
  };
}

/**
 * Runs `fn` in a write transaction that takes the lock at BEGIN (read-then-write sequences: debits, claims).
 * Inside a transaction already open on this connection it joins that one: transactions here are synchronous, so
 * an open one is the caller's own, and a route can commit a verb's writes with its stored response at once.
 */
export function writeTransaction<T>(db: Db, fn: (tx: Tx) => T): T {
  if (db.$client.inTransaction) return fn(db as unknown as Tx);
  return db.transaction(fn, { behavior: "immediate" });
}
