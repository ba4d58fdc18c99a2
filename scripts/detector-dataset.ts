/**
 * The training data (/work/shared/data/ai-text or $AI_TEXT_DATA) and its features, for the training and
 * evaluation scripts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { analyseDocument, type DocumentAnalysis } from "../src/detection/analysis.ts";
import type { LanguageModel } from "../src/detection/language-model.ts";

export const DATA_DIR =
  process.env.AI_TEXT_DATA ?? join(import.meta.dir, "..", "..", "shared", "data", "ai-text");

export interface DocumentRow {
  id: string;
  text: string;
  label: "human" | "ai";
  generator: string;
  domain: string;
  source: string;
  group: string;
}

export interface SentenceDocumentRow {
  id: string;
  text: string;
  generator: string;
  ai_start: number | null;
}

/** Chat-tuned generators, reported apart from the older base models (issue 3). */
export const CHAT_GENERATORS = new Set(["gpt-3.5-turbo", "gpt-4", "chatgpt"]);

function readJsonl<T>(file: string): T[] {
  return readFileSync(join(DATA_DIR, file), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as T);
}

export function loadDocuments(): DocumentRow[] {
  return readJsonl<DocumentRow>("train.jsonl");
}

export function loadSentenceDocuments(): SentenceDocumentRow[] {
  return readJsonl<SentenceDocumentRow>("sentences.jsonl");
}

export interface FeaturisedDocument {
  row: DocumentRow;
  label: number;
  analysis: DocumentAnalysis;
}

export function featurise(rows: DocumentRow[], lm: LanguageModel): FeaturisedDocument[] {
  return rows.map((row) => ({
    row,
    label: row.label === "ai" ? 1 : 0,
    analysis: analyseDocument(row.text, lm),
  }));
}

/**
 * Sample weights: humans and machines weigh the same in total, and every generator weighs the same within the
 * machine class, so that the many base-model rows do not drown the few chat-model ones.
 */
export function balancedWeights(rows: DocumentRow[]): number[] {
  const perGenerator = new Map<string, number>();
  for (const r of rows) perGenerator.set(r.generator, (perGenerator.get(r.generator) ?? 0) + 1);
  const aiGenerators = [...perGenerator.keys()].filter((g) => g !== "human").length;
  const humans = perGenerator.get("human") ?? 1;
  const total = rows.length;
  return rows.map((r) =>
    r.label === "human"
      ? total / 2 / humans
      : total / 2 / Math.max(1, aiGenerators) / (perGenerator.get(r.generator) ?? 1),
  );
}

/** Sentence labels of a continued text: 1 when most of the sentence lies after the machine took over. */
export function sentenceLabel(start: number, end: number, aiStart: number | null): number {
  if (aiStart === null) return 0;
  const aiChars = Math.max(0, end - Math.max(start, aiStart));
  return aiChars * 2 >= end - start ? 1 : 0;
}
