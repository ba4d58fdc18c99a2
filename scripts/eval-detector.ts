/**
 * Evaluates the detector recipe and prints one JSON document.
 *
 *   bun scripts/eval-detector.ts            # everything (about 10 minutes on 2 cores)
 *   bun scripts/eval-detector.ts --quick    # grouped cross-validation and sentences only
 *
 * - groupedCv: 5 folds by hash of `group` (a group never straddles folds). AUROC and TPR at 1% FPR overall,
 *   for chat-tuned and base generators apart, per generator and per domain (each generator against the human
 *   texts of its own domains, so domain differences cannot help). `humanFprAtAiVerdict`: share of human texts
 *   whose human_score < 35, with calibration cross-fitted (fitted on the other folds' out-of-fold logits).
 *   `simpleVocabularyHumanFpr`: the same on the quarter of human texts with the shortest words and the least
 *   varied vocabulary, a stand-in for non-native writers (the data set has none).
 * - leaveOneGeneratorOut / leaveOneDomainOut: train without a generator (or domain), test on it against
 *   held-out human texts of its domains.
 * - sentences: grouped out-of-fold sentence AUROC on sentences.jsonl.
 * - speed: model load and p50 latency of the engine (scripts/bench-detect-engine.ts measures in full).
 */
import { analyseDocument } from "../src/detection/analysis.ts";
import { sigmoid } from "../src/detection/classifier.ts";
import { loadEnglishLanguageModel } from "../src/detection/english-lm.ts";
import { documentFeatureNames } from "../src/detection/features.ts";
import { detect, loadDetector } from "../src/detection/index.ts";
import {
  balancedWeights,
  CHAT_GENERATORS,
  type FeaturisedDocument,
  featurise,
  loadDocuments,
  loadSentenceDocuments,
} from "./detector-dataset.ts";
import { auroc, foldOf, tprAtFpr } from "./detector-logistic.ts";
import {
  blendedLogit,
  calibrate,
  DOCUMENT_AI_PROBABILITY,
  FOLDS,
  outOfFold,
  sentenceDataset,
  sentenceOutOfFold,
  trainDocumentClassifier,
} from "./detector-training.ts";

const quick = process.argv.includes("--quick");

function r4(x: number): number {
  return Number.isFinite(x) ? Math.round(x * 10000) / 10000 : Number.NaN;
}

function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

interface Scored {
  doc: FeaturisedDocument;
  logit: number;
}

function rankMetrics(items: Scored[]): { n: number; auroc: number; tprAt1Fpr: number } {
  const scores = items.map((s) => s.logit);
  const labels = items.map((s) => s.doc.label);
  return { n: items.length, auroc: r4(auroc(scores, labels)), tprAt1Fpr: r4(tprAtFpr(scores, labels, 0.01)) };
}

/** A generator's texts against the human texts of the same domains. */
function generatorSlice(items: Scored[], generator: string): Scored[] {
  const domains = new Set(
    items.filter((s) => s.doc.row.generator === generator).map((s) => s.doc.row.domain),
  );
  return items.filter(
    (s) => s.doc.row.generator === generator || (s.doc.label === 0 && domains.has(s.doc.row.domain)),
  );
}

type OutOfFold = ReturnType<typeof outOfFold>;

