/**
 * The AI-text detection engine (issue 3). Pure: no HTTP, no database, no clock, no randomness.
 * `detect` backs POST /api/v1/detect and `textscan detect`; `loadDetector` lets the server load the model
 * eagerly at start-up.
 */
export {
  detect,
  loadDetector,
  modelVersion,
  SUPPORTED_LANGUAGES,
  UNSCORED_AI_PROBABILITY,
} from "./engine.ts";
export { UnsupportedLanguageError } from "./errors.ts";
export { MODEL_VERSION } from "./model-version.ts";
export type { DetectionResult, DetectOptions, SentenceResult, Verdict } from "./types.ts";
export {
  documentVerdict,
  HUMAN_SCORE_HUMAN_MIN,
  HUMAN_SCORE_MIXED_MIN,
  humanScoreFromAiProbability,
  roundProbability,
  SENTENCE_AI_MIN,
  SENTENCE_MIXED_MIN,
  sentenceVerdict,
} from "./verdicts.ts";
