import { describe, expect, test } from "bun:test";
import { detect } from "../../src/detection/index.ts";
import { HUMAN_ESSAY } from "./fixtures.ts";

const logit = (p: number) =>
  Math.log(Math.min(0.9995, Math.max(0.0005, p)) / (1 - Math.min(0.9995, Math.max(0.0005, p))));

describe("detect: sentence scores agree with the document score", () => {
  test("the mean sentence logit is the document logit (sentences are deviations around the document)", () => {
    const result = detect(HUMAN_ESSAY);
    const sentences = result.sentences ?? [];
    expect(sentences.length).toBeGreaterThan(2);
    const meanSentenceLogit = sentences.reduce((a, s) => a + logit(s.ai_probability), 0) / sentences.length;
    // Rounding to three decimals moves logits a little; the anchor is exact before rounding.
    expect(Math.abs(meanSentenceLogit - logit(result.ai_probability))).toBeLessThan(0.1);
  });

  test("a text repeated twice keeps its document verdict", () => {
    const once = detect(HUMAN_ESSAY);
    const twice = detect(`${HUMAN_ESSAY}\n\n${HUMAN_ESSAY}`);
    expect(twice.verdict).toBe(once.verdict);
  });
});
