/** Filling the local web index: guarded fetches, main-text extraction and WARC reading. */
export { type ExtractedText, extractHtml, extractMarkdown, extractPlain } from "./extract.ts";
export { type FetchedPage, type FetchFailure, type FetchLike, fetchPage, WebFetchError } from "./fetch.ts";
export {
  DEFAULT_IMPORT_CONCURRENCY,
  fetchWebPage,
  type ImportOutcome,
  importUrls,
  importWarc,
  type WarcImportSummary,
  webPageOf,
} from "./import.ts";
export {
  DEFAULT_WEB_FETCH_SETTINGS,
  type WebFetchSettings,
  webFetchSettingsFromEnv,
} from "./settings.ts";
export { openWarcFile, parseHttpResponse, readWarc, WarcFormatError, type WarcRecord } from "./warc.ts";
