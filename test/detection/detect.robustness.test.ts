import { describe, expect, test } from "bun:test";
import { detect } from "../../src/detection/index.ts";
import { countWords } from "../../src/text/index.ts";
import { HUMAN_ESSAY } from "./fixtures.ts";

/** Replaces Latin letters with look-alike Cyrillic ones, as people do to dodge detectors. */
function withHomoglyphs(text: string): string {
  const swap: Record<string, string> = { a: "\u0430", e: "\u0435", o: "\u043E", p: "\u0440", c: "\u0441" };
  return text.replace(/[aeopc]/g, (ch) => swap[ch] ?? ch);
}

function withZeroWidth(text: string): string {
  return text.replace(/(\w)(\w)/g, "$1\u200B$2");
}

function withOddSpacing(text: string): string {
  return text.replace(/ /g, "  ").replace(/\. /g, ".\u00A0 ");
}

describe("detect: normalisation tricks do not move the score", () => {
  const original = detect(HUMAN_ESSAY);

  for (const [name, transform] of [
    ["homoglyphs", withHomoglyphs],
    ["zero-width characters", withZeroWidth],
    ["spacing", withOddSpacing],
  ] as const) {
    test(`${name}: same verdict, same probability, same sentences`, () => {
      const tricked = transform(HUMAN_ESSAY);
      expect(tricked).not.toBe(HUMAN_ESSAY);
      const result = detect(tricked);
      expect(result.verdict).toBe(original.verdict);
      expect(result.ai_probability).toBeCloseTo(original.ai_probability, 2);
      expect(result.sentence_count).toBe(original.sentence_count);
      expect(result.word_count).toBe(countWords(tricked));
      expect(result.language).toBe("en");
    });
  }
});

describe("detect: awkward input", () => {
  test("empty and word-less text give a valid, unscored-looking result instead of throwing", () => {
    for (const text of ["", "   ", "... !!! ---"]) {
      const result = detect(text);
      expect(result.word_count).toBe(0);
      expect(result.sentence_count).toBe(0);
      expect(result.sentences).toEqual([]);
      expect(result.ai_probability).toBeGreaterThanOrEqual(0);
      expect(result.ai_probability).toBeLessThanOrEqual(1);
    }
  });

  test("a single sentence is scored", () => {
    const result = detect("The committee met on Tuesday to review the budget for the new library wing.");
    expect(result.sentence_count).toBe(1);
    expect(result.sentences?.length).toBe(1);
  });

  test("text without sentence punctuation is one sentence per line", () => {
    const text = "first line of notes\nSecond line of notes\nThird line";
    expect(detect(text).sentence_count).toBe(3);
  });
});
