/**
 * Sentence splitting with offsets into the ORIGINAL text (the API returns `start`/`end` so clients can
 * highlight sentences). Rule-based: it must survive abbreviations ("Dr.", "e.g."), decimals ("3.14"),
 * initials ("J. R. R. Tolkien"), quotes ('"Stop!" he said.'), bullets and hard line breaks.
 */

export interface SentenceSpan {
  text: string;
  start: number;
  end: number;
}

/** Abbreviations after which a period never ends a sentence (lower case, without the final period). */
const NON_FINAL_ABBREVIATIONS = new Set([
  "mr",
  "mrs",
  "ms",
  "mx",
  "dr",
  "prof",
  "sr",
  "jr",
  "st",
  "mt",
  "ft",
  "gen",
  "col",
  "lt",
  "sgt",
  "capt",
  "cmdr",
  "rev",
  "hon",
  "gov",
  "sen",
  "rep",
  "pres",
  "supt",
  "fig",
  "figs",
  "no",
  "nos",
  "vol",
  "vols",
  "pp",
  "p",
  "ch",
  "chap",
  "sec",
  "art",
  "ed",
  "eds",
  "approx",
  "dept",
  "est",
  "vs",
  "v",
  "cf",
  "e.g",
  "i.e",
  "al",
  "ca",
  "c",
  "jan",
  "feb",
  "apr",
  "jun",
  "jul",
  "aug",
  "sep",
  "sept",
  "oct",
  "nov",
  "dec",
  "op",
  "cit",
  "ibid",
  "viz",
  "resp",
  "incl",
  "min",
  "max",
  "nr",
  "tel",
  "ave",
  "blvd",
  "rd",
]);

/** Words that, after a dotted abbreviation such as "a.m." or "U.S.", show that a new sentence began. */
const SENTENCE_STARTERS = new Set([
  "The",
  "This",
  "That",
  "These",
  "Those",
  "It",
  "He",
  "She",
  "They",
  "We",
  "I",
  "In",
  "On",
  "At",
  "But",
  "And",
  "However",
  "A",
  "An",
  "There",
  "His",
  "Her",
  "Their",
  "Our",
  "My",
  "As",
  "After",
  "When",
  "While",
  "If",
  "So",
  "Then",
  "Its",
  "Some",
  "Many",
  "Most",
  "Yet",
  "Still",
  "Also",
]);

const TERMINALS = new Set([".", "!", "?", "\u2026", "\u203C", "\u2047", "\u2048", "\u2049"]);
/** East Asian full stops end a sentence without a following space. */
const CJK_TERMINALS = new Set(["\u3002", "\uFF01", "\uFF1F", "\uFF61"]);
const CLOSERS = new Set(['"', "'", "\u201D", "\u2019", "\u00BB", "\u203A", ")", "]", "}"]);
const OPENERS = new Set(['"', "'", "\u201C", "\u2018", "\u00AB", "\u2039", "(", "[", "{", "\u201E"]);
const INVISIBLE = /[\u00AD\u200B-\u200D\u2060\uFEFF]/;
/** A list marker at the start of a line: "-", "*", "•", "1.", "2)", "a)", "(iv)" (not "J.", an initial). */
const BULLET =
  /^(?:[-*+\u2022\u2023\u25E6\u2043\u2219\u00B7\u25AA\u25CF\u2013\u2014]|\(?\d{1,3}[.)]|\(?(?:[a-zA-Z]|[ivxlcdm]{1,5})\))[ \t\u00A0]+/;

