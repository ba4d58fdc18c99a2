/**
 * Feature extraction. Every feature is a rate or a distribution statistic (no topic words), so that it carries
 * across generators and domains: sentence-length rhythm, word-length and vocabulary spread, punctuation and
 * function-word rhythm, and (with a language model) token log-probabilities, their spread across the text and
 * their "surprise curvature" against what the model expected.
 */
import { normalizeText, type SentenceSpan, tokenizeWords } from "../text/index.ts";
import { FUNCTION_WORDS } from "./function-words.ts";
import type { LanguageModel, TokenScores } from "./language-model.ts";

/** Raw counts of one sentence, aggregated into document and sentence features. */
export interface SentenceStats {
  words: number;
  wordLengthSum: number;
  wordLengthSqSum: number;
  longWords: number;
  functionWords: number;
  capitalisedInside: number;
  digits: number;
  commas: number;
  semicolons: number;
  colons: number;
  dashes: number;
  parens: number;
  quotes: number;
  exclamations: number;
  questions: number;
  contractions: number;
  lm: TokenScores;
  /** Lower-cased words, used for vocabulary spread. */
  tokens: string[];
}

const LONG_WORD_CHARS = 7;

export function sentenceStats(sentence: string, lm: LanguageModel): SentenceStats {
  const text = normalizeText(sentence);
  const words = tokenizeWords(text);
  const tokens: string[] = [];
  let wordLengthSum = 0;
  let wordLengthSqSum = 0;
  let longWords = 0;
  let functionWords = 0;
  let capitalisedInside = 0;
  let digits = 0;
  let contractions = 0;
  for (let i = 0; i < words.length; i++) {
    const raw = words[i]?.text ?? "";
    const lower = raw.toLowerCase();
    tokens.push(lower);
    const length = raw.length;
    wordLengthSum += length;
    wordLengthSqSum += length * length;
    if (length >= LONG_WORD_CHARS) longWords++;
    if (FUNCTION_WORDS.has(lower)) functionWords++;
    if (i > 0 && /^\p{Lu}/u.test(raw)) capitalisedInside++;
    if (/\d/.test(raw)) digits++;
    if (raw.includes("'")) contractions++;
  }
  return {
    words: words.length,
    wordLengthSum,
    wordLengthSqSum,
    longWords,
    functionWords,
    capitalisedInside,
    digits,
    commas: count(text, ","),
    semicolons: count(text, ";"),
    colons: count(text, ":"),
    dashes: countMatches(text, / - |--/g),
    parens: count(text, "("),
    quotes: count(text, '"'),
    exclamations: count(text, "!"),
    questions: count(text, "?"),
    contractions,
    lm: lm.score(tokens),
    tokens,
  };
}

function count(text: string, ch: string): number {
  let n = 0;
  for (let i = text.indexOf(ch); i !== -1; i = text.indexOf(ch, i + 1)) n++;
  return n;
}

