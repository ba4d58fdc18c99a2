/**
 * Trains the detector from the shared data set and writes src/detection/detector.model.json.
 *
 *   bun scripts/train-detector.ts
 *
 * Deterministic: folds come from a hash of each row's `group`, the fits are Newton steps from zero, so the same
 * data gives the same file (the fixed "seed" is the hash constant). Steps:
 *  1. document features for train.jsonl; grouped 5-fold out-of-fold logits; final fit on all rows;
 *  2. calibration on the out-of-fold logits (Platt), then a conservative shift so that at most
 *     TARGET_HUMAN_FPR of human documents reach the `ai` verdict out of fold;
 *  3. sentence model on sentences.jsonl: each sentence's own and neighbouring features plus the out-of-fold
 *     document logit, calibrated on its own out-of-fold logits.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { sentenceFeatureVector } from "../src/detection/analysis.ts";
import { type LogisticModel, logit, sigmoid } from "../src/detection/classifier.ts";
import { loadEnglishLanguageModel } from "../src/detection/english-lm.ts";
import { documentFeatureNames, sentenceFeatureNames } from "../src/detection/features.ts";
import type { DetectorModel } from "../src/detection/model-file.ts";
import { MODEL_VERSION } from "../src/detection/model-version.ts";
import { SENTENCE_AI_MIN } from "../src/detection/verdicts.ts";
import {
  balancedWeights,
  DATA_DIR,
  type FeaturisedDocument,
  featurise,
  loadDocuments,
  loadSentenceDocuments,
  sentenceLabel,
} from "./detector-dataset.ts";
import { auroc, fitLogistic, fitPlatt, foldOf } from "./detector-logistic.ts";

export const FOLDS = 5;
export const DOCUMENT_L2 = 1e-3;
export const SENTENCE_L2 = 1e-3;
/** Out-of-fold share of human documents allowed to reach the `ai` verdict (the target in production is 1%). */
export const TARGET_HUMAN_FPR = 0.005;
/** The `ai` verdict threshold on the document probability: human_score < 35. */
const DOCUMENT_AI_PROBABILITY = 0.655;

export function trainDocumentModel(docs: FeaturisedDocument[], names: string[]): LogisticModel {
  return fitLogistic(
    names,
    docs.map((d) => d.analysis.features),
    docs.map((d) => d.label),
    balancedWeights(docs.map((d) => d.row)),
    { l2: DOCUMENT_L2 },
  );
}

/** Out-of-fold logits and the fold models that produced them. */
export function outOfFold(
  docs: FeaturisedDocument[],
  names: string[],
): { logits: number[]; models: LogisticModel[] } {
  const folds = docs.map((d) => foldOf(d.row.group, FOLDS));
  const logits = new Array<number>(docs.length).fill(0);
  const models: LogisticModel[] = [];
  for (let f = 0; f < FOLDS; f++) {
    const model = trainDocumentModel(
      docs.filter((_, i) => folds[i] !== f),
      names,
    );
    models.push(model);
    docs.forEach((d, i) => {
      if (folds[i] === f) logits[i] = logit(model, d.analysis.features);
    });
  }
  return { logits, models };
}

/** Platt calibration, then the smallest bias shift that keeps human false positives at the target. */
export function calibrateConservatively(
  logits: number[],
  labels: number[],
  weights: number[],
): { slope: number; bias: number } {
  const { slope, bias } = fitPlatt(logits, labels, weights);
  const humanProbabilities = (shift: number) =>
    logits.filter((_, i) => labels[i] === 0).map((z) => sigmoid(slope * z + bias - shift));
  const fpr = (shift: number) => {
    const ps = humanProbabilities(shift);
    return ps.filter((p) => p >= DOCUMENT_AI_PROBABILITY).length / ps.length;
  };
  let shift = 0;
  while (fpr(shift) > TARGET_HUMAN_FPR && shift < 20) shift += 0.05;
  return { slope, bias: bias - shift };
}

