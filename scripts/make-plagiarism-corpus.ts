/**
 * Builds a labelled plagiarism corpus (PAN style) from the HUMAN texts of the shared data set:
 *   - sources: texts to index (web pages / library documents);
 *   - suspicious documents: unindexed human text with passages taken from sources and inserted verbatim,
 *     lightly edited, reordered (sentence shuffle) or heavily rewritten, one kind per document, with the
 *     character offsets of every case on both sides as ground truth;
 *   - unrelated documents: unindexed human text with no passage from any source.
 * Texts sharing any 6-word run with an earlier text are dropped first, so that "unrelated" really is.
 * Fixed seed: the same input gives the same corpus.
 *
 *   bun scripts/make-plagiarism-corpus.ts [--out data/plagiarism-corpus] [--per-kind 150] [--seed 42]
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { splitSentences } from "../src/text/index.ts";
import { seededRandom } from "./seeded-random.ts";

const { values: args } = parseArgs({
  options: {
    input: { type: "string", default: "/work/shared/data/ai-text/train.jsonl" },
    out: { type: "string", default: "data/plagiarism-corpus" },
    "per-kind": { type: "string", default: "150" },
    unrelated: { type: "string", default: "200" },
    sources: { type: "string", default: "1000" },
    seed: { type: "string", default: "42" },
  },
});

export const KINDS = ["verbatim", "light", "reordered", "heavy"] as const;
export type Kind = (typeof KINDS)[number];

export interface CorpusSource {
  id: string;
  title: string;
  text: string;
}
export interface CorpusCase {
  kind: Kind;
  start: number;
  end: number;
  source_id: string;
  source_start: number;
  source_end: number;
}
export interface SuspiciousDocument {
  id: string;
  kind: Kind | "unrelated";
  text: string;
  cases: CorpusCase[];
}

const random = seededRandom(Number(args.seed));
const randInt = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

// --- load and de-duplicate -------------------------------------------------------------------------------
const rows = (await Bun.file(args.input).text())
  .split("\n")
  .filter(Boolean)
  .map((line) => JSON.parse(line) as { id: string; text: string; label: string; domain: string })
  .filter((row) => row.label === "human");

const SHINGLE = 6;
const seenShingles = new Set<string>();
const texts: Array<{ id: string; text: string; domain: string }> = [];
for (const row of rows) {
  const words = row.text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const shingles: string[] = [];
  for (let i = 0; i + SHINGLE <= words.length; i++) shingles.push(words.slice(i, i + SHINGLE).join(" "));
  if (shingles.some((s) => seenShingles.has(s))) continue;
  for (const s of shingles) seenShingles.add(s);
  texts.push({ id: row.id, text: row.text.trim(), domain: row.domain });
}
shuffle(texts);

const vocabulary = texts.flatMap((t) => t.text.split(/\s+/).filter((w) => /^[a-z]+$/.test(w)));

// --- split the pool: sources (indexed), fillers for suspicious documents, unrelated documents -------------
const sourceCount = Math.min(Number(args.sources), Math.floor(texts.length * 0.5));
const sourceTexts = texts.slice(0, sourceCount);
const fillerTexts = texts.slice(sourceCount);
const sources: CorpusSource[] = sourceTexts.map((t, i) => ({
  id: `src-${String(i).padStart(5, "0")}`,
  title: `${t.domain} ${t.id}`,
  text: t.text,
}));

interface Passage {
  source: CorpusSource;
  start: number;
  end: number;
  sentences: string[];
}

/** A run of whole sentences of a source, about `target` words long. */
function takePassage(source: CorpusSource, target: number): Passage | null {
  const sentences = splitSentences(source.text);
  if (sentences.length === 0) return null;
  const first = randInt(0, Math.max(0, sentences.length - 2));
  const taken: typeof sentences = [];
  let words = 0;
  for (let i = first; i < sentences.length && words < target; i++) {
    const sentence = sentences[i];
    if (sentence === undefined) break;
    taken.push(sentence);
    words += sentence.text.split(/\s+/).length;
  }
  if (words < 20 || taken.length === 0) return null;
  const start = (taken[0] as (typeof taken)[0]).start;
  const end = (taken[taken.length - 1] as (typeof taken)[0]).end;
  return { source, start, end, sentences: taken.map((s) => s.text) };
}

// --- obfuscations ------------------------------------------------------------------------------------------
/** Word-level random edits at `rate`: substitution, deletion, insertion, neighbour swap, case change. */
function editWords(text: string, rate: number): string {
  const words = text.split(/\s+/);
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    if (random() >= rate) {
      out.push(word);
      continue;
    }
    const op = random();
    if (op < 0.35) out.push(pick(vocabulary) + (word.match(/[.,;:!?]+$/)?.[0] ?? ""));
    else if (op < 0.6) {
      /* deletion */
    } else if (op < 0.8) out.push(word, pick(vocabulary));
    else if (op < 0.9 && i + 1 < words.length) {
      out.push(words[i + 1] as string, word);
      i++;
    } else out.push(word === word.toLowerCase() ? word.toUpperCase() : word.toLowerCase());
  }
  return out.join(" ");
}

