/**
 * The interface between feature extraction and an n-gram language model of human English.
 */

/** Sums over the scored tokens of a span of text (so spans pool by addition). */
export interface TokenScores {
  /** Tokens in the model's vocabulary. */
  scored: number;
  /** Tokens outside it (typos, rare names, numbers): not in the sums below. */
  unknown: number;
  /** Natural-log probabilities of the scored tokens, and their squares. */
  logProbSum: number;
  logProbSqSum: number;
  /** Sum over tokens of log p(token | context) - E[log p(. | context)] (probability "curvature"). */
  surpriseGapSum: number;
  /** Sum over tokens of Var[log p(. | context)], to normalise the gap. */
  expectedVarianceSum: number;
  /** Sum over tokens of log p(token | context) - log p(token): how much the context predicted the token. */
  contextGainSum: number;
  /** Histogram of log-probabilities (GLTR-style rank buckets, by probability instead of rank). */
  buckets: number[];
  /** Context-free word rarity: unigram log-probabilities of the scored tokens, and their squares. */
  unigramLogProbSum: number;
  unigramLogProbSqSum: number;
  /** Histogram of frequency ranks (top 100, 1,000, 10,000, rest): vocabulary register. */
  rankBuckets: number[];
}

export interface LanguageModel {
  readonly bucketCount: number;
  readonly rankBucketCount: number;
  /** Scores lower-cased words of one sentence (sentence boundaries are the model's context boundaries). */
  score(tokens: readonly string[]): TokenScores;
  /** Frequency rank of a lower-cased word (0 = most frequent), or -1 when the word is not in the vocabulary. */
  rank(word: string): number;
}

/** A model that knows no words: every LM feature is zero. Used before a real LM is derived. */
export class EmptyLanguageModel implements LanguageModel {
  readonly bucketCount = 0;
  readonly rankBucketCount = 0;

  rank(_word: string): number {
    return -1;
  }

  score(tokens: readonly string[]): TokenScores {
    return {
      scored: 0,
      unknown: tokens.length,
      logProbSum: 0,
      logProbSqSum: 0,
      surpriseGapSum: 0,
      expectedVarianceSum: 0,
      contextGainSum: 0,
      buckets: [],
      unigramLogProbSum: 0,
      unigramLogProbSqSum: 0,
      rankBuckets: [],
    };
  }
}
