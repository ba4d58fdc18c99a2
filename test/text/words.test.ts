import { describe, expect, test } from "bun:test";
import { countWords, tokenizeWords } from "../../src/text/index.ts";

describe("countWords", () => {
  test("counts words, keeping contractions, hyphenated words and decimals whole", () => {
    expect(countWords("Hello, world! It's a well-known fact: 3.14 is pi.")).toBe(9);
  });

  test("ignores punctuation-only and empty input", () => {
    expect(countWords("")).toBe(0);
    expect(countWords(" -- ... !!! ")).toBe(0);
  });

  test("invisible characters inside a word neither split it nor add words", () => {
    expect(countWords("hel\u200Blo wor\u00ADld")).toBe(2);
    expect(countWords("one \u200B two")).toBe(2);
  });

  test("counts each CJK character as a word", () => {
    expect(countWords("日本語 abc")).toBe(4);
  });

  test("agrees with tokenizeWords, whose offsets point into the text", () => {
    const text = "Dr. Smith's well-known café sold 3.5 kg of tea, e.g. oolong.";
    const tokens = tokenizeWords(text);
    expect(tokens.length).toBe(countWords(text));
    for (const t of tokens) expect(text.slice(t.start, t.end)).toBe(t.text);
  });

  test("counts 25,000 words", () => {
    expect(countWords("word ".repeat(25_000))).toBe(25_000);
  });
});
