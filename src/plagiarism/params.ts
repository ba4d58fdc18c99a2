/**
 * Tuning of the plagiarism engine, named once with the reason for each value. The index stores fingerprints made
 * with FINGERPRINT_K and WINNOW_WINDOW: changing either means a new FINGERPRINT_VERSION and a reindex.
 */

/** Words (terms) per fingerprinted k-gram: long enough that chance matches between unrelated texts are rare. */
export const FINGERPRINT_K = 5;
/**
 * Winnowing window (k-grams). The index keeps about 2/(W+1) of a text's k-grams and still guarantees a hit for
 * any shared run of K + W - 1 = 12 terms, because a check looks up every k-gram of the submitted text.
 */
export const WINNOW_WINDOW = 8;
/** Bumped whenever the fingerprints of a text would change (k, window, hashing, normalisation). */
export const FINGERPRINT_VERSION = 1;

export interface EngineParams {
  /** A fingerprint held by more sources than this is a stock phrase, not evidence: it is ignored. */
  maxSourcesPerFingerprint: number;
  /**
   * A source must share at least this many fingerprints within one stretch of `mergeSourceGap` terms of the
   * submitted text to be aligned as a strong candidate. Two are guaranteed for any shared run of
   * 2W + K - 1 = 20 terms and likely from 12 terms; one shared k-gram alone is mostly a chance collision of
   * everyday phrasing, and aligning every such source would dominate the time of a check in a large library
   * (only `maxWeakCandidates` of them are aligned).
   */
  minSharedFingerprints: number;
  /** Sources aligned in full per check, best first (by shared fingerprints). */
  maxCandidates: number;
  /** Sources with fewer shared fingerprints also aligned per check, rarest shared k-gram first. */
  maxWeakCandidates: number;
  /** Terms per alignment seed: shorter than K so that lightly edited passages still hold many seeds. */
  seedLength: number;
  /** Largest step (terms) between two seeds of one passage, on either side: bridges a few edited words. */
  maxGap: number;
  /** Largest difference between the steps on the two sides: how many words may be inserted or deleted at once. */
  maxSkew: number;
  /** Fragments shorter than this (terms) before merging are chance matches of a seed or two: dropped. */
  minFragmentTerms: number;
  /** Neighbouring passages of one source closer than this (terms, in the submitted text) become one. */
  mergeGap: number;
  /** ... provided their source ranges are at most this far apart (terms): reordered sentences of one passage. */
  mergeSourceGap: number;
  /** Passages shorter than this (counted words) are dropped: too short to mean anything. */
  minPassageWords: number;
  /** Share of a passage's terms that must lie inside exact seeds: rejects chains of stock phrases. */
  minSeedCoverage: number;
  /** Longest excerpt (characters) returned per source; the offsets in `matches` give the full passage. */
  maxExcerptChars: number;
}

export const DEFAULT_PARAMS: EngineParams = {
  maxSourcesPerFingerprint: 200,
  minSharedFingerprints: 2,
  maxCandidates: 100,
  maxWeakCandidates: 10,
  seedLength: 3,
  maxGap: 10,
  maxSkew: 5,
  minFragmentTerms: 6,
  mergeGap: 24,
  mergeSourceGap: 64,
  minPassageWords: 12,
  minSeedCoverage: 0.4,
  maxExcerptChars: 600,
};
