import { tokenizeWords, type WordToken } from "../text/index.ts";
import { wordTerms } from "./normalize.ts";

/**
 * A text cut into counted words (the service's one word counter, so `words.length === countWords(text)`) and
 * into the folded terms that are compared. Each term remembers the first and last word it came from, so a
 * passage of terms maps back to exact character offsets of the original text.
 */
export interface TextAnalysis {
  text: string;
  words: WordToken[];
  terms: string[];
  /** Word index where each term starts. */
  termFirstWord: Int32Array;
  /** Word index where each term ends (differs from the first only for a word split by a line-break hyphen). */
  termLastWord: Int32Array;
}

/** "exam-" + line break + "ple": a word hyphenated at the end of a line, to be joined back into one term. */
const LINE_BREAK_HYPHEN = /^[-\u2010\u00AD][^\S\n]*\r?\n[^\S\n]*$/;
const ENDS_WITH_LETTER = /\p{L}$/u;
const STARTS_WITH_LOWERCASE = /^\p{Ll}/u;

export function analyzeText(text: string): TextAnalysis {
  const words = tokenizeWords(text);
  const terms: string[] = [];
  const first: number[] = [];
  const last: number[] = [];
  for (let w = 0; w < words.length; w++) {
    const word = words[w] as WordToken;
    const wordTermList = wordTerms(word.text);
    if (wordTermList.length === 0) continue;
    let startAt = 0;
    if (last[last.length - 1] === w - 1 && joinsPrevious(text, words, w)) {
      // Glue this word's first term onto the previous term ("exam" + "ple"), spanning both words.
      const lastIndex = terms.length - 1;
      terms[lastIndex] = `${terms[lastIndex]}${wordTermList[0]}`;
      last[lastIndex] = w;
      startAt = 1;
    }
    for (let t = startAt; t < wordTermList.length; t++) {
      terms.push(wordTermList[t] as string);
      first.push(w);
      last.push(w);
    }
  }
  return {
    text,
    words,
    terms,
    termFirstWord: Int32Array.from(first),
    termLastWord: Int32Array.from(last),
  };
}

function joinsPrevious(text: string, words: WordToken[], w: number): boolean {
  if (w === 0) return false;
  const previous = words[w - 1] as WordToken;
  const current = words[w] as WordToken;
  const between = text.slice(previous.end, current.start);
  return (
    LINE_BREAK_HYPHEN.test(between) &&
    ENDS_WITH_LETTER.test(previous.text) &&
    STARTS_WITH_LOWERCASE.test(current.text)
  );
}
