/**
 * Trains the detector from the shared data set and writes src/detection/detector.model.json.
 *
 *   bun scripts/train-detector.ts
 *
 * Deterministic: folds come from a hash of each row's `group`, the trees and the sentence model are fitted
 * without sampling, and the style bag's visiting order comes from a fixed seed (STYLE_BAG_SEED), so the same
 * data gives the same file. Steps:
 *  1. features of train.jsonl; grouped 5-fold out-of-fold document logits (style bag + trees, blended);
 *  2. final document classifier on all rows, calibrated on the out-of-fold logits (Platt, then a shift so that
 *     at most TARGET_HUMAN_FPR of human documents reach the `ai` verdict);
 *  3. sentence model on sentences.jsonl: each sentence's own, neighbourhood and style-bag features plus the
 *     document logit from a fold model that never saw the text's group; calibrated out of fold.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { analyseDocument } from "../src/detection/analysis.ts";
import { loadEnglishLanguageModel } from "../src/detection/english-lm.ts";
import { documentFeatureNames } from "../src/detection/features.ts";
import type { DetectorModel } from "../src/detection/model-file.ts";
import { MODEL_VERSION } from "../src/detection/model-version.ts";
import {
  balancedWeights,
  DATA_DIR,
  featurise,
  loadDocuments,
  loadSentenceDocuments,
} from "./detector-dataset.ts";
import { auroc, foldOf } from "./detector-logistic.ts";
import {
  calibrate,
  FOLDS,
  outOfFold,
  sentenceDataset,
  sentenceOutOfFold,
  trainDocumentClassifier,
  trainSentenceModel,
} from "./detector-training.ts";

function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}

function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

function main(): void {
  const started = performance.now();
  const lm = loadEnglishLanguageModel();
  const names = documentFeatureNames(lm);
  const docs = featurise(loadDocuments(), lm);
  log(`featurised ${docs.length} documents`);
  const labels = docs.map((d) => d.label);
  const weights = balancedWeights(docs.map((d) => d.row));

  const oof = outOfFold(docs, names, (f) => log(`document fold ${f + 1}/${FOLDS}`));
  const document = trainDocumentClassifier(docs, names);
  const calibration = calibrate(oof.logits, labels, weights);
  document.calibrationSlope = calibration.slope;
  document.calibrationBias = calibration.bias;
  log("document model done");

  const foldById = new Map(docs.map((d) => [d.row.id, foldOf(d.row.group, FOLDS)] as const));
  const groupById = new Map(docs.map((d) => [d.row.id, d.row.group] as const));
  const texts = loadSentenceDocuments().map((row) => ({
    id: row.id,
    group: groupById.get(row.id) ?? row.id,
    text: row.text,
    analysis: analyseDocument(row.text, lm),
    aiStart: row.ai_start,
  }));
  const data = sentenceDataset(
    texts,
    (id) => {
      const fold = foldById.get(id);
      return fold === undefined ? document : (oof.models[fold] ?? document);
    },
    calibration,
    lm,
  );
  const sentenceOof = sentenceOutOfFold(data);
  const sentence = trainSentenceModel(data);

  const model: DetectorModel = {
    version: MODEL_VERSION,
    document,
    sentence,
    trainedOn: {
      data: "shared/data/ai-text (train.jsonl, sentences.jsonl)",
      lm: "english-lm.bin, derived from Debian pocketsphinx-en-us (BSD-2-Clause)",
      documents: docs.length,
      sentences: data.rows.length,
      folds: FOLDS,
      split: "FNV-1a hash of group",
      documentOutOfFoldAuroc: round(auroc(oof.logits, labels)),
      sentenceOutOfFoldAuroc: round(auroc(sentenceOof, data.labels)),
    },
  };
  const out = join(import.meta.dir, "..", "src", "detection", "detector.model.json");
  writeFileSync(out, `${JSON.stringify(model)}\n`);
  console.log(
    JSON.stringify({
      wrote: out,
      dataDir: DATA_DIR,
      ...model.trainedOn,
      seconds: round((performance.now() - started) / 1000),
    }),
  );
}

if (import.meta.main) main();