function groupedCv(docs: FeaturisedDocument[], oof: OutOfFold, names: string[]) {
  const items: Scored[] = docs.map((doc, i) => ({ doc, logit: oof.logits[i] ?? 0 }));
  const labels = docs.map((d) => d.label);
  const weights = balancedWeights(docs.map((d) => d.row));
  // Cross-fitted calibration: fold f is calibrated on the other folds' out-of-fold logits.
  const probability = new Array<number>(docs.length).fill(0);
  for (let f = 0; f < FOLDS; f++) {
    const other = docs.map((_, i) => i).filter((i) => oof.folds[i] !== f);
    const c = calibrate(
      other.map((i) => oof.logits[i] ?? 0),
      other.map((i) => labels[i] ?? 0),
      other.map((i) => weights[i] ?? 0),
    );
    docs.forEach((_, i) => {
      if (oof.folds[i] === f) probability[i] = sigmoid(c.slope * (oof.logits[i] ?? 0) + c.bias);
    });
  }
  const humans = docs.map((_, i) => i).filter((i) => labels[i] === 0);
  const flagged = (idx: number[]) =>
    r4(idx.filter((i) => (probability[i] ?? 0) >= DOCUMENT_AI_PROBABILITY).length / Math.max(1, idx.length));
  const featureIndex = (name: string) => names.indexOf(name);
  const wordLength = featureIndex("mean_word_length");
  const mattr = featureIndex("mattr");
  const plainness = (i: number) =>
    (docs[i]?.analysis.features[wordLength] ?? 0) / 5 + (docs[i]?.analysis.features[mattr] ?? 0);
  const simple = [...humans]
    .sort((a, b) => plainness(a) - plainness(b))
    .slice(0, Math.floor(humans.length / 4));
  const generators = [...new Set(docs.map((d) => d.row.generator))].filter((g) => g !== "human").sort();
  const domains = [...new Set(docs.map((d) => d.row.domain))].sort();
  return {
    overall: rankMetrics(items),
    chat: rankMetrics(items.filter((s) => s.doc.label === 0 || CHAT_GENERATORS.has(s.doc.row.generator))),
    base: rankMetrics(items.filter((s) => s.doc.label === 0 || !CHAT_GENERATORS.has(s.doc.row.generator))),
    perGenerator: Object.fromEntries(generators.map((g) => [g, rankMetrics(generatorSlice(items, g))])),
    perDomain: Object.fromEntries(
      domains.map((d) => [d, rankMetrics(items.filter((s) => s.doc.row.domain === d))]),
    ),
    humanFprAtAiVerdict: flagged(humans),
    humanFprAtAiVerdictPerDomain: Object.fromEntries(
      domains.map((d) => [d, flagged(humans.filter((i) => docs[i]?.row.domain === d))]),
    ),
    aiTprAtAiVerdict: flagged(docs.map((_, i) => i).filter((i) => labels[i] === 1)),
    simpleVocabularyHumanFpr: { n: simple.length, fpr: flagged(simple) },
  };
}

/** Trains on everything but the test texts and `excluded` ones (and any group they share), tests on them. */
function holdOut(
  docs: FeaturisedDocument[],
  names: string[],
  isTest: (d: FeaturisedDocument) => boolean,
  isExcluded: (d: FeaturisedDocument) => boolean,
) {
  const test = docs.filter(isTest);
  const testGroups = new Set(test.map((d) => d.row.group));
  const train = docs.filter((d) => !testGroups.has(d.row.group) && !isExcluded(d) && !isTest(d));
  const model = trainDocumentClassifier(train, names);
  const scored = test.map((doc) => ({ doc, logit: blendedLogit(model, doc.analysis) }));
  const chat = scored.filter((s) => s.doc.label === 0 || CHAT_GENERATORS.has(s.doc.row.generator));
  const base = scored.filter((s) => s.doc.label === 0 || !CHAT_GENERATORS.has(s.doc.row.generator));
  return {
    ...rankMetrics(scored),
    chatAuroc: chat.some((s) => s.doc.label === 1) ? rankMetrics(chat).auroc : null,
    baseAuroc: base.some((s) => s.doc.label === 1) ? rankMetrics(base).auroc : null,
  };
}

/** A generator's texts plus the held-out fifth of human texts of its domains; nothing of it is trained on. */
function leaveGeneratorOut(docs: FeaturisedDocument[], names: string[], generator: string) {
  const domains = new Set(docs.filter((d) => d.row.generator === generator).map((d) => d.row.domain));
  return holdOut(
    docs,
    names,
    (d) =>
      d.row.generator === generator ||
      (d.label === 0 && domains.has(d.row.domain) && foldOf(d.row.group, FOLDS) === 0),
    (d) => d.row.generator === generator,
  );
}

/** A whole domain (its human and machine texts) is left out of training and tested on. */
function leaveDomainOut(docs: FeaturisedDocument[], names: string[], domain: string) {
  return holdOut(
    docs,
    names,
    (d) => d.row.domain === domain,
    (d) => d.row.domain === domain,
  );
}

function mean(values: number[]): number {
  const finite = values.filter(Number.isFinite);
  return r4(finite.reduce((a, b) => a + b, 0) / Math.max(1, finite.length));
}

