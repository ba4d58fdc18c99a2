/**
 * The training recipe shared by train-detector.ts and eval-detector.ts: document classifier (style bag + boosted
 * trees, blended), conservative calibration, and the sentence model.
 */
import {
  blendLogits,
  type DocumentAnalysis,
  documentPartLogits,
  SENTENCE_EXTRA_FEATURES,
  sentenceFeatureVectors,
} from "../src/detection/analysis.ts";
import { type LogisticModel, logit, sigmoid } from "../src/detection/classifier.ts";
import { sentenceFeatureNames } from "../src/detection/features.ts";
import type { LanguageModel } from "../src/detection/language-model.ts";
import type { DocumentClassifier } from "../src/detection/model-file.ts";
import { DEFAULT_BOOSTING, fitBoostedTrees } from "./detector-boosting.ts";
import { balancedWeights, type FeaturisedDocument, sentenceLabel } from "./detector-dataset.ts";
import { fitLogistic, fitPlatt, foldOf } from "./detector-logistic.ts";
import { fitStyleBag, type SparseVector, sparseStyleVector } from "./detector-style-bag.ts";

export const FOLDS = 5;
/** Weight of the style bag in the blend (chosen by grouped cross-validation; see docs/detection.md). */
export const BAG_WEIGHT = 0.6;
/** Share of human documents allowed to reach the `ai` verdict where calibration is fitted. */
export const TARGET_HUMAN_FPR = 0.004;
/** The `ai` verdict on the document probability: human_score < 35 <=> p(ai) >= 0.655. */
export const DOCUMENT_AI_PROBABILITY = 0.655;
const SENTENCE_L2 = 1e-3;

const vectorCache = new WeakMap<DocumentAnalysis, SparseVector>();
export function styleVectorOf(analysis: DocumentAnalysis): SparseVector {
  let v = vectorCache.get(analysis);
  if (!v) {
    v = sparseStyleVector(analysis.styleIds);
    vectorCache.set(analysis, v);
  }
  return v;
}

function std(values: number[]): number {
  const mean = values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  return Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, values.length)) || 1;
}

/** Fits the style bag and the trees on `docs`; calibration is left neutral (see `calibrate`). */
export function trainDocumentClassifier(
  docs: FeaturisedDocument[],
  featureNames: string[],
): DocumentClassifier {
  const labels = docs.map((d) => d.label);
  const weights = balancedWeights(docs.map((d) => d.row));
  const bag = fitStyleBag(
    docs.map((d) => styleVectorOf(d.analysis)),
    labels,
    weights,
  );
  const trees = fitBoostedTrees(
    featureNames,
    docs.map((d) => d.analysis.features),
    labels,
    weights,
    DEFAULT_BOOSTING,
  );
  const model: DocumentClassifier = {
    bag,
    trees,
    bagWeight: BAG_WEIGHT,
    bagScale: 1,
    treeScale: 1,
    calibrationSlope: 1,
    calibrationBias: 0,
  };
  // Standardise each part by the spread of its logits on the training documents.
  const parts = docs.map((d) => documentPartLogits(model, d.analysis));
  model.bagScale = Number(std(parts.map((p) => p[0])).toPrecision(6));
  model.treeScale = Number(std(parts.map((p) => p[1])).toPrecision(6));
  return model;
}

export function blendedLogit(model: DocumentClassifier, analysis: DocumentAnalysis): number {
  const [bag, trees] = documentPartLogits(model, analysis);
  return blendLogits(model, bag, trees);
}

/**
 * Platt scaling on held-out logits, then the smallest shift towards "human" that keeps at most
 * TARGET_HUMAN_FPR of the held-out human documents at the `ai` verdict.
 */
export function calibrate(
  logits: number[],
  labels: number[],
  weights: number[],
): { slope: number; bias: number } {
  const { slope, bias } = fitPlatt(logits, labels, weights);
  const humans = logits.filter((_, i) => labels[i] === 0);
  const fpr = (shift: number) =>
    humans.filter((z) => sigmoid(slope * z + bias - shift) >= DOCUMENT_AI_PROBABILITY).length / humans.length;
  let shift = 0;
  while (fpr(shift) > TARGET_HUMAN_FPR && shift < 20) shift += 0.05;
  return { slope, bias: bias - shift };
}

/** Grouped out-of-fold document logits and the fold models. */
export function outOfFold(
  docs: FeaturisedDocument[],
  featureNames: string[],
  onFold?: (fold: number) => void,
): { logits: number[]; folds: number[]; models: DocumentClassifier[] } {
  const folds = docs.map((d) => foldOf(d.row.group, FOLDS));
  const logits = new Array<number>(docs.length).fill(0);
  const models: DocumentClassifier[] = [];
  for (let f = 0; f < FOLDS; f++) {
    const model = trainDocumentClassifier(
      docs.filter((_, i) => folds[i] !== f),
      featureNames,
    );
    models.push(model);
    docs.forEach((d, i) => {
      if (folds[i] === f) logits[i] = blendedLogit(model, d.analysis);
    });
    onFold?.(f);
  }
  return { logits, folds, models };
}

export interface SentenceDataset {
  rows: number[][];
  labels: number[];
  groups: string[];
  names: string[];
}

/** Sentence rows of the continued texts; each text's document model is one that did not train on its group. */
export function sentenceDataset(
  texts: Array<{ id: string; group: string; analysis: DocumentAnalysis; aiStart: number | null }>,
  documentModelFor: (id: string) => DocumentClassifier,
  lm: LanguageModel,
): SentenceDataset {
  const rows: number[][] = [];
  const labels: number[] = [];
  const groups: string[] = [];
  for (const t of texts) {
    const model = documentModelFor(t.id);
    const docLogit = blendedLogit(model, t.analysis);
    const vectors = sentenceFeatureVectors(t.analysis, model, docLogit);
    t.analysis.spans.forEach((span, i) => {
      rows.push(vectors[i] ?? []);
      labels.push(sentenceLabel(span.start, span.end, t.aiStart));
      groups.push(t.group);
    });
  }
  return { rows, labels, groups, names: [...sentenceFeatureNames(lm), ...SENTENCE_EXTRA_FEATURES] };
}

export function sentenceWeights(labels: number[]): number[] {
  const positives = labels.reduce((a, b) => a + b, 0);
  const negatives = labels.length - positives;
  return labels.map((y) => (y === 1 ? labels.length / 2 / positives : labels.length / 2 / negatives));
}

export function trainSentenceModel(
  data: SentenceDataset,
  keep: (i: number) => boolean = () => true,
): LogisticModel {
  const idx = data.rows.map((_, i) => i).filter(keep);
  const labels = idx.map((i) => data.labels[i] ?? 0);
  return fitLogistic(
    data.names,
    idx.map((i) => data.rows[i] ?? []),
    labels,
    sentenceWeights(labels),
    { l2: SENTENCE_L2 },
  );
}

/** Grouped out-of-fold sentence logits. */
export function sentenceOutOfFold(data: SentenceDataset): number[] {
  const folds = data.groups.map((g) => foldOf(g, FOLDS));
  const out = new Array<number>(data.rows.length).fill(0);
  for (let f = 0; f < FOLDS; f++) {
    const model = trainSentenceModel(data, (i) => folds[i] !== f);
    data.rows.forEach((r, i) => {
      if (folds[i] === f) out[i] = logit(model, r);
    });
  }
  return out;
}
