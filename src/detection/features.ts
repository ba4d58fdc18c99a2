/**
 * Feature extraction. Every feature is a rate or a distribution statistic (no topic words), so that it carries
 * across generators and domains: sentence-length rhythm, word-length and vocabulary spread, punctuation and
 * function-word rhythm, repetition, and token log-probabilities under a human-English trigram model (their
 * level, spread across the text, probability buckets, and "surprise curvature" against what the model expected).
 */
import { normalizeText, tokenizeWords } from "../text/index.ts";
import { FUNCTION_WORDS, MACHINE_REGISTER_WORDS } from "./function-words.ts";
import type { LanguageModel, TokenScores } from "./language-model.ts";
import { styleTokenIds } from "./style-bag.ts";

/** Raw counts of one sentence; they add up over a document or a window of sentences. */
export interface SentenceStats {
  words: number;
  wordLengthSum: number;
  wordLengthSqSum: number;
  longWords: number;
  functionWords: number;
  registerWords: number;
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
  /** Lower-cased words, for vocabulary spread and repetition. */
  tokens: string[];
  /** Style token ids for the style bag (see style-bag.ts). */
  styleIds: number[];
}

type Counts = Omit<SentenceStats, "lm" | "tokens" | "styleIds">;
const COUNT_KEYS: Array<keyof Counts> = [
  "words",
  "wordLengthSum",
  "wordLengthSqSum",
  "longWords",
  "functionWords",
  "registerWords",
  "capitalisedInside",
  "digits",
  "commas",
  "semicolons",
  "colons",
  "dashes",
  "parens",
  "quotes",
  "exclamations",
  "questions",
  "contractions",
];

const LONG_WORD_CHARS = 7;

export function sentenceStats(sentence: string, lm: LanguageModel): SentenceStats {
  const text = normalizeText(sentence);
  const words = tokenizeWords(text);
  const tokens: string[] = [];
  const s: Counts = {
    words: words.length,
    wordLengthSum: 0,
    wordLengthSqSum: 0,
    longWords: 0,
    functionWords: 0,
    registerWords: 0,
    capitalisedInside: 0,
    digits: 0,
    commas: count(text, ","),
    semicolons: count(text, ";"),
    colons: count(text, ":"),
    dashes: (text.match(/ - |--/g) ?? []).length,
    parens: count(text, "("),
    quotes: count(text, '"'),
    exclamations: count(text, "!"),
    questions: count(text, "?"),
    contractions: 0,
  };
  for (let i = 0; i < words.length; i++) {
    const raw = words[i]?.text ?? "";
    const lower = raw.toLowerCase();
    tokens.push(lower);
    const length = raw.length;
    s.wordLengthSum += length;
    s.wordLengthSqSum += length * length;
    if (length >= LONG_WORD_CHARS) s.longWords++;
    if (FUNCTION_WORDS.has(lower)) s.functionWords++;
    if (MACHINE_REGISTER_WORDS.has(lower)) s.registerWords++;
    if (i > 0 && /^\p{Lu}/u.test(raw)) s.capitalisedInside++;
    if (/\d/.test(raw)) s.digits++;
    if (raw.includes("'")) s.contractions++;
  }
  return { ...s, lm: lm.score(tokens), tokens, styleIds: styleTokenIds(text, lm) };
}

function count(text: string, ch: string): number {
  let n = 0;
  for (let i = text.indexOf(ch); i !== -1; i = text.indexOf(ch, i + 1)) n++;
  return n;
}

function safeDiv(a: number, b: number): number {
  return b > 0 ? a / b : 0;
}

/** Collects feature values with their names, so names and values can never drift apart. */
class FeatureVector {
  readonly values: number[] = [];
  readonly names: string[] = [];

