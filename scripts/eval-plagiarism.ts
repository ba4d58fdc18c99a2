/**
 * Evaluates the plagiarism engine on the corpus of scripts/make-plagiarism-corpus.ts, through the real store
 * index (half the sources as library documents of a workspace, half as web pages), and prints JSON:
 * per kind of edit the PAN measures (Potthast et al. 2010, "An Evaluation Framework for Plagiarism Detection"):
 * character-level macro precision and recall over both the suspicious and the source side, granularity, and
 * plagdet = F1 / log2(1 + granularity); the error of `similarity` against the ground truth; and the false
 * passages found in unrelated documents. Quotes are not excluded (the ground truth knows nothing of quotes).
 *
 *   bun scripts/eval-plagiarism.ts [--corpus data/plagiarism-corpus] [--params '{"minPassageWords":10}']
 */

import { rmSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { defaultConfig } from "../src/config.ts";
import { createContext } from "../src/context/index.ts";
import { addLibraryDocuments, openFingerprintIndex, upsertWebPages } from "../src/fingerprints/index.ts";
import { DEFAULT_PARAMS, type EngineParams, findPlagiarism } from "../src/plagiarism/index.ts";
import { openStore } from "../src/store/db.ts";
import { tokenizeWords } from "../src/text/index.ts";
import { createWorkspace } from "../src/workspaces/index.ts";

const { values: args } = parseArgs({
  options: {
    corpus: { type: "string", default: "data/plagiarism-corpus" },
    store: { type: "string", default: ".tmp/eval-plagiarism" },
    params: { type: "string", default: "{}" },
  },
});
const params: EngineParams = { ...DEFAULT_PARAMS, ...(JSON.parse(args.params) as Partial<EngineParams>) };

interface CorpusSource {
  id: string;
  title: string;
  text: string;
}
/** A case of the ground truth or a detection: a range of a suspicious document and a range of a source. */
interface Alignment {
  doc: string;
  start: number;
  end: number;
  source_id: string;
  source_start: number;
  source_end: number;
}
interface SuspiciousDocument {
  id: string;
  kind: string;
  text: string;
  cases: Alignment[];
}

const readJsonl = async <T>(path: string): Promise<T[]> =>
  (await Bun.file(path).text())
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as T);

const sources = await readJsonl<CorpusSource>(join(args.corpus, "sources.jsonl"));
const documents = (
  await readJsonl<Omit<SuspiciousDocument, "cases"> & { cases: Omit<Alignment, "doc">[] }>(
    join(args.corpus, "documents.jsonl"),
  )
).map((d) => ({ ...d, cases: d.cases.map((c) => ({ ...c, doc: d.id })) }));

// --- index the sources -------------------------------------------------------------------------------------
rmSync(args.store, { recursive: true, force: true });
const store = openStore(args.store);
const ctx = createContext({ store, config: defaultConfig({ dataDir: args.store }) });
const workspaceId = createWorkspace(ctx, { name: "eval", plan: "team" }).id;
const sourceIdOf = new Map<string, string>(); // document id or url -> corpus source id
const indexStarted = performance.now();
const asDocuments = sources.filter((_, i) => i % 2 === 0);
const asPages = sources.filter((_, i) => i % 2 === 1);
addLibraryDocuments(
  store,
  workspaceId,
  asDocuments.map((s) => ({ title: s.title, text: s.text })),
  ctx.clock(),
).forEach((doc, i) => {
  sourceIdOf.set(doc.id, (asDocuments[i] as CorpusSource).id);
});
upsertWebPages(
  store,
  asPages.map((s) => ({ url: `https://corpus.example/${s.id}`, title: s.title, text: s.text, fetchedAt: 0 })),
).forEach((page, i) => {
  sourceIdOf.set(page.url, (asPages[i] as CorpusSource).id);
});
const indexSeconds = (performance.now() - indexStarted) / 1000;

// --- run the checks ----------------------------------------------------------------------------------------
const index = openFingerprintIndex(store, workspaceId);
const detections = new Map<string, Alignment[]>();
const similarity = new Map<string, number>();
const checkMs: number[] = [];
for (const doc of documents) {
  const started = performance.now();
  const result = findPlagiarism(doc.text, index, { excludeQuotes: false }, params);
  checkMs.push(performance.now() - started);
  similarity.set(doc.id, result.similarity);
  detections.set(
    doc.id,
    result.sources.flatMap((source) =>
      source.matches.map((m) => ({
        doc: doc.id,
        start: m.start,
        end: m.end,
        source_id: sourceIdOf.get(source.document_id ?? source.url ?? "") ?? "?",
        source_start: m.source_start,
        source_end: m.source_end,
      })),
    ),
  );
}

// --- PAN measures ------------------------------------------------------------------------------------------
const overlap = (a0: number, a1: number, b0: number, b1: number) =>
  Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
