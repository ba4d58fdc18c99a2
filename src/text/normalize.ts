/**
 * Unicode normalisation so that typographic tricks do not move a detection score: NFKC (full-width letters,
 * ligatures, compatibility forms), removal of invisible characters, folding of Cyrillic/Greek letters that look
 * like Latin ones when they sit inside Latin text, unified quotes/dashes, and whitespace folding.
 */

/** Zero-width and other invisible format characters (ZWSP, ZWNJ, ZWJ, word joiner, BOM, soft hyphen, ...). */
// biome-ignore lint/complexity/useRegexLiterals: as a literal, biome misreads these invisible code points as combining marks.
const INVISIBLE = new RegExp(
  "[\\u00AD\\u034F\\u061C\\u115F\\u1160\\u17B4\\u17B5\\u180B-\\u180E\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u206F\\uFEFF]",
  "g",
);

/** Cyrillic and Greek letters whose glyphs are indistinguishable from Latin ones. */
const HOMOGLYPHS: Record<string, string> = {
  "\u0430": "a",
  "\u0410": "A",
  "\u0432": "b",
  "\u0412": "B",
  "\u0441": "c",
  "\u0421": "C",
  "\u0435": "e",
  "\u0415": "E",
  "\u041D": "H",
  "\u0456": "i",
  "\u0406": "I",
  "\u0458": "j",
  "\u0408": "J",
  "\u043A": "k",
  "\u041A": "K",
  "\u041C": "M",
  "\u043E": "o",
  "\u041E": "O",
  "\u0440": "p",
  "\u0420": "P",
  "\u0455": "s",
  "\u0405": "S",
  "\u0422": "T",
  "\u0443": "y",
  "\u0423": "Y",
  "\u0445": "x",
  "\u0425": "X",
  "\u04BB": "h",
  "\u0501": "d",
  "\u051B": "q",
  "\u051D": "w",
  "\u0391": "A",
  "\u0392": "B",
  "\u0395": "E",
  "\u0396": "Z",
  "\u0397": "H",
  "\u0399": "I",
  "\u039A": "K",
  "\u039C": "M",
  "\u039D": "N",
  "\u039F": "O",
  "\u03A1": "P",
  "\u03A4": "T",
  "\u03A5": "Y",
  "\u03A7": "X",
  "\u03BF": "o",
  "\u03B9": "i",
  "\u03BD": "v",
  "\u03C1": "p",
  "\u0261": "g",
  "\u0131": "i",
  "\u0269": "i",
  "\u1D00": "A",
};
const HOMOGLYPH_CLASS = new RegExp(`[${Object.keys(HOMOGLYPHS).join("")}]`, "g");
const LATIN_LETTER = /\p{Script=Latin}/u;
const WORD_WITH_HOMOGLYPH = new RegExp(
  `[\\p{L}\\p{M}]*[${Object.keys(HOMOGLYPHS).join("")}][\\p{L}\\p{M}]*`,
  "gu",
);

const PUNCTUATION_FOLDS: Array<[RegExp, string]> = [
  [/[\u2018\u2019\u201A\u201B\u2032\u02BC]/g, "'"],
  [/[\u201C\u201D\u201E\u201F\u2033\u00AB\u00BB]/g, '"'],
  [/[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]/g, "-"],
];

/** Horizontal whitespace runs (including no-break and ideographic spaces that NFKC leaves or makes). */
const HORIZONTAL_SPACE = /[^\S\n]+/g;

/**
 * Latin-looking Cyrillic/Greek letters are folded inside any word that also holds a Latin letter, and in every
 * word when the text is mostly Latin script; genuine Russian or Greek text keeps its letters.
 */
function foldHomoglyphs(text: string): string {
  if (!HOMOGLYPH_CLASS.test(text)) return text;
  HOMOGLYPH_CLASS.lastIndex = 0;
  const mostlyLatin = latinShare(text) > 0.5;
  return text.replace(WORD_WITH_HOMOGLYPH, (word) =>
    mostlyLatin || LATIN_LETTER.test(word)
      ? word.replace(HOMOGLYPH_CLASS, (ch) => HOMOGLYPHS[ch] ?? ch)
      : word,
  );
}

function latinShare(text: string): number {
  let latin = 0;
  let letters = 0;
  for (const ch of text) {
    if (/\p{L}/u.test(ch)) {
      letters++;
      if (LATIN_LETTER.test(ch)) latin++;
    }
  }
  return letters === 0 ? 0 : latin / letters;
}

export function normalizeText(text: string): string {
  let out = text.normalize("NFKC").replace(INVISIBLE, "");
  out = foldHomoglyphs(out);
  for (const [pattern, replacement] of PUNCTUATION_FOLDS) out = out.replace(pattern, replacement);
  return out
    .replace(/\r\n?/g, "\n")
    .replace(HORIZONTAL_SPACE, " ")
    .replace(/ ?\n ?/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
