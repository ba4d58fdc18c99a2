import { describe, expect, test } from "bun:test";
import { analyzeText, findPlagiarism } from "../../src/plagiarism/index.ts";
import { countWords } from "../../src/text/index.ts";
import { ALL_SOURCES, BEEKEEPING, spaceWords, UNRELATED } from "./fixtures.ts";
import { memoryIndex } from "./support.ts";

/**
 * Copies disguised with characters that look the same or are invisible: the passage must still be found, and
 * its offsets must slice the disguised copy out of the submitted text exactly (first to last copied word).
 */
const index = memoryIndex(ALL_SOURCES);
const [cello, canal] = UNRELATED as [string, string];
const plain = spaceWords(BEEKEEPING).slice(0, 59).join(" "); // "Keeping bees in ... leave the hive"
const sourceRange = { start: 0, end: plain.length };

function expectFound(disguised: string) {
  const text = `${cello} ${disguised} ${canal}`;
  const result = findPlagiarism(text, index);
  expect(result.sources).toHaveLength(1);
  const match = result.sources[0]?.matches[0];
  if (match === undefined) throw new Error("no match");
  expect(text.slice(match.start, match.end)).toBe(disguised);
  expect(BEEKEEPING.slice(match.source_start, match.source_end)).toBe(plain);
  expect({ start: match.source_start, end: match.source_end }).toEqual(sourceRange);
  expect(result.matched_words).toBe(countWords(disguised));
}

describe("disguised copies", () => {
  test("Cyrillic and Greek look-alike letters", () => {
    const disguised = plain
      .replaceAll("a", "\u0430")
      .replaceAll("o", "\u03BF")
      .replaceAll("e", "\u0435")
      .replaceAll("p", "\u0440")
      .replaceAll("c", "\u0441");
    expect(disguised).not.toBe(plain);
    expectFound(disguised);
  });

  test("zero-width characters inside words", () => {
    const disguised = plain
      .replaceAll("ee", "e\u200Be")
      .replaceAll("on", "o\u200Dn")
      .replaceAll("st", "s\u00ADt");
    expect(disguised).not.toBe(plain);
    expectFound(disguised);
  });

  test("full-width letters and ligatures (NFKC)", () => {
    const disguised = plain
      .replace("Keeping", "\uFF2B\uFF45\uFF45\uFF50\uFF49\uFF4E\uFF47")
      .replaceAll("fi", "\uFB01");
    expectFound(disguised);
  });

  test("words hyphenated at line breaks, also the first and the last word", () => {
    expect(plain.endsWith(" hive")).toBe(true);
    const disguised = `${plain.slice(0, -"hive".length)}hi-\nve`
      .replace("Keeping ", "Keep-\ning ")
      .replace("planning ", "plan-\nning ")
      .replace("newcomers ", "new-\ncomers ")
      .replace("sheltered ", "shel-\r\ntered ");
    expect(disguised).toContain("-\n");
    expectFound(disguised);
  });

  test("all of it at once, with accents", () => {
    const disguised = plain
      .replace("planning ", "pl\u0430n-\nning ")
      .replaceAll("ee", "e\u200Be")
      .replace("garden", "gárden")
      .replace("colony", "c\u03BFl\u043Eny");
    expectFound(disguised);
  });
});

test("a word hyphenated at a line break is one compared term; a dash between words is not joined", () => {
  expect(analyzeText("the plagia-\n  rism of").terms).toEqual(["the", "plagiarism", "of"]);
  expect(analyzeText("well-known facts").terms).toEqual(["well", "known", "facts"]);
  expect(analyzeText("the end -\nNew start").terms).toEqual(["the", "end", "new", "start"]);
});