const detects = (r: Alignment, s: Alignment) =>
  r.doc === s.doc &&
  r.source_id === s.source_id &&
  overlap(r.start, r.end, s.start, s.end) > 0 &&
  overlap(r.source_start, r.source_end, s.source_start, s.source_end) > 0;
const size = (a: Alignment) => a.end - a.start + (a.source_end - a.source_start);

/** Length of the union of intervals. */
function unionLength(intervals: Array<[number, number]>): number {
  const sorted = intervals.filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0]);
  let total = 0;
  let current: [number, number] | undefined;
  for (const [a, b] of sorted) {
    if (current !== undefined && a <= current[1]) current[1] = Math.max(current[1], b);
    else {
      if (current !== undefined) total += current[1] - current[0];
      current = [a, b];
    }
  }
  return total + (current === undefined ? 0 : current[1] - current[0]);
}

/** |union over others of (x ⊓ other)|: characters of x, on both sides, covered by the alignments that match it. */
function coveredChars(x: Alignment, others: Alignment[]): number {
  const suspicious: Array<[number, number]> = [];
  const source: Array<[number, number]> = [];
  for (const o of others) {
    suspicious.push([Math.max(x.start, o.start), Math.min(x.end, o.end)]);
    source.push([Math.max(x.source_start, o.source_start), Math.min(x.source_end, o.source_end)]);
  }
  return unionLength(suspicious) + unionLength(source);
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

function panMeasures(cases: Alignment[], found: Alignment[]) {
  const recall =
    cases.length === 0
      ? null
      : cases.reduce(
          (sum, s) =>
            sum +
            coveredChars(
              s,
              found.filter((r) => detects(r, s)),
            ) /
              size(s),
          0,
        ) / cases.length;
  const precision =
    found.length === 0
      ? null
      : found.reduce(
          (sum, r) =>
            sum +
            coveredChars(
              r,
              cases.filter((s) => detects(r, s)),
            ) /
              size(r),
          0,
        ) / found.length;
  const detected = cases.map((s) => found.filter((r) => detects(r, s)).length).filter((n) => n > 0);
  const granularity = detected.length === 0 ? 1 : detected.reduce((a, b) => a + b, 0) / detected.length;
  const p = precision ?? 0;
  const r = recall ?? 0;
  const f1 = p + r === 0 ? 0 : (2 * p * r) / (p + r);
  return {
    cases: cases.length,
    detections: found.length,
    cases_detected: detected.length,
    precision: precision === null ? null : round3(precision),
    recall: recall === null ? null : round3(recall),
    granularity: round3(granularity),
    plagdet: round3(f1 / Math.log2(1 + granularity)),
  };
}

/** Share (0..100) of a document's counted words inside any ground-truth case. */
function truthSimilarity(doc: SuspiciousDocument): number {
  const words = tokenizeWords(doc.text);
  if (words.length === 0) return 0;
  const inside = words.filter((w) => doc.cases.some((c) => w.start >= c.start && w.end <= c.end)).length;
  return (inside / words.length) * 100;
}

function similarityError(docs: SuspiciousDocument[]) {
  const errors = docs.map((d) => (similarity.get(d.id) ?? 0) - truthSimilarity(d));
  const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
  return {
    mean_abs: round3(mean(errors.map(Math.abs))),
    mean_signed: round3(mean(errors)),
    max_abs: round3(Math.max(0, ...errors.map(Math.abs))),
  };
}

const kinds = [...new Set(documents.map((d) => d.kind))].filter((k) => k !== "unrelated");
const byKind = Object.fromEntries(
  kinds.map((kind) => {
    const docs = documents.filter((d) => d.kind === kind);
    return [
      kind,
      {
        documents: docs.length,
        ...panMeasures(
          docs.flatMap((d) => d.cases),
          docs.flatMap((d) => detections.get(d.id) ?? []),
        ),
        similarity_error: similarityError(docs),
      },
    ];
  }),
);
const unrelated = documents.filter((d) => d.kind === "unrelated");
const falsePassages = unrelated.flatMap((d) => detections.get(d.id) ?? []);
const sortedMs = [...checkMs].sort((a, b) => a - b);
const percentile = (q: number) =>
  round3(sortedMs[Math.min(sortedMs.length - 1, Math.floor(q * sortedMs.length))] ?? 0);

console.log(
  JSON.stringify(
    {
      corpus: args.corpus,
      params,
      sources_indexed: sources.length,
      index_seconds: round3(indexSeconds),
      by_kind: byKind,
      unrelated: {
        documents: unrelated.length,
        false_passages: falsePassages.length,
        documents_with_false_passages: new Set(falsePassages.map((p) => p.doc)).size,
        max_similarity: Math.max(0, ...unrelated.map((d) => similarity.get(d.id) ?? 0)),
      },
      check_ms: {
        p50: percentile(0.5),
        p99: percentile(0.99),
        max: round3(sortedMs[sortedMs.length - 1] ?? 0),
      },
    },
    null,
    2,
  ),
);
store.close();
