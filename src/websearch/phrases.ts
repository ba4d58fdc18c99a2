import { findQuotedSpans } from "../plagiarism/index.ts";
import { tokenizeWords, type WordToken } from "../text/index.ts";

/**
 * The phrases of a submitted text worth asking a search engine about: one per stretch of the text, so that a
 * copied passage anywhere is likely to be hit, each the run of words most likely to be specific to its source
 * (long, uncommon words rather than "it was one of the"). Pure and deterministic.
 */

export interface Phrase {
  /** The words, separated by single spaces (punctuation dropped: engines ignore it in phrase searches). */
  text: string;
  /** Character offsets in the submitted text. */
  start: number;
  end: number;
}

/** Words per phrase: long enough to be specific, short enough that a lightly edited copy still contains it. */
export const PHRASE_WORDS = 8;
/** A window with fewer content words than this says too little to search for. */
const MIN_CONTENT_WORDS = 4;

/** Common English words, which carry no evidence of a source. */
const STOPWORDS = new Set(
  (
    "a about above after again against all also am an and any are as at be because been before being below " +
    "between both but by can could did do does doing down during each even few for from further had has have " +
    "having he her here hers herself him himself his how however i if in into is it its itself just like many " +
    "may me might more most much must my myself no nor not now of off on once one only or other ought our ours " +
    "ourselves out over own same she should so some such than that the their theirs them themselves then there " +
    "these they this those through thus to too two under until up upon us very was we were what when where " +
    "whether which while who whom whose why will with within without would yet you your yours yourself " +
    "yourselves"
  ).split(" "),
);

/** `folded` is lower case. */
const wordScore = (folded: string): number => {
  if (STOPWORDS.has(folded) || folded.length < 3) return 0;
  // Longer words are rarer; the cap keeps one very long word from carrying a window of filler.
  return Math.min(folded.length, 12) / 4;
};

export function distinctivePhrases(
  text: string,
  options: { count: number; excludeQuotes?: boolean; words?: number },
): Phrase[] {
  const length = options.words ?? PHRASE_WORDS;
  const quoted = options.excludeQuotes === false ? [] : findQuotedSpans(text);
  // Quoted spans come sorted and disjoint: one sweep marks the words inside them.
  const tokens: WordToken[] = [];
  const quoteBefore: boolean[] = []; // a skipped quotation lies between this word and the previous kept one
  let span = 0;
  let skipped = false;
  for (const token of tokenizeWords(text)) {
    while (span < quoted.length && (quoted[span]?.end ?? 0) <= token.start) span++;
    const inside = span < quoted.length && (quoted[span]?.start ?? 0) <= token.start;
    if (inside) {
      skipped = true;
      continue;
    }
    tokens.push(token);
    quoteBefore.push(skipped);
    skipped = false;
  }
  if (tokens.length < length || options.count <= 0) return [];
  const folded = tokens.map((token) => token.text.toLowerCase());
  const scores = folded.map(wordScore);
  // A window may not span a sentence end or a skipped quotation: engines match phrases within one sentence.
  const breaksAfter = tokens.map((token, i) => {
    const next = tokens[i + 1];
    if (!next) return true;
    return quoteBefore[i + 1] === true || /[.!?;:\n]/.test(text.slice(token.end, next.start));
  });
  const segments = Math.min(options.count, Math.floor(tokens.length / length));
  const phrases: Phrase[] = [];
  for (let s = 0; s < segments; s++) {
    const from = Math.floor((s * tokens.length) / segments);
    const to = Math.floor(((s + 1) * tokens.length) / segments);
    let best: { at: number; score: number } | undefined;
    for (let at = from; at + length <= to; at++) {
      let crosses = false;
      for (let i = at; i < at + length - 1; i++) if (breaksAfter[i]) crosses = true;
      if (crosses) continue;
      const seen = new Set<string>();
      let score = 0;
      let content = 0;
      for (let i = at; i < at + length; i++) {
        const word = folded[i] as string;
        const value = scores[i] as number;
        if (value > 0 && !seen.has(word)) {
          seen.add(word);
          score += value;
          content++;
        }
      }
      if (content < MIN_CONTENT_WORDS) continue;
      if (!best || score > best.score) best = { at, score };
    }
    if (!best) continue;
    const window = tokens.slice(best.at, best.at + length);
    phrases.push({
      text: window.map((token) => token.text).join(" "),
      start: window[0]?.start ?? 0,
      end: window[window.length - 1]?.end ?? 0,
    });
  }
  return phrases;
}
