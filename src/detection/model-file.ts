/**
 * The trained detector file (`detector.model.json`, written by scripts/train-detector.ts) and its loading.
 * The file is imported `with { type: "file" }` so that `bun build --compile` embeds it; inside the binary its
 * path is a virtual /$bunfs/ path, which fs reads like any other.
 */
import { readFileSync } from "node:fs";
import type { LogisticModel } from "./classifier.ts";
import detectorModelPath from "./detector.model.json" with { type: "file" };

export interface DetectorModel {
  version: string;
  /** Document-level classifier over `documentFeatures`. */
  document: LogisticModel;
  /** Sentence-level classifier over `sentenceFeatures` plus the document logit as its last feature. */
  sentence: LogisticModel;
  /** Provenance: data, seed, and evaluation summary at training time. */
  trainedOn: Record<string, unknown>;
}

function isLogisticModel(value: unknown): value is LogisticModel {
  if (typeof value !== "object" || value === null) return false;
  const m = value as Record<string, unknown>;
  return (
    Array.isArray(m.weights) &&
    Array.isArray(m.mean) &&
    Array.isArray(m.scale) &&
    typeof m.bias === "number" &&
    typeof m.calibrationSlope === "number" &&
    typeof m.calibrationBias === "number" &&
    m.weights.length === m.mean.length &&
    m.weights.length === m.scale.length
  );
}

export function parseDetectorModel(json: string): DetectorModel {
  const parsed: unknown = JSON.parse(json);
  if (typeof parsed !== "object" || parsed === null) throw new Error("detector model: not an object");
  const m = parsed as Record<string, unknown>;
  if (typeof m.version !== "string" || !isLogisticModel(m.document) || !isLogisticModel(m.sentence)) {
    throw new Error("detector model: missing version, document or sentence classifier");
  }
  return {
    version: m.version,
    document: m.document,
    sentence: m.sentence,
    trainedOn: (m.trainedOn as Record<string, unknown>) ?? {},
  };
}

/** The embedded path is `string` at run time; the import attribute changes what the JSON import yields. */
export const DETECTOR_MODEL_PATH = detectorModelPath as unknown as string;

export function readDetectorModel(path: string = DETECTOR_MODEL_PATH): DetectorModel {
  return parseDetectorModel(readFileSync(path, "utf8"));
}
