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
  sentenceLogits,
} from "../src/detection/analysis.ts";
import { type LogisticModel, sigmoid } from "../src/detection/classifier.ts";
import { sentenceFeatureNames } from "../src/detection/features.ts";
import type { LanguageModel } from "../src/detection/language-model.ts";
import type { DocumentClassifier } from "../src/detection/model-file.ts";
import { DEFAULT_BOOSTING, fitBoostedTrees } from "./detector-boosting.ts";
import {
  balancedWeights,
  CHAT_GENERATORS,
  type FeaturisedDocument,
  sentenceLabel,
} from "./detector-dataset.ts";
import { fitLogistic, fitPlatt, foldOf } from "./detector-logistic.ts";
import { fitStyleBag, type SparseVector, sparseStyleVector } from "./detector-style-bag.ts";

export const FOLDS = 5;
/**
 * Share of the all-generator bag in the base-model expert (the rest is the monotone trees). Chosen by grouped
 * cross-validation under one condition: plain writing must stay clear of the verdict threshold (the
 * all-generator bag learns "plain = machine" from the older base models). See docs/detection.md.
 */
export const BASE_MIX = 0.5;
/** Share of human documents allowed to reach the `ai` verdict where calibration is fitted. */
export const TARGET_HUMAN_FPR = 0.004;
/** The `ai` verdict on the document probability: human_score < 35 <=> p(ai) >= 0.655. */
export const DOCUMENT_AI_PROBABILITY = 0.655;
const SENTENCE_L2 = 1e-3;

/**
 * Monotone constraints of the trees (+1: the machine score may only rise with the feature; -1: only fall).
 * They encode "plain writing is not evidence of a machine": more predictable words, commoner words, shorter
 * words, more function words, less varied vocabulary, more repetition and more unknown words (typos) can never
 * raise the score. Base models do write plainly, so this costs some of their recall; it is what keeps
 * non-native and young writers from being flagged for writing simply (Liang et al. 2023).
 */
export const MONOTONE_FEATURES: Record<string, number> = {
  lm_mean_logprob: -1,
  lm_std_logprob: 1,
  lm_unknown_rate: -1,
  lm_curvature: -1,
  lm_mean_gap: -1,
  lm_bucket_0: -1,
  lm_bucket_1: -1,
  lm_bucket_4: 1,
  unigram_mean_logprob: -1,
  unigram_std_logprob: 1,
  rank_bucket_0: -1,
  rank_bucket_2: 1,
  rank_bucket_3: 1,
  mean_word_length: 1,
  std_word_length: 1,
  long_word_rate: 1,
  function_word_rate: -1,
  mattr: 1,
  repeated_trigram_rate: -1,
};

const vectorCache = new WeakMap<DocumentAnalysis, SparseVector>();
export function styleVectorOf(analysis: DocumentAnalysis): SparseVector {
  let v = vectorCache.get(analysis);
  if (!v) {
    v = sparseStyleVector(analysis.styleIds);
    vectorCache.set(analysis, v);
  }
  return v;
}

function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
}

function std(values: number[]): number {
  const mean = values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  return Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, values.length)) || 1;
}

/** Fits the two style bags and the monotone trees on `docs`; calibration is left neutral (see `calibrate`). */
export function trainDocumentClassifier(
  docs: FeaturisedDocument[],
  featureNames: string[],
): DocumentClassifier {
  const chatDocs = docs.filter((d) => d.label === 0 || CHAT_GENERATORS.has(d.row.generator));
  const bag = (set: FeaturisedDocument[]) =>
    fitStyleBag(
      set.map((d) => styleVectorOf(d.analysis)),
      set.map((d) => d.label),
      balancedWeights(set.map((d) => d.row)),
    );
  const trees = fitBoostedTrees(
    featureNames,
    docs.map((d) => d.analysis.features),
    docs.map((d) => d.label),
    balancedWeights(docs.map((d) => d.row)),
    { ...DEFAULT_BOOSTING, monotone: featureNames.map((n) => MONOTONE_FEATURES[n] ?? 0) },
  );
  const model: DocumentClassifier = {
    chatBag: bag(chatDocs),
    allBag: bag(docs),
    trees,
    centers: [0, 0, 0],
    scales: [1, 1, 1],
    baseMix: BASE_MIX,
    calibrationSlope: 1,
    calibrationBias: 0,
  };
  // Standardise each part by its mean and spread on the training documents.
  const parts = docs.map((d) => documentPartLogits(model, d.analysis));
  const column = (k: number) => parts.map((p) => p[k] ?? 0);
  model.centers = [0, 1, 2].map((k) => Number(mean(column(k)).toPrecision(6))) as [number, number, number];
  model.scales = [0, 1, 2].map((k) => Number(std(column(k)).toPrecision(6))) as [number, number, number];
  return model;
}

