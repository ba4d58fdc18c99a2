import { describe, expect, test } from "bun:test";
import { normalizeText } from "../../src/text/index.ts";

describe("normalizeText", () => {
  test("folds Cyrillic and Greek look-alikes inside Latin text", () => {
    expect(normalizeText("Тhе quick brоwn fox")).toBe("The quick brown fox");
  });

  test("keeps genuine Cyrillic text", () => {
    expect(normalizeText("Привет, как дела?")).toBe("Привет, как дела?");
  });

  test("removes zero-width characters and soft hyphens", () => {
    expect(normalizeText("in\u200Bvis\u200Cible\u00AD text\uFEFF")).toBe("invisible text");
  });

  test("applies NFKC: full-width letters and ligatures", () => {
    expect(normalizeText("ｔｈｅ ﬁsh")).toBe("the fish");
  });

  test("folds whitespace but keeps paragraph breaks", () => {
    expect(normalizeText("a  \t b\u00A0c\r\n\r\n\r\n\r\nd \n e")).toBe("a b c\n\nd\ne");
  });

  test("unifies typographic quotes and dashes", () => {
    expect(normalizeText("\u201Cit\u2019s\u201D \u2014 ok")).toBe('"it\'s" - ok');
  });
});
