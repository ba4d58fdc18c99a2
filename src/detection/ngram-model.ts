/**
 * Trigram language model of human English with Katz-style back-off, read from english-lm.bin. It turns a
 * sentence's words into the sums that feature extraction needs (see TokenScores).
 */
import type { LanguageModel, TokenScores } from "./language-model.ts";
import { BACKOFF_STEP, LOG_PROB_STEP, type NgramTables, trigramKey } from "./ngram-file.ts";

/** Bucket edges on natural-log probability: p > 0.1, 0.01, 0.001, 0.0001, and below. */
const BUCKET_EDGES = [1, 2, 3, 4].map((k) => -k * Math.LN10);
const NO_WORD = -1;
/** Word ids are frequency ranks (the vocabulary is stored most frequent first). */
const RANK_EDGES = [100, 1000, 10000];

export class NgramLanguageModel implements LanguageModel {
  readonly bucketCount = BUCKET_EDGES.length + 1;
  readonly rankBucketCount = RANK_EDGES.length + 1;
  readonly #t: NgramTables;

  constructor(tables: NgramTables) {
    this.#t = tables;
  }

  /** Index of bigram (h -> w) in the CSR arrays, or -1. */
  #bigram(h: number, w: number): number {
    const t = this.#t;
    let lo = t.bigramOffsets[h] ?? 0;
    let hi = (t.bigramOffsets[h + 1] ?? 0) - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = t.bigramWords[mid] ?? 0;
      if (v < w) lo = mid + 1;
      else if (v > w) hi = mid - 1;
      else return mid;
    }
    return -1;
  }

  #trigram(h2: number, h: number, w: number): number {
    const keys = this.#t.trigramKeys;
    const key = trigramKey(h2, h, w);
    let lo = 0;
    let hi = keys.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = keys[mid] ?? 0;
      if (v < key) lo = mid + 1;
      else if (v > key) hi = mid - 1;
      else return mid;
    }
    return -1;
  }

  /** log p(w | h) with back-off to the unigram. */
  #bigramLogProb(h: number, w: number): number {
    const t = this.#t;
    const unigram = t.unigramLogProb[w] ?? -99;
    if (h === NO_WORD) return unigram;
    const i = this.#bigram(h, w);
    if (i >= 0) return -(t.bigramLogProb[i] ?? 0) * LOG_PROB_STEP;
    return (t.unigramBackoff[h] ?? 0) + unigram;
  }

  /** log p(w | h2 h) with back-off through bo(h2 h) to the bigram. */
  #logProb(h2: number, h: number, w: number): number {
    const t = this.#t;
    if (h2 !== NO_WORD && h !== NO_WORD) {
      const i = this.#trigram(h2, h, w);
      if (i >= 0) return -(t.trigramLogProb[i] ?? 0) * LOG_PROB_STEP;
      const history = this.#bigram(h2, h);
      const backoff = history >= 0 ? (t.bigramBackoff[history] ?? 0) * BACKOFF_STEP : 0;
      return backoff + this.#bigramLogProb(h, w);
    }
    return this.#bigramLogProb(h, w);
  }

  /** Vocabulary ids of a token: itself, or its hyphen parts, or stem + "'s"; null when unknown. */
  #ids(token: string): number[] | null {
    const ids = this.#t.wordIds;
    const direct = ids.get(token);
    if (direct !== undefined) return [direct];
    const parts = token.includes("-")
      ? token.split("-")
      : token.endsWith("'s")
        ? [token.slice(0, -2), "'s"]
        : null;
    if (!parts) return null;
    const out: number[] = [];
    for (const p of parts) {
      const id = ids.get(p);
      if (id === undefined) return null;
      out.push(id);
    }
    return out;
  }

  rank(word: string): number {
    return this.#t.wordIds.get(word) ?? -1;
  }

  score(tokens: readonly string[]): TokenScores {
    const t = this.#t;
    const scores: TokenScores = {
      scored: 0,
      unknown: 0,
      logProbSum: 0,
      logProbSqSum: 0,
      surpriseGapSum: 0,
      expectedVarianceSum: 0,
      contextGainSum: 0,
      buckets: new Array<number>(this.bucketCount).fill(0),
      unigramLogProbSum: 0,
      unigramLogProbSqSum: 0,
      rankBuckets: new Array<number>(this.rankBucketCount).fill(0),
    };
    let h2 = NO_WORD;
    let h = t.sentenceStart;
    for (const token of tokens) {
      const ids = this.#ids(token.replace(/\u2019/g, "'"));
      if (!ids) {
        // Numbers are not words of a spoken-English model; anything else unknown is a rare word or a typo.
        if (/\p{L}/u.test(token)) scores.unknown++;
        h2 = NO_WORD;
        h = NO_WORD;
        continue;
      }
      for (const w of ids) {
        const lp = this.#logProb(h2, h, w);
        const expected = h === NO_WORD ? t.unigramContext[0] : (t.contextExpected[h] ?? 0);
        const variance = h === NO_WORD ? t.unigramContext[1] : (t.contextVariance[h] ?? 0);
        scores.scored++;
        scores.logProbSum += lp;
        scores.logProbSqSum += lp * lp;
        scores.surpriseGapSum += lp - expected;
        scores.expectedVarianceSum += variance;
        const unigram = t.unigramLogProb[w] ?? 0;
        scores.contextGainSum += lp - unigram;
        scores.unigramLogProbSum += unigram;
        scores.unigramLogProbSqSum += unigram * unigram;
        let rank = 0;
        while (rank < RANK_EDGES.length && w >= (RANK_EDGES[rank] ?? 0)) rank++;
        scores.rankBuckets[rank] = (scores.rankBuckets[rank] ?? 0) + 1;
        let bucket = 0;
        while (bucket < BUCKET_EDGES.length && lp <= (BUCKET_EDGES[bucket] ?? 0)) bucket++;
        scores.buckets[bucket] = (scores.buckets[bucket] ?? 0) + 1;
        h2 = h;
        h = w;
      }
    }
    return scores;
  }
}