function obfuscate(passage: Passage, kind: Kind): string | null {
  const verbatim = passage.source.text.slice(passage.start, passage.end);
  switch (kind) {
    case "verbatim":
      return verbatim;
    case "light":
      return editWords(verbatim, 0.1);
    case "reordered": {
      if (passage.sentences.length < 3) return null;
      const order = passage.sentences.map((_, i) => i);
      while (order.every((v, i) => v === i)) shuffle(order);
      return order.map((i) => passage.sentences[i]).join(" ");
    }
    case "heavy": {
      const shuffled = shuffle([...passage.sentences]).join(" ");
      return editWords(shuffled, 0.35);
    }
  }
}

// --- suspicious and unrelated documents -------------------------------------------------------------------
let fillerCursor = 0;
function nextFiller(): string {
  const filler = fillerTexts[fillerCursor % fillerTexts.length];
  fillerCursor++;
  if (filler === undefined) throw new Error("no filler texts");
  return filler.text;
}

/** Filler sentences (from 1-2 unindexed texts) with the given passages inserted between sentences. */
function composeDocument(
  id: string,
  kind: SuspiciousDocument["kind"],
  inserts: Array<{ text: string; passage: Passage }>,
): SuspiciousDocument {
  const fillerSentences = [nextFiller(), ...(random() < 0.5 ? [nextFiller()] : [])].flatMap((t) =>
    splitSentences(t).map((s) => s.text),
  );
  const slots = inserts.map(() => randInt(0, fillerSentences.length));
  const pieces: Array<{ text: string; passage?: Passage }> = fillerSentences.map((text) => ({ text }));
  // Insert from the last slot backwards so earlier slot numbers stay valid.
  const order = inserts
    .map((insert, i) => ({ insert, slot: slots[i] as number }))
    .sort((a, b) => b.slot - a.slot);
  for (const { insert, slot } of order)
    pieces.splice(slot, 0, { text: insert.text, passage: insert.passage });
  let text = "";
  const cases: CorpusCase[] = [];
  for (const piece of pieces) {
    if (text) text += random() < 0.15 ? "\n\n" : " ";
    const start = text.length;
    text += piece.text;
    if (piece.passage !== undefined && kind !== "unrelated") {
      cases.push({
        kind,
        start,
        end: text.length,
        source_id: piece.passage.source.id,
        source_start: piece.passage.start,
        source_end: piece.passage.end,
      });
    }
  }
  return { id, kind, text, cases };
}

const LENGTHS: Array<[number, number]> = [
  [25, 60],
  [60, 150],
  [150, 400],
];
const documents: SuspiciousDocument[] = [];
for (const kind of KINDS) {
  for (let d = 0; d < Number(args["per-kind"]); d++) {
    const wanted = randInt(1, 3);
    const inserts: Array<{ text: string; passage: Passage }> = [];
    const used = new Set<string>();
    for (let attempt = 0; inserts.length < wanted && attempt < 50; attempt++) {
      const source = pick(sources);
      if (used.has(source.id)) continue;
      const [lo, hi] = pick(LENGTHS);
      const passage = takePassage(source, randInt(lo, hi));
      if (passage === null) continue;
      const text = obfuscate(passage, kind);
      if (text === null) continue;
      used.add(source.id);
      inserts.push({ text, passage });
    }
    documents.push(composeDocument(`${kind}-${String(d).padStart(4, "0")}`, kind, inserts));
  }
}
for (let d = 0; d < Number(args.unrelated); d++) {
  documents.push(composeDocument(`unrelated-${String(d).padStart(4, "0")}`, "unrelated", []));
}

mkdirSync(args.out, { recursive: true });
writeFileSync(join(args.out, "sources.jsonl"), `${sources.map((s) => JSON.stringify(s)).join("\n")}\n`);
writeFileSync(join(args.out, "documents.jsonl"), `${documents.map((d) => JSON.stringify(d)).join("\n")}\n`);
const summary = {
  out: args.out,
  seed: Number(args.seed),
  human_texts: rows.length,
  after_dedup: texts.length,
  sources: sources.length,
  fillers_used: fillerCursor,
  filler_pool: fillerTexts.length,
  fillers_reused: fillerCursor > fillerTexts.length,
  documents: Object.fromEntries(
    [...KINDS, "unrelated"].map((kind) => [
      kind,
      {
        documents: documents.filter((d) => d.kind === kind).length,
        cases: documents.filter((d) => d.kind === kind).reduce((n, d) => n + d.cases.length, 0),
      },
    ]),
  ),
};
console.log(JSON.stringify(summary, null, 2));