function sentences(
  docs: FeaturisedDocument[],
  oof: OutOfFold,
  lm: ReturnType<typeof loadEnglishLanguageModel>,
) {
  const foldById = new Map(docs.map((d) => [d.row.id, foldOf(d.row.group, FOLDS)] as const));
  const groupById = new Map(docs.map((d) => [d.row.id, d.row.group] as const));
  const fallback = oof.models[0] as OutOfFold["models"][number];
  const rows = loadSentenceDocuments();
  const texts = rows.map((row) => ({
    id: row.id,
    group: groupById.get(row.id) ?? row.id,
    text: row.text,
    analysis: analyseDocument(row.text, lm),
    aiStart: row.ai_start,
  }));
  const labels = docs.map((d) => d.label);
  const calibration = calibrate(oof.logits, labels, balancedWeights(docs.map((d) => d.row)));
  const data = sentenceDataset(
    texts,
    (id) => {
      const fold = foldById.get(id);
      return fold === undefined ? fallback : (oof.models[fold] ?? fallback);
    },
    calibration,
    lm,
  );
  const logits = sentenceOutOfFold(data);
  const generatorOfRow: string[] = [];
  texts.forEach((t, i) => {
    for (let k = 0; k < t.analysis.spans.length; k++) generatorOfRow.push(rows[i]?.generator ?? "");
  });
  const generators = [...new Set(rows.map((r) => r.generator))].filter((g) => g !== "human").sort();
  return {
    n: data.rows.length,
    auroc: r4(auroc(logits, data.labels)),
    perGenerator: Object.fromEntries(
      generators.map((g) => {
        const idx = logits.map((_, i) => i).filter((i) => generatorOfRow[i] === g);
        return [
          g,
          r4(
            auroc(
              idx.map((i) => logits[i] ?? 0),
              idx.map((i) => data.labels[i] ?? 0),
            ),
          ),
        ];
      }),
    ),
  };
}

function speed() {
  const started = performance.now();
  loadDetector();
  const loadMs = performance.now() - started;
  const essay = loadDocuments()
    .filter((d) => d.label === "human")
    .map((d) => d.text)
    .join("\n\n");
  const words = essay.split(/\s+/);
  const time = (text: string, runs: number) => {
    detect(text);
    const t: number[] = [];
    for (let i = 0; i < runs; i++) {
      const s = performance.now();
      detect(text);
      t.push(performance.now() - s);
    }
    t.sort((a, b) => a - b);
    return r4(t[Math.floor(t.length / 2)] ?? 0);
  };
  return {
    loadMs: r4(loadMs),
    p50Ms1000Words: time(words.slice(0, 1000).join(" "), 30),
    p50Ms25000Words: time(words.slice(0, 25_000).join(" "), 5),
  };
}

function main(): void {
  const started = performance.now();
  const lm = loadEnglishLanguageModel();
  const names = documentFeatureNames(lm);
  const docs = featurise(loadDocuments(), lm);
  log(`featurised ${docs.length} documents`);
  const oof = outOfFold(docs, names, (f) => log(`cv fold ${f + 1}/${FOLDS}`));
  const report: Record<string, unknown> = { groupedCv: groupedCv(docs, oof, names) };
  if (!quick) {
    const generators = [...new Set(docs.map((d) => d.row.generator))].filter((g) => g !== "human").sort();
    const logo: Record<string, unknown> = {};
    for (const g of generators) {
      logo[g] = leaveGeneratorOut(docs, names, g);
      log(`leave-one-generator-out ${g}`);
    }
    const aurocs = (keys: string[]) => keys.map((k) => (logo[k] as { auroc: number }).auroc);
    report.leaveOneGeneratorOut = {
      perGenerator: logo,
      meanAuroc: mean(aurocs(generators)),
      meanAurocChat: mean(aurocs(generators.filter((g) => CHAT_GENERATORS.has(g)))),
      meanAurocBase: mean(aurocs(generators.filter((g) => !CHAT_GENERATORS.has(g)))),
    };
    const domains = [...new Set(docs.map((d) => d.row.domain))].sort();
    const lodo: Record<string, unknown> = {};
    for (const domain of domains) {
      lodo[domain] = leaveDomainOut(docs, names, domain);
      log(`leave-one-domain-out ${domain}`);
    }
    const lodoField = (field: "auroc" | "chatAuroc" | "baseAuroc") =>
      mean(domains.map((d) => (lodo[d] as Record<string, number | null>)[field] ?? Number.NaN));
    report.leaveOneDomainOut = {
      perDomain: lodo,
      meanAuroc: lodoField("auroc"),
      meanChatAuroc: lodoField("chatAuroc"),
      meanBaseAuroc: lodoField("baseAuroc"),
    };
  }
  report.sentences = sentences(docs, oof, lm);
  report.speed = speed();
  report.seconds = r4((performance.now() - started) / 1000);
  console.log(JSON.stringify(report, null, 2));
}

if (import.meta.main) main();
