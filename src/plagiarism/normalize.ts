/**
 * Folding of one word into the form two texts are compared in: NFKC (full-width letters, ligatures,
 * mathematical alphanumerics), removal of invisible characters, Latin look-alike letters from Cyrillic and
 * Greek, case folding and accent stripping. Folding works word by word, so every compared unit keeps the exact
 * offsets of the word it came from in the original text (the offset map is the word list itself).
 */

/** Zero-width and other invisible format characters that may be hidden inside words. */
// biome-ignore lint/complexity/useRegexLiterals: as a literal, biome misreads these invisible code points as combining marks.
const INVISIBLE = new RegExp(
  "[\\u00AD\\u034F\\u061C\\u115F\\u1160\\u17B4\\u17B5\\u180B-\\u180E\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u206F\\uFEFF]",
  "g",
);
const COMBINING_MARK = /\p{Mn}/gu;

/**
 * Cyrillic and Greek letters (both cases) drawn like Latin ones. Folded unconditionally: both sides of a
 * comparison are folded alike, so genuine Russian or Greek text still matches itself.
 */
const HOMOGLYPHS: Record<string, string> = {
  "\u0430": "a",
  "\u0410": "a",
  "\u0432": "b",
  "\u0412": "b",
  "\u0441": "c",
  "\u0421": "c",
  "\u0435": "e",
  "\u0415": "e",
  "\u043D": "h",
  "\u041D": "h",
  "\u0456": "i",
  "\u0406": "i",
  "\u0458": "j",
  "\u0408": "j",
  "\u043A": "k",
  "\u041A": "k",
  "\u043C": "m",
  "\u041C": "m",
  "\u043E": "o",
  "\u041E": "o",
  "\u0440": "p",
  "\u0420": "p",
  "\u0455": "s",
  "\u0405": "s",
  "\u0442": "t",
  "\u0422": "t",
  "\u0443": "y",
  "\u0423": "y",
  "\u0445": "x",
  "\u0425": "x",
  "\u04BB": "h",
  "\u04BA": "h",
  "\u0501": "d",
  "\u051B": "q",
  "\u051D": "w",
  "\u04CF": "l",
  "\u0391": "a",
  "\u03B1": "a",
  "\u0392": "b",
  "\u03B2": "b",
  "\u0395": "e",
  "\u03B5": "e",
  "\u0396": "z",
  "\u0397": "h",
  "\u0399": "i",
  "\u03B9": "i",
  "\u039A": "k",
  "\u03BA": "k",
  "\u039C": "m",
  "\u039D": "n",
  "\u03BD": "v",
  "\u039F": "o",
  "\u03BF": "o",
  "\u03A1": "p",
  "\u03C1": "p",
  "\u03A4": "t",
  "\u03C4": "t",
  "\u03A5": "y",
  "\u03C5": "u",
  "\u03A7": "x",
  "\u03C7": "x",
  "\u0261": "g",
  "\u0131": "i",
  "\u0269": "i",
  "\u0251": "a",
  "\u1D00": "a",
};
const HOMOGLYPH_CLASS = new RegExp(`[${Object.keys(HOMOGLYPHS).join("")}]`, "g");

/** Letters that case folding expands (toLowerCase keeps them). */
const FOLD_EXPANSIONS: Record<string, string> = {
  ß: "ss",
  ẞ: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  đ: "d",
  ł: "l",
};
const FOLD_EXPANSION_CLASS = new RegExp(`[${Object.keys(FOLD_EXPANSIONS).join("")}]`, "g");

const PLAIN_ASCII = /^[\x20-\x7E]*$/;

export function foldWord(word: string): string {
  // Fast path: most words of most texts are plain ASCII, which only needs lower-casing.
  if (PLAIN_ASCII.test(word)) return word.toLowerCase();
  let out = word.normalize("NFKC").replace(INVISIBLE, "");
  out = out.replace(HOMOGLYPH_CLASS, (ch) => HOMOGLYPHS[ch] ?? ch).toLowerCase();
  out = out.normalize("NFD").replace(COMBINING_MARK, "").normalize("NFC");
  return out.replace(FOLD_EXPANSION_CLASS, (ch) => FOLD_EXPANSIONS[ch] ?? ch);
}

const TERM_SEPARATOR = /[^\p{L}\p{N}'\u2019]+/u;
const APOSTROPHES = /['\u2019]/g;

/**
 * The compared units ("terms") of one counted word: hyphens and periods split ("well-known" gives "well",
 * "known", as a rewriter may drop the hyphen), apostrophes vanish ("don't" gives "dont").
 */
const PLAIN_ALPHANUMERIC = /^[A-Za-z0-9]+$/;

export function wordTerms(word: string): string[] {
  if (PLAIN_ALPHANUMERIC.test(word)) return [word.toLowerCase()];
  const folded = foldWord(word);
  const terms: string[] = [];
  for (const part of folded.split(TERM_SEPARATOR)) {
    const term = part.replace(APOSTROPHES, "");
    if (term) terms.push(term);
  }
  return terms;
}
