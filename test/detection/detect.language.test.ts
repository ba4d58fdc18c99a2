import { describe, expect, test } from "bun:test";
import {
  detect,
  SUPPORTED_LANGUAGES,
  UNSCORED_AI_PROBABILITY,
  UnsupportedLanguageError,
} from "../../src/detection/index.ts";
import { HUMAN_ESSAY, NON_ENGLISH } from "./fixtures.ts";

describe("detect: language policy", () => {
  test("only English is scored by the trained model", () => {
    expect(SUPPORTED_LANGUAGES).toEqual(["en"]);
  });

  test("an explicitly requested unsupported language throws UnsupportedLanguageError with the language", () => {
    let error: unknown;
    try {
      detect(HUMAN_ESSAY, { language: "fr" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UnsupportedLanguageError);
    expect((error as UnsupportedLanguageError).language).toBe("fr");
  });

  test("an explicit 'en' is scored as English, even for text detected otherwise", () => {
    const result = detect(NON_ENGLISH, { language: "en" });
    expect(result.language).toBe("en");
  });

  test("auto-detected non-English text is reported as undetermined, never as machine-written", () => {
    const result = detect(NON_ENGLISH);
    expect(result.language).toBe("fr");
    expect(result.ai_probability).toBe(UNSCORED_AI_PROBABILITY);
    expect(result.human_score).toBe(50);
    expect(result.verdict).toBe("mixed");
    for (const s of result.sentences ?? []) expect(s.verdict).toBe("mixed");
    expect(result.word_count).toBeGreaterThan(40);
  });
});
