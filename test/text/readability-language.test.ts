import { describe, expect, test } from "bun:test";
import { countSyllables, detectLanguage, readingEase } from "../../src/text/index.ts";

describe("readingEase", () => {
  test("is an integer from 0 to 100, higher for simpler text", () => {
    const easy = readingEase("The cat sat on the mat. It was fun. We ran home.");
    const hard = readingEase(
      "Notwithstanding considerable methodological heterogeneity, epidemiological investigations consistently " +
        "demonstrate statistically significant associations between socioeconomic deprivation and cardiovascular morbidity.",
    );
    for (const s of [easy, hard]) {
      expect(Number.isInteger(s)).toBe(true);
      expect(s).toBeGreaterThanOrEqual(0);
      expect(s).toBeLessThanOrEqual(100);
    }
    expect(easy).toBeGreaterThan(hard);
  });

  test("is 0 for text without words", () => {
    expect(readingEase("... !!!")).toBe(0);
  });

  test("estimates syllables", () => {
    expect(countSyllables("cat")).toBe(1);
    expect(countSyllables("table")).toBe(2);
    expect(countSyllables("beautiful")).toBe(3);
  });
});

describe("detectLanguage", () => {
  test("answers ISO 639-1 codes", () => {
    expect(
      detectLanguage("The committee met on Tuesday to review the budget and discuss the new library wing."),
    ).toBe("en");
    expect(
      detectLanguage("Le comité s'est réuni mardi pour examiner le budget et discuter de la nouvelle aile."),
    ).toBe("fr");
    expect(
      detectLanguage(
        "Der Ausschuss traf sich am Dienstag, um den Haushalt zu prüfen und den Neubau zu besprechen.",
      ),
    ).toBe("de");
  });

  test("is null when unsure", () => {
    expect(detectLanguage("ok")).toBeNull();
    expect(detectLanguage("12345 67890 !!!")).toBeNull();
  });
});