/** Whitespace or an invisible format character, by code point (hot path: no regular expression). */
function isSpace(ch: string | undefined): boolean {
  if (ch === undefined || ch === "") return false;
  const c = ch.charCodeAt(0);
  if (c === 32 || (c >= 9 && c <= 13)) return true;
  if (c < 128) return false;
  return (
    c === 0x85 ||
    c === 0xa0 ||
    c === 0xad ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200d) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x2060 ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** Characters where a sentence may end: line breaks and terminal punctuation. */
const CANDIDATE = /[\n.!?\u2026\u203C\u2047-\u2049\u3002\uFF01\uFF1F\uFF61]/g;

function isLetterOrDigit(ch: string): boolean {
  return /[\p{L}\p{N}]/u.test(ch);
}

/** Lower-case letters continue a sentence; upper-case, digits and uncased scripts may start one. */
function canStartSentence(ch: string): boolean {
  if (/\p{Ll}/u.test(ch)) return false;
  return /[\p{L}\p{N}]/u.test(ch) || OPENERS.has(ch);
}

/** The run of letters and dots that ends just before `dotIndex` ("Dr", "e.g", "U.S", "3"). */
function tokenBefore(text: string, dotIndex: number): string {
  let i = dotIndex;
  while (i > 0 && /[\p{L}\p{N}.\u00AD\u200B-\u200D\u2060\uFEFF]/u.test(text[i - 1] ?? "")) i--;
  return text.slice(i, dotIndex).replace(/[\u00AD\u200B-\u200D\u2060\uFEFF]/g, "");
}

function wordAt(text: string, index: number): string {
  const match = /^[\p{L}\p{N}'\u2019]+/u.exec(text.slice(index, index + 40));
  return match ? match[0] : "";
}

/** Whether a period at `dotIndex`, followed by whitespace then `nextIndex`, ends the sentence. */
function periodEndsSentence(text: string, dotIndex: number, nextIndex: number): boolean {
  const token = tokenBefore(text, dotIndex);
  if (token === "") return true; // "..." or a period after punctuation
  if (/^\p{L}$/u.test(token)) return false; // an initial: "J. R. R. Tolkien"
  const lower = token.toLowerCase();
  if (NON_FINAL_ABBREVIATIONS.has(lower)) return false;
  if (token.includes(".")) return SENTENCE_STARTERS.has(wordAt(text, nextIndex)); // "U.S.", "a.m."
  return true;
}

/** Whether the line break at `newlineIndex` ends a sentence (paragraph break, list item, finished line). */
function lineBreakSplits(text: string, newlineIndex: number): boolean {
  let j = newlineIndex + 1;
  while (j < text.length && isSpace(text[j])) {
    if (text[j] === "\n") return true; // blank line: paragraph break
    j++;
  }
  if (j >= text.length) return true;
  const rest = text.slice(j, j + 12);
  if (BULLET.test(rest)) return true;
  let k = newlineIndex - 1;
  while (k >= 0 && isSpace(text[k])) k--;
  const before = text[k] ?? "";
  if (TERMINALS.has(before) || CLOSERS.has(before) || before === ":" || CJK_TERMINALS.has(before))
    return true;
  // A hard-wrapped line continues when the next line starts in lower case.
  return !/\p{Ll}/u.test(text[j] ?? "");
}

/** Character offsets where one sentence stops and the next may start. */
function boundaries(text: string): number[] {
  const cuts: number[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    // Jump straight to the next character that could end a sentence.
    CANDIDATE.lastIndex = i;
    const found = CANDIDATE.exec(text);
    if (!found) break;
    i = found.index;
    const ch = text[i] ?? "";
    if (ch === "\n") {
      if (lineBreakSplits(text, i)) cuts.push(i);
      i++;
      continue;
    }
    if (CJK_TERMINALS.has(ch)) {
      let j = i + 1;
      while (j < n && CLOSERS.has(text[j] ?? "")) j++;
      cuts.push(j);
      i = j;
      continue;
    }
    if (!TERMINALS.has(ch)) {
      i++;
      continue;
    }
    // Take the whole run of terminal punctuation ("?!", "...") and any closing quotes or brackets.
    let j = i;
    while (j < n && (TERMINALS.has(text[j] ?? "") || INVISIBLE.test(text[j] ?? ""))) j++;
    while (j < n && CLOSERS.has(text[j] ?? "")) j++;
    if (j >= n) break;
    if (!isSpace(text[j])) {
      i = j; // "3.14", "U.S.", "end.Next": no space, no split
      continue;
    }
    let k = j;
    while (k < n && isSpace(text[k]) && text[k] !== "\n") k++;
    if (k >= n) break;
    if (text[k] === "\n") {
      cuts.push(j);
      i = k;
      continue;
    }
    const next = text[k] ?? "";
    const lastTerminal =
      text[j - 1] === "." || CLOSERS.has(text[j - 1] ?? "") ? lastTerminalBefore(text, j) : "";
    let splits = canStartSentence(next) || BULLET.test(text.slice(k, k + 12));
    if (splits && lastTerminal === "." && text[i] === "." && j - i === 1)
      splits = periodEndsSentence(text, i, k);
    if (splits) cuts.push(j);
    i = k;
  }
  return cuts;
}

function lastTerminalBefore(text: string, end: number): string {
  let j = end - 1;
  while (j >= 0 && CLOSERS.has(text[j] ?? "")) j--;
  return text[j] ?? "";
}

/** Trim a raw segment to its sentence: no surrounding whitespace, no leading list marker. */
function trimSegment(text: string, start: number, end: number): SentenceSpan | null {
  let s = start;
  let e = end;
  while (s < e && isSpace(text[s])) s++;
  const bullet = BULLET.exec(text.slice(s, Math.min(e, s + 12)));
  if (bullet) {
    s += bullet[0].length;
    while (s < e && isSpace(text[s])) s++;
  }
  while (e > s && isSpace(text[e - 1])) e--;
  if (e <= s) return null;
  const slice = text.slice(s, e);
  let hasWord = false;
  for (const ch of slice) {
    if (isLetterOrDigit(ch)) {
      hasWord = true;
      break;
    }
  }
  return hasWord ? { text: slice, start: s, end: e } : null;
}

export function splitSentences(text: string): SentenceSpan[] {
  const spans: SentenceSpan[] = [];
  let start = 0;
  for (const cut of [...boundaries(text), text.length]) {
    if (cut <= start) continue;
    const span = trimSegment(text, start, cut);
    if (span) spans.push(span);
    start = cut;
  }
  return spans;
}
