/**
 * The trained detector file (`detector.model.json`, written by scripts/train-detector.ts) and its loading.
 * The file is imported `with { type: "file" }` so that `bun build --compile` embeds it; inside the binary its
 * path is a virtual /$bunfs/ path, which fs reads like any other.
 */
import { readFileSync } from "node:fs";
import type { LogisticModel } from "./classifier.ts";
import detectorModelPath from "./detector.model.json" with { type: "file" };
import { STYLE_DIMENSIONS, type StyleBagModel } from "./style-bag.ts";
import type { BoostedTrees } from "./trees.ts";

/** Document classifier: a style bag and boosted trees, blended, then calibrated. */
export interface DocumentClassifier {
  bag: StyleBagModel;
  trees: BoostedTrees;
  /** Blend: bagWeight * bag / bagScale + (1 - bagWeight) * trees / treeScale. */
  bagWeight: number;
  bagScale: number;
  treeScale: number;
  /** p(ai) = sigmoid(calibrationSlope * blend + calibrationBias). */
  calibrationSlope: number;
  calibrationBias: number;
}

export interface DetectorModel {
  version: string;
  document: DocumentClassifier;
  /** Sentence-level classifier over `sentenceFeatureVector`. */
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

function isDocumentClassifier(value: unknown): value is DocumentClassifier {
  if (typeof value !== "object" || value === null) return false;
  const m = value as Record<string, unknown>;
  const bag = m.bag as Record<string, unknown> | undefined;
  const trees = m.trees as Record<string, unknown> | undefined;
  return (
    typeof bag?.bias === "number" &&
    Array.isArray(bag.weights) &&
    bag.weights.length === STYLE_DIMENSIONS &&
    typeof trees?.baseScore === "number" &&
    Array.isArray(trees.trees) &&
    ["bagWeight", "bagScale", "treeScale", "calibrationSlope", "calibrationBias"].every(
      (k) => typeof m[k] === "number",
    )
  );
}

export function parseDetectorModel(json: string): DetectorModel {
  const parsed: unknown = JSON.parse(json);
  if (typeof parsed !== "object" || parsed === null) throw new Error("detector model: not an object");
  const m = parsed as Record<string, unknown>;
  if (typeof m.version !== "string" || !isDocumentClassifier(m.document) || !isLogisticModel(m.sentence)) {
    throw new Error("detector model: missing version, document or sentence classifier");
  }
  const document = m.document;
  return {
    version: m.version,
    // Typed weights: faster lookups than a plain array of 65,536 numbers.
    document: {
      ...document,
      bag: { bias: document.bag.bias, weights: Float64Array.from(document.bag.weights) },
    },
    sentence: m.sentence,
    trainedOn: (m.trainedOn as Record<string, unknown>) ?? {},
  };
}

/** The embedded path is `string` at run time; the import attribute changes what the JSON import yields. */
export const DETECTOR_MODEL_PATH = detectorModelPath as unknown as string;

export function readDetectorModel(path: string = DETECTOR_MODEL_PATH): DetectorModel {
  return parseDetectorModel(readFileSync(path, "utf8"));
}