function countMatches(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

function safeDiv(a: number, b: number): number {
  return b > 0 ? a / b : 0;
}

/** Moving-average type-token ratio over windows of 50 words: vocabulary spread independent of length. */
function movingTypeTokenRatio(tokens: string[], window = 50): number {
  if (tokens.length === 0) return 0;
  if (tokens.length <= window) return new Set(tokens).size / tokens.length;
  const counts = new Map<string, number>();
  let distinct = 0;
  for (let i = 0; i < window; i++) {
    const t = tokens[i] ?? "";
    const c = counts.get(t) ?? 0;
    if (c === 0) distinct++;
    counts.set(t, c + 1);
  }
  let sum = distinct;
  let windows = 1;
  for (let i = window; i < tokens.length; i++) {
    const incoming = tokens[i] ?? "";
    const outgoing = tokens[i - window] ?? "";
    const ci = counts.get(incoming) ?? 0;
    if (ci === 0) distinct++;
    counts.set(incoming, ci + 1);
    const co = (counts.get(outgoing) ?? 1) - 1;
    if (co === 0) distinct--;
    counts.set(outgoing, co);
    sum += distinct;
    windows++;
  }
  return sum / windows / window;
}

function meanAndStd(values: number[]): [number, number] {
  if (values.length === 0) return [0, 0];
  let sum = 0;
  for (const v of values) sum += v;
  const mean = sum / values.length;
  let sq = 0;
  for (const v of values) sq += (v - mean) * (v - mean);
  return [mean, Math.sqrt(sq / values.length)];
}

/** Sums a group of sentences' counts (a document, or a sentence with its neighbours). */
function pool(stats: SentenceStats[]): Omit<SentenceStats, "tokens" | "lm"> & { lm: TokenScores } {
  const total = {
    words: 0,
    wordLengthSum: 0,
    wordLengthSqSum: 0,
    longWords: 0,
    functionWords: 0,
    capitalisedInside: 0,
    digits: 0,
    commas: 0,
    semicolons: 0,
    colons: 0,
    dashes: 0,
    parens: 0,
    quotes: 0,
    exclamations: 0,
    questions: 0,
    contractions: 0,
  };
  const lms: TokenScores[] = [];
  for (const s of stats) {
    for (const key of Object.keys(total) as Array<keyof typeof total>) total[key] += s[key];
    lms.push(s.lm);
  }
  return { ...total, lm: poolTokenScores(lms) };
}

export function poolTokenScores(parts: TokenScores[]): TokenScores {
  const out: TokenScores = emptyTokenScores(parts[0]?.buckets.length ?? 0);
  for (const p of parts) {
    out.scored += p.scored;
    out.unknown += p.unknown;
    out.logProbSum += p.logProbSum;
    out.logProbSqSum += p.logProbSqSum;
    out.surpriseGapSum += p.surpriseGapSum;
    out.expectedVarianceSum += p.expectedVarianceSum;
    out.contextGainSum += p.contextGainSum;
    for (let i = 0; i < out.buckets.length; i++) out.buckets[i] = (out.buckets[i] ?? 0) + (p.buckets[i] ?? 0);
  }
  return out;
}

export function emptyTokenScores(bucketCount: number): TokenScores {
  return {
    scored: 0,
    unknown: 0,
    logProbSum: 0,
    logProbSqSum: 0,
    surpriseGapSum: 0,
    expectedVarianceSum: 0,
    contextGainSum: 0,
    buckets: new Array<number>(bucketCount).fill(0),
  };
}

/** Language-model features of pooled token scores. */
function lmFeatures(lm: TokenScores): number[] {
  const n = lm.scored;
  const mean = safeDiv(lm.logProbSum, n);
  const variance = Math.max(0, safeDiv(lm.logProbSqSum, n) - mean * mean);
  const features = [
    mean,
    Math.sqrt(variance),
    safeDiv(lm.unknown, n + lm.unknown),
    // Fast-DetectGPT's statistic with an n-gram model: how much more probable the tokens are than the model
    // expected, in units of the expected spread.
    safeDiv(lm.surpriseGapSum, Math.sqrt(lm.expectedVarianceSum) || 1),
    safeDiv(lm.surpriseGapSum, n),
    safeDiv(lm.contextGainSum, n),
  ];
  for (const b of lm.buckets) features.push(safeDiv(b, n));
  return features;
}

export const LM_FEATURE_NAMES = (bucketCount: number): string[] => [
  "lm_mean_logprob",
  "lm_std_logprob",
  "lm_unknown_rate",
  "lm_curvature",
  "lm_mean_gap",
  "lm_context_gain",
  ...Array.from({ length: bucketCount }, (_, i) => `lm_bucket_${i}`),
];

function styleFeatures(p: ReturnType<typeof pool>, sentences: number): number[] {
  const w = Math.max(1, p.words);
  const meanWordLength = safeDiv(p.wordLengthSum, p.words);
  const wordLengthVariance = Math.max(
    0,
    safeDiv(p.wordLengthSqSum, p.words) - meanWordLength * meanWordLength,
  );
  return [
    meanWordLength,
    Math.sqrt(wordLengthVariance),
    p.longWords / w,
    p.functionWords / w,
    p.capitalisedInside / w,
    p.digits / w,
    p.commas / w,
    p.semicolons / w,
    p.colons / w,
    p.dashes / w,
    p.parens / w,
    p.quotes / w,
    safeDiv(p.exclamations, sentences),
    safeDiv(p.questions, sentences),
    p.contractions / w,
  ];
}

const STYLE_FEATURE_NAMES = [
  "mean_word_length",
  "std_word_length",
  "long_word_rate",
  "function_word_rate",
  "capitalised_rate",
  "digit_rate",
  "comma_rate",
  "semicolon_rate",
  "colon_rate",
  "dash_rate",
  "paren_rate",
  "quote_rate",
  "exclamations_per_sentence",
  "questions_per_sentence",
  "contraction_rate",
];

/** Document feature vector: pooled style and LM features plus rhythm across sentences. */
export function documentFeatures(stats: SentenceStats[]): number[] {
  const pooled = pool(stats);
  const lengths = stats.map((s) => s.words);
  const [meanLength, stdLength] = meanAndStd(lengths);
  const sentenceLogProbs = stats.filter((s) => s.lm.scored >= 3).map((s) => s.lm.logProbSum / s.lm.scored);
  const [, stdSentenceLogProb] = meanAndStd(sentenceLogProbs);
  const allTokens = stats.flatMap((s) => s.tokens);
  return [
    Math.log1p(meanLength),
    safeDiv(stdLength, meanLength),
    stdSentenceLogProb,
    movingTypeTokenRatio(allTokens),
    ...styleFeatures(pooled, stats.length),
    ...lmFeatures(pooled.lm),
  ];
}

export function documentFeatureNames(bucketCount: number): string[] {
  return [
    "log_mean_sentence_length",
    "sentence_length_cv",
    "sentence_logprob_std",
    "mattr",
    ...STYLE_FEATURE_NAMES,
    ...LM_FEATURE_NAMES(bucketCount),
  ];
}

/**
 * Sentence feature vector: the sentence's own LM and style features, the same over a window of its
 * neighbours (context), its length, and its position.
 */
export function sentenceFeatures(stats: SentenceStats[], index: number): number[] {
  const own = stats[index];
  if (!own) return [];
  const window = stats.slice(Math.max(0, index - 2), index + 3);
  const ownPool = pool([own]);
  const windowPool = pool(window);
  return [
    Math.log1p(own.words),
    ...lmFeatures(ownPool.lm),
    ...lmFeatures(windowPool.lm),
    ...styleFeatures(windowPool, window.length),
    safeDiv(index, Math.max(1, stats.length - 1)),
  ];
}

export function sentenceFeatureNames(bucketCount: number): string[] {
  return [
    "log_sentence_length",
    ...LM_FEATURE_NAMES(bucketCount).map((n) => `own_${n}`),
    ...LM_FEATURE_NAMES(bucketCount).map((n) => `window_${n}`),
    ...STYLE_FEATURE_NAMES.map((n) => `window_${n}`),
    "relative_position",
  ];
}

export type { SentenceSpan };
