/**
 * Word counting and word tokenising. `countWords` is THE counter for request limits (40..25,000 words) and
 * billing (1 credit per word), and the detection result's `word_count`: every caller must use it.
 *
 * A word is a run of letters, digits and combining marks, optionally joined by one apostrophe, hyphen or
 * period between alphanumerics ("don't", "well-known", "3.14", "e.g"). Invisible characters (zero-width
 * spaces/joiners, soft hyphens) count as part of the word they sit in, so hiding them inside words neither
 * inflates the bill nor splits words. Each Han, Hiragana or Katakana character counts as one word, as word
 * processors count East Asian text (those scripts do not separate words with spaces).
 *
 * A joined run of more than MAX_JOINED_PARTS parts ("a-b-c-d-...", "x.y.z.w...") counts, and is tokenised, as
 * its parts: the engines analyse every part, so the limit and the bill count them too (a run of 25 words joined
 * by hyphens is 25 words, not one). Compounds of up to three parts ("well-known", "mother-in-law", "e.g.",
 * "3.14") stay one word, as people and word processors count them.
 */

const INVISIBLE = "\\u00AD\\u180E\\u200B-\\u200D\\u2060\\uFEFF";
const CJK = "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}";
const ALNUM = `[[\\p{L}\\p{N}]--[${CJK}]]`;
const WORD_BODY = `(?:${ALNUM}|[\\p{M}${INVISIBLE}])`;
const JOINER = "['\u2019\\-.]";

/** One CJK character, or an alphanumeric run with internal joiners. */
const WORD_PATTERN = new RegExp(`[${CJK}]|${ALNUM}${WORD_BODY}*(?:${JOINER}${ALNUM}${WORD_BODY}*)*`, "gv");

export const MAX_JOINED_PARTS = 3;
const JOINER_CHAR = /['\u2019\-.]/g;

/** How many joiners (apostrophe, hyphen, period) a matched word holds. */
function joinersIn(word: string): number {
  JOINER_CHAR.lastIndex = 0;
  let n = 0;
  while (JOINER_CHAR.exec(word) !== null) n++;
  return n;
}

export function countWords(text: string): number {
  WORD_PATTERN.lastIndex = 0;
  let count = 0;
  for (let m = WORD_PATTERN.exec(text); m !== null; m = WORD_PATTERN.exec(text)) {
    const parts = joinersIn(m[0]) + 1;
    count += parts > MAX_JOINED_PARTS ? parts : 1;
  }
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
    const word = m[0];
    if (joinersIn(word) + 1 <= MAX_JOINED_PARTS) {
      tokens.push({ text: word, start: m.index, end: m.index + word.length });
      continue;
    }
    // A long joined run: each part is a word of its own (the joiners belong to none).
    let partStart = 0;
    JOINER_CHAR.lastIndex = 0;
    for (let j = JOINER_CHAR.exec(word); ; j = JOINER_CHAR.exec(word)) {
      const partEnd = j === null ? word.length : j.index;
      tokens.push({
        text: word.slice(partStart, partEnd),
        start: m.index + partStart,
        end: m.index + partEnd,
      });
      if (j === null) break;
      partStart = partEnd + 1;
    }
  }
  return tokens;
}
