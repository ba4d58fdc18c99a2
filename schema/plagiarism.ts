import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { epochMs } from "./columns.ts";
import { workspaces } from "./core.ts";

/**
 * The plagiarism index: the texts a check compares against (a workspace's library documents and the web pages
 * shared by every workspace) and their winnowed word k-gram fingerprints.
 *
 * The fingerprint table holds ~200 rows per document, so it refers to scopes and sources by small integers
 * instead of the public text ids. Those integers come from AUTOINCREMENT keys, which SQLite never reuses after
 * a delete (plain rowids can be reused), so a stale fingerprint can never point at a newer document.
 */

/** Scope 0 is the shared web index; each workspace that has library documents gets a scope key from here. */
export const WEB_SCOPE = 0;

export const plagiarismScopes = sqliteTable("plagiarism_scopes", {
  key: integer("key").primaryKey({ autoIncrement: true }),
  workspaceId: text("workspace_id")
    .notNull()
    .unique()
    .references(() => workspaces.id),
});

/** One row per indexed text (library document or web page): hands out never-reused integer source keys. */
export const plagiarismSourceKeys = sqliteTable("plagiarism_source_keys", {
  key: integer("key").primaryKey({ autoIncrement: true }),
  kind: text("kind", { enum: ["document", "web"] }).notNull(),
});

export const libraryDocuments = sqliteTable(
  "library_documents",
  {
    id: text("id").primaryKey(), // doc_ + 32 hex
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    sourceKey: integer("source_key")
      .notNull()
      .unique()
      .references(() => plagiarismSourceKeys.key),
    title: text("title").notNull(),
    url: text("url"), // normalised (src/plagiarism/urls.ts) so that exclude_urls can match it
    text: text("text").notNull(),
    wordCount: integer("word_count").notNull(),
    metadata: text("metadata", { mode: "json" }).$type<Record<string, string>>().notNull(),
    // Fingerprint parameters the rows were made with: a removal recomputes exactly those rows to delete them.
    fingerprintVersion: integer("fingerprint_version").notNull(),
    createdAt: epochMs("created_at").notNull(),
  },
  (t) => [index("library_documents_workspace").on(t.workspaceId, t.createdAt)],
);

export const webPages = sqliteTable("web_pages", {
  id: text("id").primaryKey(), // wp_ + 32 hex
  sourceKey: integer("source_key")
    .notNull()
    .unique()
    .references(() => plagiarismSourceKeys.key),
  url: text("url").notNull().unique(), // normalised: one row per page
  title: text("title").notNull(),
  text: text("text").notNull(),
  wordCount: integer("word_count").notNull(),
  fingerprintVersion: integer("fingerprint_version").notNull(),
  fetchedAt: epochMs("fetched_at").notNull(),
});

/**
 * Winnowed fingerprints: (64-bit k-gram hash, scope, source). The primary key is the lookup path of a check
 * (seek by hash, then by scope: the web scope and the caller's workspace only). A later migration rebuilds this
 * table WITHOUT ROWID (drizzle cannot declare it), which halves its size: the key is the whole row.
 */
export const plagiarismFingerprints = sqliteTable(
  "plagiarism_fingerprints",
  {
    hash: integer("hash").notNull(),
    scope: integer("scope").notNull(),
    sourceKey: integer("source_key").notNull(),
  },
  (t) => [primaryKey({ columns: [t.hash, t.scope, t.sourceKey] })],
);

/**
 * Fingerprints added since the last compaction, same shape and key. Random-hash inserts into a table of
 * millions of rows touch a page per row; here they land in a small B-tree that stays in cache, and compaction
 * (src/fingerprints/compact.ts) moves them into plagiarism_fingerprints in hash order, a hash range per
 * transaction. Lookups read both tables. Rebuilt WITHOUT ROWID by a migration, like the main table.
 */
export const plagiarismRecentFingerprints = sqliteTable(
  "plagiarism_fingerprints_recent",
  {
    hash: integer("hash").notNull(),
    scope: integer("scope").notNull(),
    sourceKey: integer("source_key").notNull(),
  },
  (t) => [primaryKey({ columns: [t.hash, t.scope, t.sourceKey] })],
);
