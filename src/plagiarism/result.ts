import type { WordToken } from "../text/index.ts";
import type { AlignedPassage } from "./align.ts";
import type { TextAnalysis } from "./analysis.ts";
import type { EngineParams } from "./params.ts";
import { findQuotedSpans } from "./quotes.ts";
import type { IndexedSource, PassageMatch, PlagiarismResult, PlagiarismSource } from "./types.ts";

/**
 * Turns aligned passages into the API's result. Words are the service's counted words; with exclude_quotes the
 * words inside quotation marks are not counted, so they neither match nor weigh in the similarity. A word inside
 * several passages or sources is credited once in the totals.
 */

export interface SourceAlignment {
  source: IndexedSource;
  analysis: TextAnalysis;
  passages: AlignedPassage[];
}

/** Inclusive word ranges of the submitted text. */
interface WordRange {
  first: number;
  last: number;
}

const roundOne = (x: number) => Math.round(x * 10) / 10;

/** countedBefore[i] = counted words among words [0, i). */
function countedPrefix(query: TextAnalysis, excludeQuotes: boolean): Int32Array {
  const words = query.words;
  const prefix = new Int32Array(words.length + 1);
  const spans = excludeQuotes ? findQuotedSpans(query.text) : [];
  let s = 0;
  for (let w = 0; w < words.length; w++) {
    const word = words[w] as WordToken;
    while (s < spans.length && (spans[s]?.end ?? 0) <= word.start) s++;
    const span = spans[s];
    const quoted = span !== undefined && span.start <= word.start && word.end <= span.end;
    prefix[w + 1] = (prefix[w] as number) + (quoted ? 0 : 1);
  }
  return prefix;
}

function countedIn(prefix: Int32Array, range: WordRange): number {
  return (prefix[range.last + 1] as number) - (prefix[range.first] as number);
}

/** Counted words in the union of word ranges. */
function countedInUnion(prefix: Int32Array, ranges: WordRange[]): number {
  const sorted = [...ranges].sort((a, b) => a.first - b.first);
  let total = 0;
  let current: WordRange | undefined;
  for (const range of sorted) {
    if (current !== undefined && range.first <= current.last + 1) {
      current.last = Math.max(current.last, range.last);
      continue;
    }
    if (current !== undefined) total += countedIn(prefix, current);
    current = { ...range };
  }
  if (current !== undefined) total += countedIn(prefix, current);
  return total;
}

function excerptOf(text: string, match: PassageMatch, maxChars: number): string {
  const passage = text.slice(match.source_start, match.source_end);
  if (passage.length <= maxChars) return passage;
  const cut = passage.lastIndexOf(" ", maxChars);
  return `${passage.slice(0, cut > maxChars / 2 ? cut : maxChars).trimEnd()}…`;
}

export function buildResult(
  query: TextAnalysis,
  alignments: SourceAlignment[],
  excludeQuotes: boolean,
  params: EngineParams,
): PlagiarismResult {
  const prefix = countedPrefix(query, excludeQuotes);
  const countedWords = prefix[query.words.length] as number;
  const allRanges: WordRange[] = [];
  const sources: PlagiarismSource[] = [];

  for (const { source, analysis, passages } of alignments) {
    const ranges: WordRange[] = [];
    const matches: PassageMatch[] = [];
    for (const passage of passages) {
      const range = {
        first: query.termFirstWord[passage.start] as number,
        last: query.termLastWord[passage.end - 1] as number,
      };
      const matchedWords = countedIn(prefix, range);
      if (matchedWords < params.minPassageWords) continue;
      const sourceFirst = analysis.words[analysis.termFirstWord[passage.sourceStart] as number] as WordToken;
      const sourceLast = analysis.words[analysis.termLastWord[passage.sourceEnd - 1] as number] as WordToken;
      ranges.push(range);
      matches.push({
        start: (query.words[range.first] as WordToken).start,
        end: (query.words[range.last] as WordToken).end,
        source_start: sourceFirst.start,
        source_end: sourceLast.end,
        matched_words: matchedWords,
      });
    }
    if (matches.length === 0) continue;
    const matchedWords = countedInUnion(prefix, ranges);
    allRanges.push(...ranges);
    const longest = matches.reduce((a, b) => (b.matched_words > a.matched_words ? b : a));
    sources.push({
      type: source.type,
      url: source.type === "web" ? source.url : null,
      title: source.title,
      ...(source.type === "document" ? { document_id: source.id } : {}),
      matched_words: matchedWords,
      percent: countedWords === 0 ? 0 : roundOne((matchedWords / countedWords) * 100),
      excerpt: excerptOf(source.text, longest, params.maxExcerptChars),
      matches: matches.sort((a, b) => a.start - b.start),
    });
  }

  sources.sort(
    (a, b) =>
      b.matched_words - a.matched_words ||
      (a.document_id ?? a.url ?? "").localeCompare(b.document_id ?? b.url ?? ""),
  );
  const matchedWords = countedInUnion(prefix, allRanges);
  return {
    similarity: countedWords === 0 ? 0 : roundOne((matchedWords / countedWords) * 100),
    word_count: query.words.length,
    matched_words: matchedWords,
    sources,
  };
}
