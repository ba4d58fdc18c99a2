import { eq } from "drizzle-orm";
import { libraryDocuments } from "../../schema/index.ts";
import { type Issue, invalidBody, notFound, ServiceError } from "../errors.ts";
import {
  addLibraryDocuments,
  getLibraryDocument,
  type LibraryDocument,
  listLibraryDocuments,
  type NewLibraryDocument,
  removeLibraryDocument,
} from "../fingerprints/index.ts";
import { normalizeUrl } from "../plagiarism/index.ts";
import { checkMetadata, checkTextSize, TITLE_MAX } from "../scans/input.ts";
import type { Store } from "../store/db.ts";
import { countWords } from "../text/index.ts";
import { iso } from "../time.ts";

/**
 * The workspace library as the API and the CLI see it: validation, the `document` object and paging, over the
 * fingerprint index's verbs (src/fingerprints), which own every write to the plagiarism tables.
 */

/**
 * The shortest document worth indexing: the engine never reports a passage under 12 words, so a shorter text
 * could never be found as a source.
 */
export const MIN_DOCUMENT_WORDS = 12;
/**
 * The longest: a long book (~1.2 MB of English). Far below the 4 MiB body limit, and small enough that adding
 * one document holds the write lock for well under a second.
 */
export const MAX_DOCUMENT_WORDS = 200_000;
export const MAX_URL_LENGTH = 2_048;
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** The `document` object of the API (an addition within v1). */
export interface DocumentObject {
  id: string;
  object: "document";
  title: string;
  url: string | null;
  word_count: number;
  metadata: Record<string, string>;
  created_at: string;
}

export interface DocumentList {
  object: "list";
  data: DocumentObject[];
  has_more: boolean;
}

export const documentObject = (doc: LibraryDocument): DocumentObject => ({
  id: doc.id,
  object: "document",
  title: doc.title,
  url: doc.url,
  word_count: doc.wordCount,
  metadata: doc.metadata,
  created_at: iso(doc.createdAt),
});

/** Checks one document's fields; throws `too_short`/`too_long` for the word limits, `invalid_body` otherwise. */
export function checkDocument(input: NewLibraryDocument): void {
  const issues: Issue[] = [];
  const title = input.title.trim();
  if (title.length === 0 || title.length > TITLE_MAX) {
    issues.push({ path: "/title", message: `Expected 1 to ${TITLE_MAX} characters, got ${title.length}` });
  }
  if (input.url !== undefined && input.url !== null) {
    if (input.url.length > MAX_URL_LENGTH) {
      issues.push({ path: "/url", message: `Expected at most ${MAX_URL_LENGTH} characters` });
    } else if (normalizeUrl(input.url) === null) {
      issues.push({ path: "/url", message: "Expected an http(s) URL" });
    }
  }
  if (issues.length > 0) throw invalidBody(issues);
  checkMetadata(input.metadata);
  const words = countWords(input.text);
  if (words < MIN_DOCUMENT_WORDS) {
    throw new ServiceError(
      "too_short",
      `The document has ${words} words; a library document needs at least ${MIN_DOCUMENT_WORDS}.`,
    );
  }
  if (words > MAX_DOCUMENT_WORDS) {
    throw new ServiceError(
      "too_long",
      `The document has ${words.toLocaleString("en")} words; a library document may have at most ${MAX_DOCUMENT_WORDS.toLocaleString("en")}.`,
    );
  }
  checkTextSize(input.text, words);
}

const cleaned = (input: NewLibraryDocument): NewLibraryDocument => ({
  ...input,
  title: input.title.trim(),
});

export function createDocument(
  store: Store,
  workspaceId: string,
  input: NewLibraryDocument,
  now: number,
  /** Runs inside the document's transaction with its API object (the idempotent response is stored there). */
  inTransaction?: (document: DocumentObject) => void,
): DocumentObject {
  checkDocument(input);
  const [added] = addLibraryDocuments(store, workspaceId, [cleaned(input)], now, (docs) =>
    inTransaction?.(documentObject(docs[0] as LibraryDocument)),
  );
  return documentObject(added as LibraryDocument);
}

/** Adds checked documents in one transaction (the CLI's bulk import, batch by batch). */
export function createDocuments(
  store: Store,
  workspaceId: string,
  inputs: readonly NewLibraryDocument[],
  now: number,
): DocumentObject[] {
  for (const input of inputs) checkDocument(input);
  return addLibraryDocuments(store, workspaceId, inputs.map(cleaned), now).map(documentObject);
}

export function getDocument(store: Store, workspaceId: string, documentId: string): DocumentObject {
  const doc = getLibraryDocument(store, workspaceId, documentId);
  if (doc === null) throw notFound("document", documentId);
  return documentObject(doc);
}

/**
 * Newest first. `startingAfter` is the id of the last document of the previous page; an id that is not a
 * document of this workspace is `invalid_body`, so a client never silently restarts from the top.
 */
export function listDocuments(
  store: Store,
  workspaceId: string,
  options: { limit?: number; startingAfter?: string } = {},
): DocumentList {
  const limit = Math.min(Math.max(options.limit ?? DEFAULT_PAGE_SIZE, 1), MAX_PAGE_SIZE);
  let after: { createdAt: number; id: string } | undefined;
  if (options.startingAfter !== undefined) {
    const anchor = getLibraryDocument(store, workspaceId, options.startingAfter);
    if (anchor === null) {
      throw invalidBody(
        [{ path: "/starting_after", message: `No document with id '${options.startingAfter}'` }],
        "The request query is not valid.",
      );
    }
    after = { createdAt: anchor.createdAt, id: anchor.id };
  }
  const rows = listLibraryDocuments(store, workspaceId, {
    limit: limit + 1,
    ...(after !== undefined && { after }),
  });
  return {
    object: "list",
    data: rows.slice(0, limit).map(documentObject),
    has_more: rows.length > limit,
  };
}

export function deleteDocument(
  store: Store,
  workspaceId: string,
  documentId: string,
): { id: string; object: "document"; deleted: true } {
  if (!removeLibraryDocument(store, workspaceId, documentId)) throw notFound("document", documentId);
  return { id: documentId, object: "document", deleted: true };
}

/** The workspace a document belongs to, for admin commands that name only the document. */
export function documentWorkspace(store: Store, documentId: string): string {
  const row = store.db
    .select({ workspaceId: libraryDocuments.workspaceId })
    .from(libraryDocuments)
    .where(eq(libraryDocuments.id, documentId))
    .get();
  if (row === undefined) throw notFound("document", documentId);
  return row.workspaceId;
}