export function blendedLogit(model: DocumentClassifier, analysis: DocumentAnalysis): number {
  return blendLogits(model, documentPartLogits(model, analysis));
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
  /** Training anchor: logit of the text's true machine share (the model learns deviations from it). */
  trainOffsets: number[];
  /** Inference anchor: the calibrated document logit, from a document model that never saw the group. */
  documentLogits: number[];
  /** Index of the text each row belongs to. */
  texts: number[];
}

/** The true share of machine-written characters of a continued text, as a logit (clamped). */
function machineShareLogit(textLength: number, aiStart: number | null): number {
  const share = aiStart === null ? 0 : Math.max(0, textLength - aiStart) / Math.max(1, textLength);
  const p = Math.min(0.95, Math.max(0.05, share));
  return Math.log(p / (1 - p));
}

/** Sentence rows of the continued texts. */
export function sentenceDataset(
  texts: Array<{
    id: string;
    group: string;
    text: string;
    analysis: DocumentAnalysis;
    aiStart: number | null;
  }>,
  documentModelFor: (id: string) => DocumentClassifier,
  calibration: { slope: number; bias: number },
  lm: LanguageModel,
): SentenceDataset {
  const data: SentenceDataset = {
    rows: [],
    labels: [],
    groups: [],
    names: [...sentenceFeatureNames(lm), ...SENTENCE_EXTRA_FEATURES],
    trainOffsets: [],
    documentLogits: [],
    texts: [],
  };
  for (const [k, t] of texts.entries()) {
    const model = documentModelFor(t.id);
    const docLogit = calibration.slope * blendedLogit(model, t.analysis) + calibration.bias;
    const offset = machineShareLogit(t.text.length, t.aiStart);
    const vectors = sentenceFeatureVectors(t.analysis, model);
    t.analysis.spans.forEach((span, i) => {
      data.rows.push(vectors[i] ?? []);
      data.labels.push(sentenceLabel(span.start, span.end, t.aiStart));
      data.groups.push(t.group);
      data.trainOffsets.push(offset);
      data.documentLogits.push(docLogit);
      data.texts.push(k);
    });
  }
  return data;
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
    { l2: SENTENCE_L2, offsets: idx.map((i) => data.trainOffsets[i] ?? 0) },
  );
}

/** Grouped out-of-fold sentence logits, anchored on the held-out document logits as at inference. */
export function sentenceOutOfFold(data: SentenceDataset): number[] {
  const folds = data.groups.map((g) => foldOf(g, FOLDS));
  const out = new Array<number>(data.rows.length).fill(0);
  for (let f = 0; f < FOLDS; f++) {
    const model = trainSentenceModel(data, (i) => folds[i] !== f);
    const byText = new Map<number, number[]>();
    data.rows.forEach((_, i) => {
      if (folds[i] !== f) return;
      const rows = byText.get(data.texts[i] ?? 0) ?? [];
      rows.push(i);
      byText.set(data.texts[i] ?? 0, rows);
    });
    for (const idx of byText.values()) {
      const logits = sentenceLogits(
        model,
        idx.map((i) => data.rows[i] ?? []),
        data.documentLogits[idx[0] ?? 0] ?? 0,
      );
      idx.forEach((i, k) => {
        out[i] = logits[k] ?? 0;
      });
    }
  }
  return out;
}
