/**
 * The plagiarism engine's public types. `PlagiarismResult` is the `result` of a `plagiarism` scan (spec 2.3);
 * `sources[].document_id` and `sources[].matches` are additions allowed within v1.
 */

export interface PassageMatch {
  /** Character offsets (UTF-16 code units) in the submitted text: text.slice(start, end). */
  start: number;
  end: number;
  /** Character offsets in the source's text. */
  source_start: number;
  source_end: number;
  /** Counted words of the submitted text inside this passage. */
  matched_words: number;
}

export interface PlagiarismSource {
  type: "web" | "document";
  /** Link to the source; null for workspace documents (spec 2.3). */
  url: string | null;
  title: string;
  /** The library document's id (`doc_...`) for `document` sources. */
  document_id?: string;
  /** Counted words of the submitted text inside any passage matching this source. */
  matched_words: number;
  /** matched_words as a share of the counted words, 0..100, one decimal. */
  percent: number;
  /** The source's text of its longest matching passage (shortened to a word boundary when very long). */
  excerpt: string | null;
  matches: PassageMatch[];
}

export interface PlagiarismResult {
  /** Share of the counted words inside any matched passage, 0..100, one decimal. */
  similarity: number;
  /** Words in the scanned text: always `countWords(text)`. */
  word_count: number;
  /** Counted words inside any matched passage, each credited once however many sources match it. */
  matched_words: number;
  sources: PlagiarismSource[];
}

export interface PlagiarismOptions {
  /** Skip words inside quotation marks (not counted, not matched). Default true (spec 4.3). */
  excludeQuotes?: boolean;
  /** Sources to ignore, compared after URL normalisation. */
  excludeUrls?: readonly string[];
}

/** Opaque key of an indexed text, unique across library documents and web pages. */
export type SourceKey = number;

/** A text the index holds, as the engine needs it to align and report. */
export interface IndexedSource {
  key: SourceKey;
  type: "web" | "document";
  /** `doc_...` or `wp_...` */
  id: string;
  url: string | null;
  title: string;
  text: string;
}

/**
 * What the engine needs from a fingerprint index, already restricted to what one caller may see (the shared web
 * pages and that workspace's library). Implemented over SQLite in src/fingerprints; tests can use a Map.
 */
export interface FingerprintIndex {
  /**
   * The sources holding each of the given fingerprints. A fingerprint held by more than `maxHolders` sources
   * is a stock phrase that says nothing about copying: it is left out of the answer.
   */
  findHolders(fingerprints: readonly bigint[], maxHolders: number): Map<bigint, SourceKey[]>;
  /** The sources with these keys (missing keys are left out). */
  loadSources(keys: readonly SourceKey[]): IndexedSource[];
}