function main(): void {
  const started = performance.now();
  const lm = loadEnglishLanguageModel();
  const names = documentFeatureNames(lm.bucketCount);
  const docs = featurise(loadDocuments(), lm);
  const labels = docs.map((d) => d.label);
  const weights = balancedWeights(docs.map((d) => d.row));

  const oof = outOfFold(docs, names);
  const document = trainDocumentModel(docs, names);
  const calibration = calibrateConservatively(oof.logits, labels, weights);
  document.calibrationSlope = calibration.slope;
  document.calibrationBias = calibration.bias;

  // Sentence model: the document logit for a text comes from the fold model that did not see its group.
  const foldById = new Map(docs.map((d) => [d.row.id, foldOf(d.row.group, FOLDS)] as const));
  const groupById = new Map(docs.map((d) => [d.row.id, d.row.group] as const));
  const sentenceRows: number[][] = [];
  const sentenceLabels: number[] = [];
  const sentenceGroups: string[] = [];
  for (const row of loadSentenceDocuments()) {
    const [analysis] = featurise([{ ...row, label: "human", domain: "", source: "", group: row.id }], lm).map(
      (d) => d.analysis,
    );
    if (!analysis) continue;
    const fold = foldById.get(row.id);
    const docModel = fold === undefined ? document : (oof.models[fold] ?? document);
    const documentLogit = logit(docModel, analysis.features);
    analysis.spans.forEach((span, i) => {
      sentenceRows.push(sentenceFeatureVector(analysis, i, documentLogit));
      sentenceLabels.push(sentenceLabel(span.start, span.end, row.ai_start));
      sentenceGroups.push(groupById.get(row.id) ?? row.id);
    });
  }
  const sentenceNames = [...sentenceFeatureNames(lm.bucketCount), "document_logit"];
  const positives = sentenceLabels.reduce((a, b) => a + b, 0);
  const sentenceWeights = sentenceLabels.map((y) =>
    y === 1
      ? sentenceLabels.length / 2 / positives
      : sentenceLabels.length / 2 / (sentenceLabels.length - positives),
  );
  const sentenceFolds = sentenceGroups.map((g) => foldOf(g, FOLDS));
  const sentenceOof = new Array<number>(sentenceRows.length).fill(0);
  for (let f = 0; f < FOLDS; f++) {
    const keep = (_: unknown, i: number) => sentenceFolds[i] !== f;
    const m = fitLogistic(
      sentenceNames,
      sentenceRows.filter(keep),
      sentenceLabels.filter(keep),
      sentenceWeights.filter(keep),
      { l2: SENTENCE_L2 },
    );
    sentenceRows.forEach((r, i) => {
      if (sentenceFolds[i] === f) sentenceOof[i] = logit(m, r);
    });
  }
  const sentence = fitLogistic(sentenceNames, sentenceRows, sentenceLabels, sentenceWeights, {
    l2: SENTENCE_L2,
  });
  const sentenceCalibration = fitPlatt(sentenceOof, sentenceLabels, sentenceWeights);
  sentence.calibrationSlope = sentenceCalibration.slope;
  sentence.calibrationBias = sentenceCalibration.bias;

  const sentenceHumanFlagged =
    sentenceOof.filter(
      (z, i) =>
        sentenceLabels[i] === 0 &&
        sigmoid(sentence.calibrationSlope * z + sentence.calibrationBias) >= SENTENCE_AI_MIN,
    ).length /
    (sentenceLabels.length - positives);

  const model: DetectorModel = {
    version: MODEL_VERSION,
    document,
    sentence,
    trainedOn: {
      data: DATA_DIR.replace(/.*\/shared\//, "shared/"),
      documents: docs.length,
      sentences: sentenceRows.length,
      folds: FOLDS,
      split: "FNV-1a hash of group",
      documentOutOfFoldAuroc: round(auroc(oof.logits, labels)),
      sentenceOutOfFoldAuroc: round(auroc(sentenceOof, sentenceLabels)),
      sentenceOutOfFoldHumanFlaggedAi: round(sentenceHumanFlagged),
    },
  };
  const out = join(import.meta.dir, "..", "src", "detection", "detector.model.json");
  writeFileSync(out, `${JSON.stringify(model)}\n`);
  console.log(
    JSON.stringify({ wrote: out, ...model.trainedOn, seconds: round((performance.now() - started) / 1000) }),
  );
}

function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}

if (import.meta.main) main();
