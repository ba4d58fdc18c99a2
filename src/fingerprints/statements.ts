import type { Database, Statement } from "bun:sqlite";

/**
 * The prepared statements of the fingerprint index, built once per connection: prepared statements ran ~10x
 * faster than ad hoc ones on the hot paths (STACK-NOTES). Table and column names follow schema/plagiarism.ts.
 */
export interface SourceRow {
  source_key: number;
  id: string;
  url: string | null;
  title: string;
  text: string;
}

export interface FingerprintStatements {
  scopeOf: Statement<{ key: number }, [string]>;
  insertScope: Statement<{ key: number }, [string]>;
  insertSourceKey: Statement<{ key: number }, [string]>;
  deleteSourceKey: Statement<unknown, [number]>;
  /** New fingerprints go to the small recent table; compaction moves them into the main one. */
  insertFingerprint: Statement<unknown, [bigint, number, number]>;
  /** Deletes one fingerprint row from whichever table holds it. */
  deleteFingerprint: Statement<unknown, [bigint, number, number]>;
  deleteRecentFingerprint: Statement<unknown, [bigint, number, number]>;
  /** Full scans: only for rows made with other fingerprint parameters, which cannot be recomputed. */
  deleteFingerprintsOfSource: Statement<unknown, [number, number]>;
  deleteRecentFingerprintsOfSource: Statement<unknown, [number, number]>;
  countRecent: Statement<{ n: number }, []>;
  /** Compaction: moves the recent rows of a hash range (inclusive bounds) into the main table. */
  moveRecentRange: Statement<unknown, [bigint, bigint]>;
  deleteRecentRange: Statement<unknown, [bigint, bigint]>;
  /**
   * Holders of LOOKUP_BATCH fingerprints at once (parameters 1..LOOKUP_BATCH), visible to a workspace scope
   * (web scope 0 plus the workspace's own, the last parameter), from both fingerprint tables: one statement per
   * batch ran ~5x faster than one per fingerprint.
   */
  holders: Statement<{ hash: bigint; source_key: bigint }, Array<bigint | number>>;
  documentBySourceKey: Statement<SourceRow, [number, string]>;
  webPageBySourceKey: Statement<SourceRow, [number]>;
}

/** Fingerprints looked up per statement; a shorter last batch repeats its first fingerprint. */
export const LOOKUP_BATCH = 64;

const HASH_PARAMETERS = Array.from({ length: LOOKUP_BATCH }, (_, i) => `?${i + 1}`).join(",");

const cache = new WeakMap<Database, FingerprintStatements>();

export function statementsFor(sqlite: Database): FingerprintStatements {
  const cached = cache.get(sqlite);
  if (cached !== undefined) return cached;
  const statements: FingerprintStatements = {
    scopeOf: sqlite.query("SELECT key FROM plagiarism_scopes WHERE workspace_id = ?"),
    insertScope: sqlite.query("INSERT INTO plagiarism_scopes (workspace_id) VALUES (?) RETURNING key"),
    insertSourceKey: sqlite.query("INSERT INTO plagiarism_source_keys (kind) VALUES (?) RETURNING key"),
    deleteSourceKey: sqlite.query("DELETE FROM plagiarism_source_keys WHERE key = ?"),
    insertFingerprint: sqlite.query(
      "INSERT OR IGNORE INTO plagiarism_fingerprints_recent (hash, scope, source_key) VALUES (?, ?, ?)",
    ),
    deleteFingerprint: sqlite.query(
      "DELETE FROM plagiarism_fingerprints WHERE hash = ? AND scope = ? AND source_key = ?",
    ),
    deleteRecentFingerprint: sqlite.query(
      "DELETE FROM plagiarism_fingerprints_recent WHERE hash = ? AND scope = ? AND source_key = ?",
    ),
    deleteFingerprintsOfSource: sqlite.query(
      "DELETE FROM plagiarism_fingerprints WHERE scope = ? AND source_key = ?",
    ),
    deleteRecentFingerprintsOfSource: sqlite.query(
      "DELETE FROM plagiarism_fingerprints_recent WHERE scope = ? AND source_key = ?",
    ),
    countRecent: sqlite.query("SELECT count(*) AS n FROM plagiarism_fingerprints_recent"),
    moveRecentRange: sqlite.query(
      `INSERT OR IGNORE INTO plagiarism_fingerprints (hash, scope, source_key)
       SELECT hash, scope, source_key FROM plagiarism_fingerprints_recent WHERE hash BETWEEN ? AND ? ORDER BY hash`,
    ),
    deleteRecentRange: sqlite.query("DELETE FROM plagiarism_fingerprints_recent WHERE hash BETWEEN ? AND ?"),
    holders: sqlite
      .query<{ hash: bigint; source_key: bigint }, Array<bigint | number>>(
        ["plagiarism_fingerprints", "plagiarism_fingerprints_recent"]
          .map(
            (table) =>
              `SELECT hash, source_key FROM ${table} WHERE hash IN (${HASH_PARAMETERS}) AND scope IN (0, ?${LOOKUP_BATCH + 1})`,
          )
          .join(" UNION ALL "),
      )
      .safeIntegers(true), // 64-bit hashes come back exact, as bigints
    documentBySourceKey: sqlite.query(
      "SELECT source_key, id, url, title, text FROM library_documents WHERE source_key = ? AND workspace_id = ?",
    ),
    webPageBySourceKey: sqlite.query(
      "SELECT source_key, id, url, title, text FROM web_pages WHERE source_key = ?",
    ),
  };
  cache.set(sqlite, statements);
  return statements;
}
