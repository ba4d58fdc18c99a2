import { describe, expect, test } from "bun:test";
import {
  documentVerdict,
  humanScoreFromAiProbability,
  roundProbability,
  sentenceVerdict,
} from "../../src/detection/index.ts";

describe("threshold and rounding rules (spec 2.2)", () => {
  test("document verdict boundaries: human >= 60, mixed 35..59, ai < 35", () => {
    expect(documentVerdict(100)).toBe("human");
    expect(documentVerdict(60)).toBe("human");
    expect(documentVerdict(59)).toBe("mixed");
    expect(documentVerdict(35)).toBe("mixed");
    expect(documentVerdict(34)).toBe("ai");
    expect(documentVerdict(0)).toBe("ai");
  });

  test("sentence verdict boundaries: ai >= 0.65, mixed >= 0.40, else human", () => {
    expect(sentenceVerdict(1)).toBe("ai");
    expect(sentenceVerdict(0.65)).toBe("ai");
    expect(sentenceVerdict(0.649)).toBe("mixed");
    expect(sentenceVerdict(0.4)).toBe("mixed");
    expect(sentenceVerdict(0.399)).toBe("human");
    expect(sentenceVerdict(0)).toBe("human");
  });

  test("probabilities round to three decimals and clamp to 0..1", () => {
    expect(roundProbability(0.12345)).toBe(0.123);
    expect(roundProbability(0.6495)).toBe(0.65);
    expect(roundProbability(-0.2)).toBe(0);
    expect(roundProbability(1.7)).toBe(1);
  });

  test("human_score = round(100 * P(human)) at the verdict boundaries", () => {
    expect(humanScoreFromAiProbability(0.4)).toBe(60);
    expect(humanScoreFromAiProbability(0.405)).toBe(60); // 59.5 rounds up
    expect(humanScoreFromAiProbability(0.406)).toBe(59);
    expect(humanScoreFromAiProbability(0.655)).toBe(35); // 34.5 rounds up
    expect(humanScoreFromAiProbability(0.656)).toBe(34);
    expect(humanScoreFromAiProbability(0)).toBe(100);
    expect(humanScoreFromAiProbability(1)).toBe(0);
  });
});
