/**
 * Text -> sentence spans, per-sentence statistics, and the document and sentence scores. Shared by the engine
 * and the training/evaluation scripts so that both compute exactly the same features.
 */
import { type SentenceSpan, splitSentences } from "../text/index.ts";
import { documentFeatures, type SentenceStats, sentenceFeatures, sentenceStats } from "./features.ts";
import type { LanguageModel } from "./language-model.ts";
import type { DocumentClassifier } from "./model-file.ts";
import { styleBagLogit, styleWeightSum } from "./style-bag.ts";
import { boostedLogit } from "./trees.ts";

export interface DocumentAnalysis {
  spans: SentenceSpan[];
  stats: SentenceStats[];
  /** Dense document features (trees). */
  features: number[];
  /** Style token ids of the whole text (style bag). */
  styleIds: number[];
}

export function analyseDocument(text: string, lm: LanguageModel): DocumentAnalysis {
  const spans = splitSentences(text);
  const stats = spans.map((s) => sentenceStats(s.text, lm));
  return { spans, stats, features: documentFeatures(stats), styleIds: stats.flatMap((s) => s.styleIds) };
}

/** The two parts of the document score, before blending. */
export function documentPartLogits(model: DocumentClassifier, analysis: DocumentAnalysis): [number, number] {
  return [styleBagLogit(model.bag, analysis.styleIds), boostedLogit(model.trees, analysis.features)];
}

/** Uncalibrated document logit: a fixed blend of the standardised style-bag and tree logits. */
export function blendLogits(model: DocumentClassifier, bagLogit: number, treeLogit: number): number {
  return (
    (model.bagWeight * bagLogit) / model.bagScale + ((1 - model.bagWeight) * treeLogit) / model.treeScale
  );
}

export function documentLogit(model: DocumentClassifier, analysis: DocumentAnalysis): number {
  const [bag, trees] = documentPartLogits(model, analysis);
  return blendLogits(model, bag, trees);
}

/** Sentences on each side whose style n-grams join a sentence's own (its context). */
const STYLE_CONTEXT_SENTENCES = 2;

/**
 * Sentence feature vectors: each sentence's own and neighbourhood features, the mean style-bag weight of its
 * own n-grams and of its window (the sentence in its context), and the document logit (so sentence and
 * document scores agree).
 */
export function sentenceFeatureVectors(
  analysis: DocumentAnalysis,
  model: DocumentClassifier,
  docLogit: number,
): number[][] {
  const style = analysis.stats.map((s) => styleWeightSum(model.bag, s.styleIds));
  return analysis.stats.map((_, index) => {
    let sum = 0;
    let count = 0;
    const last = Math.min(style.length - 1, index + STYLE_CONTEXT_SENTENCES);
    for (let j = Math.max(0, index - STYLE_CONTEXT_SENTENCES); j <= last; j++) {
      sum += style[j]?.sum ?? 0;
      count += style[j]?.count ?? 0;
    }
    const own = style[index] ?? { sum: 0, count: 0 };
    return [
      ...sentenceFeatures(analysis.stats, index),
      own.count > 0 ? own.sum / own.count : 0,
      count > 0 ? sum / count : 0,
      docLogit,
    ];
  });
}

export const SENTENCE_EXTRA_FEATURES = ["own_style_weight", "window_style_weight", "document_logit"];
