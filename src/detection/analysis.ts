/**
 * Text -> sentence spans, per-sentence statistics, and the document and sentence scores. Shared by the engine
 * and the training/evaluation scripts so that both compute exactly the same features.
 */
import { type SentenceSpan, splitSentences } from "../text/index.ts";
import { type LogisticModel, logit } from "./classifier.ts";
import { documentFeatures, type SentenceStats, sentenceFeatures, sentenceStats } from "./features.ts";
import type { LanguageModel } from "./language-model.ts";
import type { DocumentClassifier } from "./model-file.ts";
import { type StyleBagModel, styleBagLogit, styleWeightSum } from "./style-bag.ts";
import { boostedLogit } from "./trees.ts";

export interface DocumentAnalysis {
  spans: SentenceSpan[];
  stats: SentenceStats[];
  /** Dense document features (trees). */
  features: number[];
  /** Style token ids of the whole text (style bags). */
  styleIds: number[];
}

export function analyseDocument(text: string, lm: LanguageModel): DocumentAnalysis {
  const spans = splitSentences(text);
  const stats = spans.map((s) => sentenceStats(s.text, lm));
  return { spans, stats, features: documentFeatures(stats), styleIds: stats.flatMap((s) => s.styleIds) };
}

/** The three part scores (chat bag, all-generator bag, trees), before blending. */
export function documentPartLogits(
  model: Pick<DocumentClassifier, "chatBag" | "allBag" | "trees">,
  analysis: DocumentAnalysis,
): [number, number, number] {
  return [
    styleBagLogit(model.chatBag, analysis.styleIds),
    styleBagLogit(model.allBag, analysis.styleIds),
    boostedLogit(model.trees, analysis.features),
  ];
}

/** Uncalibrated document logit: soft maximum of the chat expert and the base-model expert. */
export function blendLogits(model: DocumentClassifier, parts: [number, number, number]): number {
  const z = parts.map((p, k) => (p - (model.centers[k] ?? 0)) / (model.scales[k] || 1));
  const chat = z[0] ?? 0;
  const base = model.baseMix * (z[1] ?? 0) + (1 - model.baseMix) * (z[2] ?? 0);
  const high = Math.max(chat, base);
  return high + Math.log1p(Math.exp(-Math.abs(chat - base)));
}

export function documentLogit(model: DocumentClassifier, analysis: DocumentAnalysis): number {
  return blendLogits(model, documentPartLogits(model, analysis));
}

/** Sentences on each side whose style n-grams join a sentence's own (its context). */
const STYLE_CONTEXT_SENTENCES = 2;

/** Mean style weight of each sentence's own n-grams and of its window. */
function styleColumns(stats: SentenceStats[], bag: StyleBagModel): Array<[number, number]> {
  const sums = stats.map((s) => styleWeightSum(bag, s.styleIds));
  return stats.map((_, index) => {
    let sum = 0;
    let count = 0;
    const last = Math.min(sums.length - 1, index + STYLE_CONTEXT_SENTENCES);
    for (let j = Math.max(0, index - STYLE_CONTEXT_SENTENCES); j <= last; j++) {
      sum += sums[j]?.sum ?? 0;
      count += sums[j]?.count ?? 0;
    }
    const own = sums[index] ?? { sum: 0, count: 0 };
    return [own.count > 0 ? own.sum / own.count : 0, count > 0 ? sum / count : 0];
  });
}

/**
 * Sentence feature vectors. Each sentence's own and neighbourhood features (LM, style, style-bag weights) are
 * taken relative to the document's mean sentence: the sentence model scores how a sentence departs from its
 * document, and `sentenceLogit` anchors that on the document's calibrated logit, so sentence and document
 * verdicts agree (the mean sentence logit is the document logit).
 */
export function sentenceFeatureVectors(analysis: DocumentAnalysis, model: DocumentClassifier): number[][] {
  const chat = styleColumns(analysis.stats, model.chatBag);
  const all = styleColumns(analysis.stats, model.allBag);
  const raw = analysis.stats.map((_, i) => [
    ...sentenceFeatures(analysis.stats, i),
    ...(chat[i] ?? [0, 0]),
    ...(all[i] ?? [0, 0]),
  ]);
  const width = raw[0]?.length ?? 0;
  const mean = new Array<number>(width).fill(0);
  for (const row of raw)
    for (let j = 0; j < width; j++) mean[j] = (mean[j] ?? 0) + (row[j] ?? 0) / raw.length;
  return raw.map((row) => row.map((v, j) => v - (mean[j] ?? 0)));
}

/**
 * Sentence logits: the document's calibrated logit plus each sentence's deviation, centred so that the
 * deviations of a text sum to zero (the mean sentence logit is exactly the document logit).
 */
export function sentenceLogits(
  sentenceModel: LogisticModel,
  rows: number[][],
  documentLogit: number,
): number[] {
  const deviations = rows.map(
    (r) => sentenceModel.calibrationSlope * (logit(sentenceModel, r) - sentenceModel.bias),
  );
  const mean = deviations.reduce((a, b) => a + b, 0) / Math.max(1, deviations.length);
  return deviations.map((d) => documentLogit + d - mean);
}

export const SENTENCE_EXTRA_FEATURES = [
  "own_chat_style_weight",
  "window_chat_style_weight",
  "own_all_style_weight",
  "window_all_style_weight",
];
