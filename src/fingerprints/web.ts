import { eq } from "drizzle-orm";
import { WEB_SCOPE, webPages } from "../../schema/index.ts";
import { ServiceError } from "../errors.ts";
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

/** The local web index, shared by every workspace: one row per normalised URL. */

export interface NewWebPage {
  url: string;
  title: string;
  text: string;
  fetchedAt: number;
}

export interface WebPage {
  id: string;
  url: string;
  title: string;
  wordCount: number;
  fetchedAt: number;
}

type Row = typeof webPages.$inferSelect;

const view = (row: Row): WebPage => ({
  id: row.id,
  url: row.url,
  title: row.title,
  wordCount: row.wordCount,
  fetchedAt: row.fetchedAt,
});

function requireUrl(url: string): string {
  const normalized = normalizeUrl(url);
  if (normalized === null) throw new ServiceError("invalid_body", `Not an http(s) URL: '${url}'.`);
  return normalized;
}

export function upsertWebPage(store: Store, page: NewWebPage): WebPage {
  return upsertWebPages(store, [page])[0] as WebPage;
}

/**
 * Adds pages, or replaces the text of pages already indexed under the same normalised URL (their id stays).
 * Fingerprints of the new texts are computed before the write lock is taken.
 */
export function upsertWebPages(store: Store, pages: readonly NewWebPage[]): WebPage[] {
  const prepared = pages.map((page) => ({
    page: {
      url: requireUrl(page.url),
      title: page.title,
      text: page.text,
      wordCount: countWords(page.text),
      fingerprintVersion: FINGERPRINT_VERSION,
      fetchedAt: page.fetchedAt,
    },
    fingerprints: indexFingerprints(page.text),
  }));
  // A URL given twice in one batch is written once, with its last text (fingerprint rows are inserted at the
  // end of the batch, so an earlier copy could not be replaced within it).
  const lastIndexOf = new Map(prepared.map(({ page }, i) => [page.url, i]));
  const saved = withBulkCache(store, prepared.length, () =>
    inWriteTransaction(store, () => {
      const rows: FingerprintRow[] = [];
      const savedByUrl = new Map<string, WebPage>();
      prepared.forEach(({ page, fingerprints }, i) => {
        if (lastIndexOf.get(page.url) !== i) return;
        const existing = store.db.select().from(webPages).where(eq(webPages.url, page.url)).get();
        let sourceKey: number;
        if (existing === undefined) {
          const row = { id: newId("wp_"), sourceKey: allocateSourceKey(store, "web"), ...page };
          store.db.insert(webPages).values(row).run();
          savedByUrl.set(page.url, view(row));
          sourceKey = row.sourceKey;
        } else {
          deleteFingerprints(store, WEB_SCOPE, existing.sourceKey, existing.fingerprintVersion, () =>
            indexFingerprints(existing.text),
          );
          store.db.update(webPages).set(page).where(eq(webPages.id, existing.id)).run();
          savedByUrl.set(page.url, view({ ...existing, ...page }));
          sourceKey = existing.sourceKey;
        }
        for (const hash of fingerprints) rows.push({ hash, scope: WEB_SCOPE, sourceKey });
      });
      insertFingerprints(store, rows);
      return prepared.map(({ page }) => savedByUrl.get(page.url) as WebPage);
    }),
  );
  if (prepared.length >= BULK_BATCH) compactFingerprintsIfDue(store);
  return saved;
}

export function getWebPage(store: Store, url: string): (WebPage & { text: string }) | null {
  const normalized = normalizeUrl(url);
  if (normalized === null) return null;
  const row = store.db.select().from(webPages).where(eq(webPages.url, normalized)).get();
  return row === undefined ? null : { ...view(row), text: row.text };
}

/** Removes a page and its fingerprints; false when no page has that URL. */
export function removeWebPage(store: Store, url: string): boolean {
  const normalized = normalizeUrl(url);
  if (normalized === null) return false;
  return inWriteTransaction(store, () => {
    const row = store.db.select().from(webPages).where(eq(webPages.url, normalized)).get();
    if (row === undefined) return false;
    deleteFingerprints(store, WEB_SCOPE, row.sourceKey, row.fingerprintVersion, () =>
      indexFingerprints(row.text),
    );
    store.db.delete(webPages).where(eq(webPages.id, row.id)).run();
    statementsFor(store.sqlite).deleteSourceKey.run(row.sourceKey);
    return true;
  });
}
