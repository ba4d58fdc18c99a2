import { FINGERPRINT_VERSION } from "../plagiarism/index.ts";
import type { Store } from "../store/db.ts";
import { writeTransaction } from "../store/db.ts";
import { statementsFor } from "./statements.ts";

/**
 * Writing fingerprints of one source. Callers compute the fingerprints (CPU work) before they open the
 * transaction, so the write lock is held only for the inserts.
 */

/** Runs `fn` in an immediate write transaction, or inside the caller's when one is already open. */
export function inWriteTransaction<T>(store: Store, fn: () => T): T {
  if (store.sqlite.inTransaction) return fn();
  return writeTransaction(store.db, () => fn());
}

export function allocateSourceKey(store: Store, kind: "document" | "web"): number {
  const row = statementsFor(store.sqlite).insertSourceKey.get(kind);
  if (row === null) throw new Error("plagiarism_source_keys insert returned no key");
  return row.key;
}

export interface FingerprintRow {
  hash: bigint;
  scope: number;
  sourceKey: number;
}

/**
 * Inserts fingerprint rows in hash order: consecutive inserts then land in neighbouring B-tree pages, which
 * keeps bulk loads fast once the table outgrows the page cache.
 */
export function insertFingerprints(store: Store, rows: FingerprintRow[]) {
  const insert = statementsFor(store.sqlite).insertFingerprint;
  rows.sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0));
  for (const row of rows) insert.run(row.hash, row.scope, row.sourceKey);
}

/** Page cache (KiB) for bulk loads; SQLite's default of 2 MB makes random B-tree inserts read pages again. */
const BULK_CACHE_KIB = 64 * 1024;
/** Batches at least this large get the bulk page cache for their duration, and compaction when it is due. */
export const BULK_BATCH = 50;

/** Runs a bulk write with a larger page cache on this connection, restored afterwards. */
export function withBulkCache<T>(store: Store, batchSize: number, fn: () => T): T {
  if (batchSize < BULK_BATCH) return fn();
  const previous = store.sqlite.query<{ cache_size: number }, []>("PRAGMA cache_size").get()?.cache_size;
  store.sqlite.run(`PRAGMA cache_size = -${BULK_CACHE_KIB}`);
  try {
    return fn();
  } finally {
    if (previous !== undefined) store.sqlite.run(`PRAGMA cache_size = ${previous}`);
  }
}

/**
 * Deletes a source's fingerprints. Rows made with the current parameters are recomputed from the text and
 * deleted by primary key (no secondary index needed on a table of millions of rows); rows of an older version
 * need a full scan.
 */
export function deleteFingerprints(
  store: Store,
  scope: number,
  sourceKey: number,
  version: number,
  fingerprints: () => readonly bigint[],
) {
  const statements = statementsFor(store.sqlite);
  if (version !== FINGERPRINT_VERSION) {
    statements.deleteFingerprintsOfSource.run(scope, sourceKey);
    statements.deleteRecentFingerprintsOfSource.run(scope, sourceKey);
    return;
  }
  for (const fingerprint of fingerprints()) {
    statements.deleteFingerprint.run(fingerprint, scope, sourceKey);
    statements.deleteRecentFingerprint.run(fingerprint, scope, sourceKey);
  }
}
