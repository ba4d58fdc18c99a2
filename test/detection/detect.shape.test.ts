import { describe, expect, test } from "bun:test";
import {
  type DetectionResult,
  detect,
  documentVerdict,
  humanScoreFromAiProbability,
  loadDetector,
  MODEL_VERSION,
  sentenceVerdict,
} from "../../src/detection/index.ts";
import { countWords, splitSentences } from "../../src/text/index.ts";
import { HUMAN_ESSAY } from "./fixtures.ts";

function decimals(x: number): number {
  const s = String(x);
  return s.includes(".") ? (s.split(".")[1] ?? "").length : 0;
}

function expectConforms(result: DetectionResult, text: string): void {
  expect(Number.isInteger(result.human_score)).toBe(true);
  expect(result.human_score).toBeGreaterThanOrEqual(0);
  expect(result.human_score).toBeLessThanOrEqual(100);
  expect(result.verdict).toBe(documentVerdict(result.human_score));
  expect(result.ai_probability).toBeGreaterThanOrEqual(0);
  expect(result.ai_probability).toBeLessThanOrEqual(1);
  expect(decimals(result.ai_probability)).toBeLessThanOrEqual(3);
  expect(result.human_score).toBe(humanScoreFromAiProbability(result.ai_probability));
  expect(result.word_count).toBe(countWords(text));
  expect(result.sentence_count).toBe(splitSentences(text).length);
  expect(Number.isInteger(result.readability)).toBe(true);
  expect(result.readability).toBeGreaterThanOrEqual(0);
  expect(result.readability).toBeLessThanOrEqual(100);
  expect(result.model_version).toBe(MODEL_VERSION);
  for (const s of result.sentences ?? []) {
    expect(text.slice(s.start, s.end)).toBe(s.text);
    expect(s.ai_probability).toBeGreaterThanOrEqual(0);
    expect(s.ai_probability).toBeLessThanOrEqual(1);
    expect(decimals(s.ai_probability)).toBeLessThanOrEqual(3);
    expect(s.verdict).toBe(sentenceVerdict(s.ai_probability));
  }
}

describe("detect: result shape (spec 2.2 plus ai_probability, model_version, offsets)", () => {
  test("loadDetector loads the embedded model and reports its version", () => {
    expect(loadDetector().modelVersion).toBe(MODEL_VERSION);
  });

  test("every field follows its rule", () => {
    const result = detect(HUMAN_ESSAY);
    expectConforms(result, HUMAN_ESSAY);
    expect(result.language).toBe("en");
    expect(result.sentences?.length).toBe(result.sentence_count);
    expect(Object.keys(result).sort()).toEqual(
      [
        "ai_probability",
        "human_score",
        "language",
        "model_version",
        "readability",
        "sentence_count",
        "sentences",
        "verdict",
        "word_count",
      ].sort(),
    );
    expect(Object.keys(result.sentences?.[0] ?? {}).sort()).toEqual(
      ["ai_probability", "end", "start", "text", "verdict"].sort(),
    );
  });

  test("sentences: false omits the sentences field and changes nothing else", () => {
    const withSentences = detect(HUMAN_ESSAY);
    const without = detect(HUMAN_ESSAY, { sentences: false });
    expect("sentences" in without).toBe(false);
    const { sentences: _, ...rest } = withSentences;
    expect(without).toEqual(rest);
  });

  test("is deterministic", () => {
    const first = JSON.stringify(detect(HUMAN_ESSAY));
    for (let i = 0; i < 5; i++) expect(JSON.stringify(detect(HUMAN_ESSAY))).toBe(first);
  });

  test("offsets survive leading whitespace, bullets and CRLF line breaks", () => {
    const text = `\r\n  Intro line here.\r\n- ${HUMAN_ESSAY.slice(0, 200)}\r\n\r\n* Final point stands alone.`;
    expectConforms(detect(text), text);
  });

  test("scores a 25,000-word input", () => {
    const text = `${HUMAN_ESSAY} `.repeat(Math.ceil(25_000 / countWords(HUMAN_ESSAY))).trim();
    const result = detect(text);
    expect(result.word_count).toBeGreaterThanOrEqual(25_000);
    expectConforms(result, text);
  });
});
