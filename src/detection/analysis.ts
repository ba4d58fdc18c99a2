/**
 * Text -> sentence spans, per-sentence statistics and the document feature vector. Shared by the engine and the
 * training/evaluation scripts so that both compute exactly the same features.
 */
import { type SentenceSpan, splitSentences } from "../text/index.ts";
import { documentFeatures, type SentenceStats, sentenceFeatures, sentenceStats } from "./features.ts";
import type { LanguageModel } from "./language-model.ts";

export interface DocumentAnalysis {
  spans: SentenceSpan[];
  stats: SentenceStats[];
  features: number[];
}

export function analyseDocument(text: string, lm: LanguageModel): DocumentAnalysis {
  const spans = splitSentences(text);
  const stats = spans.map((s) => sentenceStats(s.text, lm));
  return { spans, stats, features: documentFeatures(stats) };
}

/** Sentence feature vector with the document logit appended (so sentence and document scores agree). */
export function sentenceFeatureVector(
  analysis: DocumentAnalysis,
  index: number,
  documentLogit: number,
): number[] {
  return [...sentenceFeatures(analysis.stats, index), documentLogit];
}
