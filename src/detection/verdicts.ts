/**
 * The spec's rounding and threshold rules (spec 2.2), as pure functions so their boundaries can be tested.
 */
import type { Verdict } from "./types.ts";

/** Document verdict thresholds on `human_score` (spec 2.2). */
export const HUMAN_SCORE_HUMAN_MIN = 60;
export const HUMAN_SCORE_MIXED_MIN = 35;
/** Sentence verdict thresholds on `ai_probability` (spec 2.2). */
export const SENTENCE_AI_MIN = 0.65;
export const SENTENCE_MIXED_MIN = 0.4;

/** Probabilities are reported with three decimals; input is clamped to 0..1 first. */
export function roundProbability(p: number): number {
  if (!Number.isFinite(p)) return 0.5;
  const clamped = Math.min(1, Math.max(0, p));
  return Math.round(clamped * 1000) / 1000;
}

/** `human_score = round(100 * P(human))`, an integer 0..100. */
export function humanScoreFromAiProbability(aiProbability: number): number {
  // Work in thousandths so that 0.655 gives 34.5 -> 35 exactly, not 34.4999... -> 34.
  const aiThousandths = Math.round(roundProbability(aiProbability) * 1000);
  return Math.round((1000 - aiThousandths) / 10);
}

export function documentVerdict(humanScore: number): Verdict {
  if (humanScore >= HUMAN_SCORE_HUMAN_MIN) return "human";
  if (humanScore >= HUMAN_SCORE_MIXED_MIN) return "mixed";
  return "ai";
}

export function sentenceVerdict(aiProbability: number): Verdict {
  if (aiProbability >= SENTENCE_AI_MIN) return "ai";
  if (aiProbability >= SENTENCE_MIXED_MIN) return "mixed";
  return "human";
}
