import { and, desc, eq, lt, or } from "drizzle-orm";
import { libraryDocuments } from "../../schema/index.ts";
import { newId } from "../ids.ts";
import { FINGERPRINT_VERSION, indexFingerprints, normalizeUrl } from "../plagiarism/index.ts";
import type { Store } from "../store/db.ts";
import { countWords } from "../text/index.ts";
import { compactFingerprintsIfDue } from "./compact.ts";
import { statementsFor } from "./statements.ts";
import {
  allocateSourceKey,
  BULK_BATCH,
  deleteFingerprints,
  type FingerprintRow,
  insertFingerprints,
  inWriteTransaction,
  withBulkCache,
} from "./writer.ts";

/** A workspace's library: its own documents, compared with every plagiarism check of that workspace only. */

export interface NewLibraryDocument {
  title: string;
  text: string;
  /** Where the document lives, if anywhere; stored normalised so that exclude_urls can match it. */
  url?: string | null;
  metadata?: Record<string, string>;
}

export interface LibraryDocument {
  id: string;
  workspaceId: string;
  title: string;
  url: string | null;
  wordCount: number;
  metadata: Record<string, string>;
  createdAt: number;
}

type Row = typeof libraryDocuments.$inferSelect;

const view = (row: Row): LibraryDocument => ({
  id: row.id,
  workspaceId: row.workspaceId,
  title: row.title,
  url: row.url,
  wordCount: row.wordCount,
  metadata: row.metadata,
  createdAt: row.createdAt,
});

/** The scope key of a workspace's library, created on its first document. */
function ensureScope(store: Store, workspaceId: string): number {
  const statements = statementsFor(store.sqlite);
  const existing = statements.scopeOf.get(workspaceId);
  if (existing !== null) return existing.key;
  const created = statements.insertScope.get(workspaceId);
  if (created === null) throw new Error("plagiarism_scopes insert returned no key");
  return created.key;
}

export function addLibraryDocument(
  store: Store,
  workspaceId: string,
  input: NewLibraryDocument,
  now: number,
): LibraryDocument {
  return addLibraryDocuments(store, workspaceId, [input], now)[0] as LibraryDocument;
}

/** Adds documents in one transaction; fingerprints are computed before the write lock is taken. */
export function addLibraryDocuments(
  store: Store,
  workspaceId: string,
  inputs: readonly NewLibraryDocument[],
  now: number,
  /** Runs inside the write transaction once the documents are in (e.g. to store the idempotent response). */
  inTransaction?: (added: LibraryDocument[]) => void,
): LibraryDocument[] {
  const prepared = inputs.map((input) => ({
    row: {
      id: newId("doc_"),
      workspaceId,
      title: input.title,
      url: input.url ? (normalizeUrl(input.url) ?? input.url) : null,
      text: input.text,
      wordCount: countWords(input.text),
      metadata: input.metadata ?? {},
      fingerprintVersion: FINGERPRINT_VERSION,
      createdAt: now,
    },
    fingerprints: indexFingerprints(input.text),
  }));
  const added = withBulkCache(store, prepared.length, () =>
    inWriteTransaction(store, () => {
      const scope = ensureScope(store, workspaceId);
      const rows: FingerprintRow[] = [];
      const added = prepared.map(({ row, fingerprints }) => {
        const sourceKey = allocateSourceKey(store, "document");
        store.db
          .insert(libraryDocuments)
          .values({ ...row, sourceKey })
          .run();
        for (const hash of fingerprints) rows.push({ hash, scope, sourceKey });
        return view({ ...row, sourceKey });
      });
      insertFingerprints(store, rows);
      inTransaction?.(added);
      return added;
    }),
  );
  if (prepared.length >= BULK_BATCH) compactFingerprintsIfDue(store);
  return added;
}

export function getLibraryDocument(
  store: Store,
  workspaceId: string,
  documentId: string,
): (LibraryDocument & { text: string }) | null {
  const row = store.db
    .select()
    .from(libraryDocuments)
    .where(and(eq(libraryDocuments.workspaceId, workspaceId), eq(libraryDocuments.id, documentId)))
    .get();
  return row === undefined ? null : { ...view(row), text: row.text };
}

/** Newest first; pass the last document of a page as `after` for the next page. */
export function listLibraryDocuments(
  store: Store,
  workspaceId: string,
  options: { limit?: number; after?: { createdAt: number; id: string } } = {},
): LibraryDocument[] {
  const after = options.after;
  const rows = store.db
    .select()
    .from(libraryDocuments)
    .where(
      and(
        eq(libraryDocuments.workspaceId, workspaceId),
        after === undefined
          ? undefined
          : or(
              lt(libraryDocuments.createdAt, after.createdAt),
              and(eq(libraryDocuments.createdAt, after.createdAt), lt(libraryDocuments.id, after.id)),
            ),
      ),
    )
    .orderBy(desc(libraryDocuments.createdAt), desc(libraryDocuments.id))
    .limit(options.limit ?? 50)
    .all();
  return rows.map(view);
}

/** Removes a document and its fingerprints; false when the workspace has no such document. */
export function removeLibraryDocument(store: Store, workspaceId: string, documentId: string): boolean {
  return inWriteTransaction(store, () => {
    const row = store.db
      .select()
      .from(libraryDocuments)
      .where(and(eq(libraryDocuments.workspaceId, workspaceId), eq(libraryDocuments.id, documentId)))
      .get();
    if (row === undefined) return false;
    const scope = statementsFor(store.sqlite).scopeOf.get(workspaceId);
    if (scope !== null) {
      deleteFingerprints(store, scope.key, row.sourceKey, row.fingerprintVersion, () =>
        indexFingerprints(row.text),
      );
    }
    store.db.delete(libraryDocuments).where(eq(libraryDocuments.id, row.id)).run();
    statementsFor(store.sqlite).deleteSourceKey.run(row.sourceKey);
    return true;
  });
}
