import { type NewWebPage, upsertWebPages, type WebPage } from "../fingerprints/index.ts";
import { MAX_DOCUMENT_WORDS, MIN_DOCUMENT_WORDS } from "../library/documents.ts";
import { normalizeUrl } from "../plagiarism/index.ts";
import { TITLE_MAX } from "../scans/input.ts";
import type { Store } from "../store/db.ts";
import { countWords } from "../text/index.ts";
import { type ExtractedText, extractByMediaType } from "./extract.ts";
import { decodeText, type FetchLike, fetchPage, TEXT_MEDIA_TYPES, WebFetchError } from "./fetch.ts";
import type { WebFetchSettings } from "./settings.ts";
import { openWarcFile, parseHttpResponse, readWarc, type WarcRecord } from "./warc.ts";

/**
 * Filling the local web index: pages fetched from URLs (through the guard) or read from WARC files, their main
 * text extracted, written in batches through the fingerprint index's upsert (a page already indexed under the
 * same normalised URL is replaced).
 */

export type ImportOutcome = { ok: true; page: WebPage } | { ok: false; url: string; reason: string };

/** Pages written per transaction: fingerprinting happens before the lock, so the lock is held briefly. */
const BATCH = 25;
/** Pages fetched at once: enough to hide network latency, few enough to be polite to one site. */
export const DEFAULT_IMPORT_CONCURRENCY = 4;

/** A page ready for the index, or why it cannot be one (the same word limits as library documents). */
export function webPageOf(
  url: string,
  extracted: ExtractedText,
  fetchedAt: number,
): { page: NewWebPage } | { reason: string } {
  if (normalizeUrl(url) === null) return { reason: "not an http(s) URL" };
  const words = countWords(extracted.text);
  if (words < MIN_DOCUMENT_WORDS) return { reason: `no main text found (${words} words)` };
  if (words > MAX_DOCUMENT_WORDS) {
    return { reason: `${words} words is more than the ${MAX_DOCUMENT_WORDS.toLocaleString("en")} allowed` };
  }
  // A <title> can be a paragraph of keywords; the sources list shows a title, not a page of them.
  const title = (extracted.title ?? url).slice(0, TITLE_MAX);
  return { page: { url, title, text: extracted.text, fetchedAt } };
}

/** Collects pages and writes them batch by batch, reporting each once it is stored. */
class PageSink {
  private pending: NewWebPage[] = [];

  constructor(
    private readonly store: Store,
    private readonly report: (outcome: ImportOutcome) => void,
  ) {}

  add(page: NewWebPage): void {
    this.pending.push(page);
    if (this.pending.length >= BATCH) this.flush();
  }

  flush(): void {
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    for (const page of upsertWebPages(this.store, batch)) this.report({ ok: true, page });
  }
}

/**
 * Fetches one URL and extracts its main text; the reason in words when it cannot be a page of the index.
 * The page is indexed under the URL asked for, not where redirects ended: that is the address the operator
 * imported or the search engine named, so `exclude_urls` and the freshness check of live search find it.
 */
export async function fetchWebPage(
  url: string,
  settings: WebFetchSettings,
  options: { now: () => number; fetchImpl?: FetchLike },
): Promise<{ page: NewWebPage } | { reason: string; kind: string }> {
  try {
    const fetched = await fetchPage(url, settings, options.fetchImpl);
    const made = webPageOf(url, extractByMediaType(fetched.body, fetched.mediaType), options.now());
    return "page" in made ? made : { reason: `${fetched.url}: ${made.reason}`, kind: "no_text" };
  } catch (error) {
    if (error instanceof WebFetchError) return { reason: error.message, kind: error.kind };
    return { reason: `${url}: ${(error as Error).message}`, kind: "failed" };
  }
}

export async function importUrls(
  store: Store,
  urls: readonly string[],
  settings: WebFetchSettings,
  options: {
    concurrency?: number;
    onOutcome?: (outcome: ImportOutcome) => void;
    /** The service clock: stamps each page's fetch time. */
    now: () => number;
    fetchImpl?: FetchLike;
  },
): Promise<ImportOutcome[]> {
  const outcomes: ImportOutcome[] = [];
  const report = (outcome: ImportOutcome) => {
    outcomes.push(outcome);
    options.onOutcome?.(outcome);
  };
  const sink = new PageSink(store, report);
  let next = 0;
  const worker = async () => {
    while (next < urls.length) {
      const url = urls[next++] as string;
      const fetched = await fetchWebPage(url, settings, options);
      if ("page" in fetched) sink.add(fetched.page);
      else report({ ok: false, url, reason: fetched.reason });
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency ?? DEFAULT_IMPORT_CONCURRENCY, urls.length));
  await Promise.all(Array.from({ length: workers }, worker));
  sink.flush();
  return outcomes;
}

export interface WarcImportSummary {
  outcomes: ImportOutcome[];
  /** Records that are not pages at all (requests, metadata, images, redirects...), left out silently. */
  ignored: number;
}

/** The page a WARC record holds, if it holds one: a 2xx HTML or text response, or a text resource. */
function pageOfRecord(record: WarcRecord, now: number): { page: NewWebPage } | { reason: string } | null {
  if (!record.targetUri || (record.type !== "response" && record.type !== "resource")) return null;
  const url = record.targetUri;
  if (record.block === null) return { reason: `${url}: the record is larger than the page size limit` };
  let contentType = record.contentType;
  let body = record.block;
  if (record.type === "response") {
    if (!/^application\/http/i.test(record.contentType)) return null;
    const response = parseHttpResponse(record.block);
    if (response === null) return { reason: `${url}: the HTTP response in the record cannot be read` };
    if (response.status < 200 || response.status > 299) return null;
    contentType = response.headers.get("content-type") ?? "";
    body = response.body;
  }
  const mediaType = (contentType.split(";")[0] ?? "").trim().toLowerCase();
  if (!TEXT_MEDIA_TYPES.has(mediaType)) return null;
  const made = webPageOf(
    url,
    extractByMediaType(decodeText(body, contentType, mediaType), mediaType),
    record.date ?? now,
  );
  return "page" in made ? made : { reason: `${url}: ${made.reason}` };
}

export async function importWarc(
  store: Store,
  path: string,
  settings: Pick<WebFetchSettings, "maxBytes">,
  options: { onOutcome?: (outcome: ImportOutcome) => void; now: () => number },
): Promise<WarcImportSummary> {
  const outcomes: ImportOutcome[] = [];
  const report = (outcome: ImportOutcome) => {
    outcomes.push(outcome);
    options.onOutcome?.(outcome);
  };
  const sink = new PageSink(store, report);
  let ignored = 0;
  for await (const record of readWarc(await openWarcFile(path), { maxBlockBytes: settings.maxBytes })) {
    const found = pageOfRecord(record, options.now());
    if (found === null) ignored++;
    else if ("page" in found) sink.add(found.page);
    else report({ ok: false, url: record.targetUri ?? "", reason: found.reason });
  }
  sink.flush();
  return { outcomes, ignored };
}
