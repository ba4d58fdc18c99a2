/**
 * The "style bag": a linear model over hashed 1- to 3-grams of a text's token *shapes*. The 300 most frequent
 * English words (function words, common verbs and adverbs) are kept as themselves; every other word becomes a
 * shape (capitalised, long, short, number, unknown) and punctuation stays. What remains is syntax and rhythm
 * (how clauses are built and joined), not topic: a text about medicine and one about football map to the same
 * kind of sequence.
 */
import type { LanguageModel } from "./language-model.ts";

/** Words kept as themselves: ranks below this in the English model's vocabulary. */
export const STYLE_TOP_WORDS = 300;
/** Hashed feature space. */
export const STYLE_DIMENSIONS = 1 << 16;

const PUNCTUATION = [",", ".", ";", ":", "!", "?", '"', "(", ")", "-"];
const SHAPE_NUMBER = STYLE_TOP_WORDS;
const SHAPE_CAPITALISED = STYLE_TOP_WORDS + 1;
const SHAPE_UNKNOWN = STYLE_TOP_WORDS + 2;
const SHAPE_LONG = STYLE_TOP_WORDS + 3;
const SHAPE_WORD = STYLE_TOP_WORDS + 4;
const PUNCTUATION_BASE = STYLE_TOP_WORDS + 5;
const LONG_WORD_CHARS = 8;

const STYLE_TOKEN = /[\p{L}\p{N}]+(?:['\-.][\p{L}\p{N}]+)*|[,.;:!?"()-]/gu;

/** Maps normalised sentence text to style token ids. */
export function styleTokenIds(normalizedText: string, lm: LanguageModel): number[] {
  const ids: number[] = [];
  for (const match of normalizedText.matchAll(STYLE_TOKEN)) {
    const token = match[0];
    const punctuation = PUNCTUATION.indexOf(token);
    if (punctuation >= 0) {
      ids.push(PUNCTUATION_BASE + punctuation);
      continue;
    }
    const lower = token.toLowerCase();
    const rank = lm.rank(lower);
    if (rank >= 0 && rank < STYLE_TOP_WORDS) ids.push(rank);
    else if (/\d/.test(token)) ids.push(SHAPE_NUMBER);
    else if (/^\p{Lu}/u.test(token)) ids.push(SHAPE_CAPITALISED);
    else if (rank < 0) ids.push(SHAPE_UNKNOWN);
    else ids.push(lower.length >= LONG_WORD_CHARS ? SHAPE_LONG : SHAPE_WORD);
  }
  return ids;
}

function mix(h: number, v: number): number {
  let x = Math.imul(h ^ (v + 0x9e3779b9), 0x85ebca6b);
  x ^= x >>> 13;
  return Math.imul(x, 0xc2b2ae35) >>> 0;
}

/** Calls `visit` with the hashed index of every 1-, 2- and 3-gram of `ids`. */
function forEachNgram(ids: readonly number[], visit: (index: number) => void): void {
  for (let i = 0; i < ids.length; i++) {
    const c = ids[i] ?? 0;
    visit(mix(1, c) % STYLE_DIMENSIONS);
    if (i >= 1) visit(mix(mix(2, ids[i - 1] ?? 0), c) % STYLE_DIMENSIONS);
    if (i >= 2) visit(mix(mix(mix(3, ids[i - 2] ?? 0), ids[i - 1] ?? 0), c) % STYLE_DIMENSIONS);
  }
}

/** Sparse vector: hashed n-gram index -> sqrt(count / tokens). */
export function styleVector(ids: readonly number[]): Map<number, number> {
  const counts = new Map<number, number>();
  forEachNgram(ids, (index) => {
    counts.set(index, (counts.get(index) ?? 0) + 1);
  });
  const n = Math.max(1, ids.length);
  for (const [k, v] of counts) counts.set(k, Math.sqrt(v / n));
  return counts;
}

export interface StyleBagModel {
  bias: number;
  /** STYLE_DIMENSIONS weights. */
  weights: ArrayLike<number>;
}

export function styleBagLogit(model: StyleBagModel, ids: readonly number[]): number {
  let z = model.bias;
  for (const [k, v] of styleVector(ids)) z += (model.weights[k] ?? 0) * v;
  return z;
}

/**
 * Additive form of the style bag for short spans: the summed weights of a span's n-grams and their number.
 * Sums of neighbouring sentences add up, so a sentence's context window costs no re-hashing.
 */
export function styleWeightSum(model: StyleBagModel, ids: readonly number[]): { sum: number; count: number } {
  let sum = 0;
  let count = 0;
  forEachNgram(ids, (index) => {
    sum += model.weights[index] ?? 0;
    count++;
  });
  return { sum, count };
}
