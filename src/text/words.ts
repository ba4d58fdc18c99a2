/**
 * Word counting and word tokenising. `countWords` is THE counter for request limits (40..25,000 words) and
 * billing (1 credit per word), and the detection result's `word_count`: every caller must use it.
 *
 * A word is a run of letters, digits and combining marks, optionally joined by one apostrophe, hyphen or
 * period between alphanumerics ("don't", "well-known", "3.14", "e.g"). Invisible characters (zero-width
 * spaces/joiners, soft hyphens) count as part of the word they sit in, so hiding them inside words neither
 * inflates the bill nor splits words. Each Han, Hiragana or Katakana character counts as one word, as word
 * processors count East Asian text (those scripts do not separate words with spaces).
 */

const INVISIBLE = "\\u00AD\\u180E\\u200B-\\u200D\\u2060\\uFEFF";
const CJK = "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}";
const ALNUM = `[[\\p{L}\\p{N}]--[${CJK}]]`;
const WORD_BODY = `(?:${ALNUM}|[\\p{M}${INVISIBLE}])`;
const JOINER = "['\u2019\\-.]";

/** One CJK character, or an alphanumeric run with internal joiners. */
const WORD_PATTERN = new RegExp(`[${CJK}]|${ALNUM}${WORD_BODY}*(?:${JOINER}${ALNUM}${WORD_BODY}*)*`, "gv");

export function countWords(text: string): number {
  WORD_PATTERN.lastIndex = 0;
  let count = 0;
  while (WORD_PATTERN.exec(text) !== null) count++;
  return count;
}

export interface WordToken {
  /** The word as written (may contain invisible characters; callers normalise as they need). */
  text: string;
  start: number;
  end: number;
}

/** The words counted by `countWords`, with their offsets. `tokenizeWords(t).length === countWords(t)`. */
export function tokenizeWords(text: string): WordToken[] {
  const tokens: WordToken[] = [];
  WORD_PATTERN.lastIndex = 0;
  for (let m = WORD_PATTERN.exec(text); m !== null; m = WORD_PATTERN.exec(text)) {
    tokens.push({ text: m[0], start: m.index, end: m.index + m[0].length });
  }
  return tokens;
}
