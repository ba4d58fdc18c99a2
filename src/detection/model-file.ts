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

/**
 * Document classifier: three scores, each standardised on the training texts, combined as two experts, then
 * calibrated.
 * - chatBag: style bag trained on human vs chat-tuned text (the register of today's assistants);
 * - allBag: style bag trained on human vs every generator (older base models too);
 * - trees: boosted trees over the dense features, monotone so that plain writing never raises the score.
 * The chat expert is the chat bag; the base-model expert mixes the all-generator bag and the trees
 * (`baseMix` : 1 - `baseMix`). The score is a soft maximum of the two (log-sum-exp): either expert can raise
 * it, and the all-generator bag's "plain = machine" habit is diluted by the monotone trees.
 */
export interface DocumentClassifier {
  chatBag: StyleBagModel;
  allBag: StyleBagModel;
  trees: BoostedTrees;
  /** Standardisation of the part scores, in the order chatBag, allBag, trees. */
  centers: [number, number, number];
  scales: [number, number, number];
  baseMix: number;
  /** p(ai) = sigmoid(calibrationSlope * blend + calibrationBias). */
  calibrationSlope: number;
  calibrationBias: number;
}

export interface DetectorModel {
  version: string;
  document: DocumentClassifier;
  /** Sentence-level classifier over `sentenceFeatureVectors`. */
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

function isStyleBag(value: unknown): value is StyleBagModel {
  const bag = value as Record<string, unknown> | undefined;
  return (
    typeof bag?.bias === "number" && Array.isArray(bag.weights) && bag.weights.length === STYLE_DIMENSIONS
  );
}

function isTriple(value: unknown): value is [number, number, number] {
  return Array.isArray(value) && value.length === 3 && value.every((v) => typeof v === "number");
}

function isDocumentClassifier(value: unknown): value is DocumentClassifier {
  if (typeof value !== "object" || value === null) return false;
  const m = value as Record<string, unknown>;
  const trees = m.trees as Record<string, unknown> | undefined;
  return (
    isStyleBag(m.chatBag) &&
    isStyleBag(m.allBag) &&
    typeof trees?.baseScore === "number" &&
    Array.isArray(trees.trees) &&
    isTriple(m.centers) &&
    isTriple(m.scales) &&
    typeof m.baseMix === "number" &&
    typeof m.calibrationSlope === "number" &&
    typeof m.calibrationBias === "number"
  );
}

/** Typed weights: faster lookups than a plain array of 65,536 numbers. */
function typedBag(bag: StyleBagModel): StyleBagModel {
  return { bias: bag.bias, weights: Float64Array.from(bag.weights) };
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
    document: { ...document, chatBag: typedBag(document.chatBag), allBag: typedBag(document.allBag) },
    sentence: m.sentence,
    trainedOn: (m.trainedOn as Record<string, unknown>) ?? {},
  };
}

/** The embedded path is `string` at run time; the import attribute changes what the JSON import yields. */
export const DETECTOR_MODEL_PATH = detectorModelPath as unknown as string;

export function readDetectorModel(path: string = DETECTOR_MODEL_PATH): DetectorModel {
  return parseDetectorModel(readFileSync(path, "utf8"));
}