  add(name: string, value: number): void {
    this.names.push(name);
    this.values.push(Number.isFinite(value) ? value : 0);
  }
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

/** Share of word trigrams that already occurred earlier in the text (older models loop and repeat). */
function repeatedTrigramRate(tokens: string[]): number {
  if (tokens.length < 3) return 0;
  const seen = new Set<string>();
  let repeated = 0;
  for (let i = 2; i < tokens.length; i++) {
    const key = `${tokens[i - 2]} ${tokens[i - 1]} ${tokens[i]}`;
    if (seen.has(key)) repeated++;
    else seen.add(key);
  }
  return repeated / (tokens.length - 2);
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

function emptyCounts(): Counts {
  const c = {} as Counts;
  for (const k of COUNT_KEYS) c[k] = 0;
  return c;
}

/** Sums a group of sentences' counts (a document, or a sentence with its neighbours). */
function pool(stats: SentenceStats[]): { counts: Counts; lm: TokenScores } {
  const counts = emptyCounts();
  for (const s of stats) for (const k of COUNT_KEYS) counts[k] += s[k];
  return { counts, lm: poolTokenScores(stats.map((s) => s.lm)) };
}

export function poolTokenScores(parts: TokenScores[]): TokenScores {
  const first = parts[0];
  const out: TokenScores = {
    scored: 0,
    unknown: 0,
    logProbSum: 0,
    logProbSqSum: 0,
    surpriseGapSum: 0,
    expectedVarianceSum: 0,
    contextGainSum: 0,
    buckets: new Array<number>(first?.buckets.length ?? 0).fill(0),
    unigramLogProbSum: 0,
    unigramLogProbSqSum: 0,
    rankBuckets: new Array<number>(first?.rankBuckets.length ?? 0).fill(0),
  };
  for (const p of parts) {
    out.scored += p.scored;
    out.unknown += p.unknown;
    out.logProbSum += p.logProbSum;
    out.logProbSqSum += p.logProbSqSum;
    out.surpriseGapSum += p.surpriseGapSum;
    out.expectedVarianceSum += p.expectedVarianceSum;
    out.contextGainSum += p.contextGainSum;
    out.unigramLogProbSum += p.unigramLogProbSum;
    out.unigramLogProbSqSum += p.unigramLogProbSqSum;
    for (let i = 0; i < out.buckets.length; i++) out.buckets[i] = (out.buckets[i] ?? 0) + (p.buckets[i] ?? 0);
    for (let i = 0; i < out.rankBuckets.length; i++) {
      out.rankBuckets[i] = (out.rankBuckets[i] ?? 0) + (p.rankBuckets[i] ?? 0);
    }
  }
  return out;
}

/** Language-model features of pooled token scores. */
function addLmFeatures(f: FeatureVector, prefix: string, lm: TokenScores): void {
  const n = lm.scored;
  const mean = safeDiv(lm.logProbSum, n);
  f.add(`${prefix}lm_mean_logprob`, mean);
  f.add(`${prefix}lm_std_logprob`, Math.sqrt(Math.max(0, safeDiv(lm.logProbSqSum, n) - mean * mean)));
  f.add(`${prefix}lm_unknown_rate`, safeDiv(lm.unknown, n + lm.unknown));
  // Fast-DetectGPT's statistic with an n-gram model: how much more probable the tokens are than the model
  // expected in their contexts, in units of the expected spread.
  f.add(`${prefix}lm_curvature`, safeDiv(lm.surpriseGapSum, Math.sqrt(lm.expectedVarianceSum)));
  f.add(`${prefix}lm_mean_gap`, safeDiv(lm.surpriseGapSum, n));
  f.add(`${prefix}lm_context_gain`, safeDiv(lm.contextGainSum, n));
  lm.buckets.forEach((b, i) => {
    f.add(`${prefix}lm_bucket_${i}`, safeDiv(b, n));
  });
  const unigramMean = safeDiv(lm.unigramLogProbSum, n);
  f.add(`${prefix}unigram_mean_logprob`, unigramMean);
  f.add(
    `${prefix}unigram_std_logprob`,
    Math.sqrt(Math.max(0, safeDiv(lm.unigramLogProbSqSum, n) - unigramMean * unigramMean)),
  );
  lm.rankBuckets.forEach((b, i) => {
    f.add(`${prefix}rank_bucket_${i}`, safeDiv(b, n));
  });
}

function addStyleFeatures(f: FeatureVector, prefix: string, c: Counts, sentences: number): void {
  const w = Math.max(1, c.words);
  const meanWordLength = safeDiv(c.wordLengthSum, c.words);
  f.add(`${prefix}mean_word_length`, meanWordLength);
  f.add(
    `${prefix}std_word_length`,
    Math.sqrt(Math.max(0, safeDiv(c.wordLengthSqSum, c.words) - meanWordLength * meanWordLength)),
  );
  f.add(`${prefix}long_word_rate`, c.longWords / w);
  f.add(`${prefix}function_word_rate`, c.functionWords / w);
  f.add(`${prefix}register_word_rate`, c.registerWords / w);
  f.add(`${prefix}capitalised_rate`, c.capitalisedInside / w);
  f.add(`${prefix}digit_rate`, c.digits / w);
  f.add(`${prefix}comma_rate`, c.commas / w);
  f.add(`${prefix}semicolon_rate`, c.semicolons / w);
  f.add(`${prefix}colon_rate`, c.colons / w);
  f.add(`${prefix}dash_rate`, c.dashes / w);
  f.add(`${prefix}paren_rate`, c.parens / w);
  f.add(`${prefix}quote_rate`, c.quotes / w);
  f.add(`${prefix}exclamations_per_sentence`, safeDiv(c.exclamations, sentences));
  f.add(`${prefix}questions_per_sentence`, safeDiv(c.questions, sentences));
  f.add(`${prefix}contraction_rate`, c.contractions / w);
}

function documentVector(stats: SentenceStats[]): FeatureVector {
  const f = new FeatureVector();
  const { counts, lm } = pool(stats);
  const [meanLength, stdLength] = meanAndStd(stats.map((s) => s.words));
  const sentenceLogProbs = stats.filter((s) => s.lm.scored >= 3).map((s) => s.lm.logProbSum / s.lm.scored);
  const sentenceCurvatures = stats
    .filter((s) => s.lm.scored >= 3)
    .map((s) => safeDiv(s.lm.surpriseGapSum, Math.sqrt(s.lm.expectedVarianceSum)));
  const allTokens = stats.flatMap((s) => s.tokens);
  const firstWords = stats.map((s) => s.tokens[0] ?? "");
  f.add("log_mean_sentence_length", Math.log1p(meanLength));
  f.add("sentence_length_cv", safeDiv(stdLength, meanLength));
  f.add("sentence_logprob_std", meanAndStd(sentenceLogProbs)[1]);
  f.add("sentence_curvature_std", meanAndStd(sentenceCurvatures)[1]);
  f.add("mattr", movingTypeTokenRatio(allTokens));
  f.add("repeated_trigram_rate", repeatedTrigramRate(allTokens));
  f.add("sentence_opener_diversity", safeDiv(new Set(firstWords).size, firstWords.length));
  addStyleFeatures(f, "", counts, stats.length);
  addLmFeatures(f, "", lm);
  return f;
}

/** Document feature vector: pooled style and LM features plus rhythm across sentences. */
export function documentFeatures(stats: SentenceStats[]): number[] {
  return documentVector(stats).values;
}

export function documentFeatureNames(lm: LanguageModel): string[] {
  return documentVector([sentenceStats("Name the features.", lm)]).names;
}

/** Sentences on each side that form a sentence's context window. */
const CONTEXT_SENTENCES = 2;

function sentenceVector(stats: SentenceStats[], index: number): FeatureVector {
  const f = new FeatureVector();
  const own = stats[index];
  if (!own) return f;
  const window = stats.slice(Math.max(0, index - CONTEXT_SENTENCES), index + CONTEXT_SENTENCES + 1);
  const windowPool = pool(window);
  f.add("log_sentence_length", Math.log1p(own.words));
  addLmFeatures(f, "own_", own.lm);
  addLmFeatures(f, "window_", windowPool.lm);
  addStyleFeatures(f, "window_", windowPool.counts, window.length);
  return f;
}

/**
 * Sentence feature vector: the sentence's own LM features, the same and style features over a window of its
 * neighbours (context), and its length.
 */
export function sentenceFeatures(stats: SentenceStats[], index: number): number[] {
  return sentenceVector(stats, index).values;
}

export function sentenceFeatureNames(lm: LanguageModel): string[] {
  return sentenceVector([sentenceStats("Name the features.", lm)], 0).names;
}
