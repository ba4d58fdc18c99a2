/**
 * The detection engine: text in, spec 2.2 result out. Pure and deterministic: no clock, no randomness, no I/O
 * after `loadDetector` (which the first `detect` call runs if the server did not).
 */
import { countWords, detectLanguage, normalizeText, readingEase, splitSentences } from "../text/index.ts";
import {
  analyseDocument,
  type DocumentAnalysis,
  documentLogit,
  sentenceFeatureVectors,
  sentenceLogits,
} from "./analysis.ts";
import { sigmoid } from "./classifier.ts";
import { loadEnglishLanguageModel } from "./english-lm.ts";
import { UnsupportedLanguageError } from "./errors.ts";
import type { LanguageModel } from "./language-model.ts";
import { type DetectorModel, readDetectorModel } from "./model-file.ts";
import { MODEL_VERSION } from "./model-version.ts";
import type { DetectionResult, DetectOptions, SentenceResult } from "./types.ts";
import {
  documentVerdict,
  humanScoreFromAiProbability,
  roundProbability,
  sentenceVerdict,
} from "./verdicts.ts";

/** Languages the trained model scores. */
export const SUPPORTED_LANGUAGES: readonly string[] = ["en"];

/**
 * Probability reported for text in a language the model was not trained on (detected, not requested):
 * an honest "cannot tell" (human_score 50, verdict `mixed`), never a confident verdict either way.
 */
export const UNSCORED_AI_PROBABILITY = 0.5;

interface LoadedDetector {
  model: DetectorModel;
  lm: LanguageModel;
}

let loaded: LoadedDetector | null = null;

/** Loads the embedded model files. Idempotent; the server calls it at start-up to pay the cost once. */
export function loadDetector(): { modelVersion: string } {
  if (!loaded) {
    const model = readDetectorModel();
    if (model.version !== MODEL_VERSION) {
      throw new Error(
        `detector model is ${model.version}, code expects ${MODEL_VERSION}: run scripts/train-detector.ts`,
      );
    }
    loaded = { model, lm: loadEnglishLanguageModel() };
  }
  return { modelVersion: loaded.model.version };
}

function detector(): LoadedDetector {
  if (!loaded) loadDetector();
  return loaded as LoadedDetector;
}

/** The model version of the embedded model (read from the model file). */
export function modelVersion(): string {
  return detector().model.version;
}

/** Which language to score as, and whether the model can score it. */
function resolveLanguage(
  text: string,
  requested: string | undefined,
): { language: string | null; scored: boolean } {
  if (requested !== undefined) {
    const code = requested.trim().toLowerCase();
    if (!SUPPORTED_LANGUAGES.includes(code))
      throw new UnsupportedLanguageError(requested, SUPPORTED_LANGUAGES);
    return { language: code, scored: true };
  }
  const detected = detectLanguage(text);
  // Unsure detection (short or mixed text) is scored as English, the only trained language.
  return { language: detected, scored: detected === null || SUPPORTED_LANGUAGES.includes(detected) };
}

export function detect(text: string, options: DetectOptions = {}): DetectionResult {
  const { model, lm } = detector();
  const normalized = normalizeText(text);
  const { language, scored } = resolveLanguage(normalized, options.language);
  let analysis: DocumentAnalysis | null = null;
  let calibratedLogit = 0;
  let aiProbability = UNSCORED_AI_PROBABILITY;
  if (scored) {
    analysis = analyseDocument(text, lm);
    const { calibrationSlope, calibrationBias } = model.document;
    calibratedLogit = calibrationSlope * documentLogit(model.document, analysis) + calibrationBias;
    aiProbability = sigmoid(calibratedLogit);
  }
  const spans = analysis ? analysis.spans : splitSentences(text);
  const reportedProbability = roundProbability(aiProbability);
  const humanScore = humanScoreFromAiProbability(reportedProbability);

  const result: DetectionResult = {
    human_score: humanScore,
    verdict: documentVerdict(humanScore),
    ai_probability: reportedProbability,
    word_count: countWords(text),
    sentence_count: spans.length,
    readability: readingEase(normalized, spans.length),
    language,
    model_version: model.version,
  };
  if (options.sentences !== false) {
    const logits = analysis
      ? sentenceLogits(model.sentence, sentenceFeatureVectors(analysis, model.document), calibratedLogit)
      : [];
    result.sentences = spans.map((span, i): SentenceResult => {
      const z = logits[i];
      const p = z === undefined ? UNSCORED_AI_PROBABILITY : sigmoid(z);
      const rounded = roundProbability(p);
      return {
        text: span.text,
        ai_probability: rounded,
        verdict: sentenceVerdict(rounded),
        start: span.start,
        end: span.end,
      };
    });
  }
  return result;
}
