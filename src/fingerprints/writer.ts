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

export function insertFingerprints(
  store: Store,
  scope: number,
  sourceKey: number,
  fingerprints: readonly bigint[],
) {
  const insert = statementsFor(store.sqlite).insertFingerprint;
  for (const fingerprint of fingerprints) insert.run(fingerprint, scope, sourceKey);
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
    return;
  }
  for (const fingerprint of fingerprints()) statements.deleteFingerprint.run(fingerprint, scope, sourceKey);
}
