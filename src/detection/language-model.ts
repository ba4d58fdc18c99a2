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
}

export interface LanguageModel {
  readonly bucketCount: number;
  /** Scores lower-cased words of one sentence (sentence boundaries are the model's context boundaries). */
  score(tokens: readonly string[]): TokenScores;
}

/** A model that knows no words: every LM feature is zero. Used before a real LM is derived. */
export class EmptyLanguageModel implements LanguageModel {
  readonly bucketCount = 0;

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
    };
  }
}
