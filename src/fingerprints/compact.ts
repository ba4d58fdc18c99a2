import type { Store } from "../store/db.ts";
import { statementsFor } from "./statements.ts";
import { inWriteTransaction, withBulkCache } from "./writer.ts";

/**
 * Compaction of the fingerprint index. New fingerprints land in plagiarism_fingerprints_recent, a B-tree small
 * enough to stay in cache, so adding documents stays fast however large the library is; compaction moves them
 * into plagiarism_fingerprints in hash order, where a batch of many rows fills each page it touches instead of
 * dirtying a page per row. Each hash range moves in its own transaction: the write lock is held about a second
 * at a time even for a library of 100k documents, and lookups (which read both tables in one statement) see
 * every fingerprint exactly once throughout.
 */

/** Recent rows at which compaction is due (~5,600 documents of 800 words; ~25 MB, still cached). */
export const COMPACT_AT_ROWS = 1_000_000;
/** Recent rows moved per transaction, on average (hashes are uniform, so ranges split them evenly). */
const ROWS_PER_TRANSACTION = 250_000;

const MIN_HASH = -(2n ** 63n);
const MAX_HASH = 2n ** 63n - 1n;

/** Moves every recent fingerprint into the main table; returns how many rows were moved. */
export function compactFingerprints(store: Store): number {
  if (store.sqlite.inTransaction) throw new Error("compactFingerprints runs its own transactions");
  const statements = statementsFor(store.sqlite);
  const rows = statements.countRecent.get()?.n ?? 0;
  if (rows === 0) return 0;
  const ranges = Math.max(1, Math.ceil(rows / ROWS_PER_TRANSACTION));
  const width = 2n ** 64n / BigInt(ranges);
  withBulkCache(store, Number.POSITIVE_INFINITY, () => {
    for (let r = 0; r < ranges; r++) {
      const low = MIN_HASH + width * BigInt(r);
      const high = r === ranges - 1 ? MAX_HASH : low + width - 1n;
      inWriteTransaction(store, () => {
        statements.moveRecentRange.run(low, high);
        statements.deleteRecentRange.run(low, high);
      });
    }
  });
  return rows;
}

/**
 * Compacts when the recent table has grown past COMPACT_AT_ROWS; returns the rows moved (0 when not due or when
 * called inside a transaction). Bulk adds call it; a server should also call it now and then (e.g. from its
 * scheduler) so that documents added one by one get compacted too.
 */
export function compactFingerprintsIfDue(store: Store): number {
  if (store.sqlite.inTransaction) return 0;
  const rows = statementsFor(store.sqlite).countRecent.get()?.n ?? 0;
  return rows >= COMPACT_AT_ROWS ? compactFingerprints(store) : 0;
}
