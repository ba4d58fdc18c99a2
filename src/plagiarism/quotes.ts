/**
 * Spans of text inside quotation marks, for `exclude_quotes`. Each opening mark has the closing marks of the
 * typographic conventions that use it: "…", “…”, „…“, „…”, ”…”, «…», »…«, »…», ‹…›, ‘…’, ‚…‘, '…', 「…」, 『…』.
 * A quotation that is not closed before the end of its paragraph is not treated as one, so that a stray
 * quotation mark cannot hide the rest of a text.
 */

export interface Span {
  start: number;
  end: number;
}

const CLOSERS: Record<string, string> = {
  '"': '"',
  "\u201C": "\u201D\u201C", // “ closes with ” (English) or “ (a typo-tolerant pair)
  "\u201D": "\u201D", // ” … ” (Swedish, Finnish)
  "\u201E": "\u201C\u201D", // „ … “ (German), „ … ” (Polish, Dutch)
  "\u00AB": "\u00BB", // « … »
  "\u00BB": "\u00AB\u00BB", // » … « (German, Danish), » … » (Finnish)
  "\u2039": "\u203A", // ‹ … ›
  "\u203A": "\u2039\u203A", // › … ‹
  "\u2018": "\u2019", // ‘ … ’
  "\u201A": "\u2018\u2019", // ‚ … ‘ (German), ‚ … ’
  "'": "'",
  "\u300C": "\u300D", // 「 … 」
  "\u300E": "\u300F", // 『 … 』
  "\uFF02": "\uFF02", // full-width "
  "\u301D": "\u301E\u301F", // 〝 … 〞
};

/** Single marks double as apostrophes ("don't", "students’"): they only open/close at a word's edge. */
const APOSTROPHE_LIKE = new Set(["'", "\u2019", "\u2018"]);
const WORD_CHAR = /[\p{L}\p{N}]/u;
const PARAGRAPH_BREAK = /\n[^\S\n]*\n/y;
/** A quotation longer than this (characters) is taken for an unmatched mark. */
const MAX_QUOTE_CHARS = 20_000;

const isWordChar = (ch: string | undefined) => ch !== undefined && WORD_CHAR.test(ch);

function canOpen(text: string, at: number): boolean {
  const mark = text[at] as string;
  if (!APOSTROPHE_LIKE.has(mark)) return true;
  return !isWordChar(text[at - 1]) && isWordChar(text[at + 1]);
}

function canClose(text: string, at: number): boolean {
  const mark = text[at] as string;
  if (!APOSTROPHE_LIKE.has(mark)) return true;
  return !isWordChar(text[at + 1]);
}

function isParagraphBreak(text: string, at: number): boolean {
  PARAGRAPH_BREAK.lastIndex = at;
  return PARAGRAPH_BREAK.test(text);
}

/** The quoted spans of a text, outermost only, each including its marks. */
export function findQuotedSpans(text: string): Span[] {
  const spans: Span[] = [];
  let i = 0;
  while (i < text.length) {
    const closers = CLOSERS[text[i] as string];
    if (closers === undefined || !canOpen(text, i)) {
      i++;
      continue;
    }
    const close = findCloser(text, i, closers);
    if (close < 0) {
      i++;
      continue;
    }
    spans.push({ start: i, end: close + 1 });
    i = close + 1;
  }
  return spans;
}

function findCloser(text: string, open: number, closers: string): number {
  const limit = Math.min(text.length, open + MAX_QUOTE_CHARS);
  for (let j = open + 1; j < limit; j++) {
    const ch = text[j] as string;
    if (ch === "\n" && isParagraphBreak(text, j)) return -1;
    if (closers.includes(ch) && j > open + 1 && canClose(text, j)) return j;
  }
  return -1;
}
