/**
 * Derives the detector's compact English n-gram model (src/detection/english-lm.bin) from Debian's
 * `pocketsphinx-en-us` package (CMU Sphinx US English trigram LM, BSD-2-Clause, Carnegie Mellon University and
 * Alpha Cephei Inc.).
 *
 *   bun scripts/detector-derive-lm.ts            # downloads the .deb with apt-get into a temp dir
 *   bun scripts/detector-derive-lm.ts FILE.lm.bin # or reads an en-us.lm.bin you already have
 *
 * The package ships the model in Sphinx's "Trie Language Model" binary format (reverse trie: a word's node
 * leads to its histories). This script reads that format directly (sphinx_lm_convert's ARPA export aborts on
 * this file), keeps the 65,000 most frequent words, prunes n-grams that add little over their back-off estimate,
 * precomputes each context's expected log-probability and its variance (for the curvature feature), and writes
 * one little-endian binary file. Deterministic: same input, same bytes.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeLanguageModelFile, type LanguageModelTables } from "../src/detection/ngram-file.ts";

const TRIE_HEADER = "Trie Language Model";
/** Sphinx stores log-probabilities in base 1.0001; multiply by this to get natural logs. */
const SPHINX_LOG_TO_LN = Math.log(1.0001);
const MAX_VOCAB = 65_000;
/** N-grams kept after pruning: sized so the file stays near 10 MB (the binary embeds it). */
const MAX_BIGRAMS = 1_200_000;
const MAX_TRIGRAMS = 900_000;
const QUANT_BINS = 1 << 16;

function locateModel(): string {
  const given = process.argv[2];
  if (given) return given;
  const dir = mkdtempSync(join(tmpdir(), "textscan-lm-"));
  execFileSync("apt-get", ["download", "pocketsphinx-en-us"], { cwd: dir, stdio: "inherit" });
  const deb = readdirSync(dir).find((f) => f.endsWith(".deb"));
  if (!deb) throw new Error("apt-get download pocketsphinx-en-us produced no .deb");
  execFileSync("dpkg-deb", ["-x", join(dir, deb), join(dir, "root")]);
  const path = join(dir, "root", "usr", "share", "pocketsphinx", "model", "en-us", "en-us.lm.bin");
  if (!existsSync(path)) throw new Error(`no en-us.lm.bin in ${deb}`);
  return path;
}

function requiredBits(max: number): number {
  let bits = 0;
  for (let v = max; v > 0; v = Math.floor(v / 2)) bits++;
  return bits;
}

interface SphinxTrie {
  words: string[];
  unigramLogProb: Float64Array;
  unigramBackoff: Float64Array;
  /** Bigram "h w": for predicted word w, entries [next[w], next[w+1]) of the middle array keyed by h. */
  unigramNext: Uint32Array;
  middle: { read(index: number): { word: number; logProb: number; backoff: number; next: number } };
  longest: { read(index: number): { word: number; logProb: number } };
}

/** Reads Sphinx's lm_trie binary layout (sphinxbase lm_trie.c, lm_trie_quant.c, bitarr.c). */
function readSphinxTrie(bytes: Uint8Array): SphinxTrie {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (new TextDecoder().decode(bytes.subarray(0, TRIE_HEADER.length)) !== TRIE_HEADER) {
    throw new Error("not a Sphinx trie language model");
  }
  let at = TRIE_HEADER.length;
  const order = bytes[at] ?? 0;
  at += 1;
  if (order !== 3) throw new Error(`expected a trigram model, got order ${order}`);
  const counts = [0, 1, 2].map((i) => view.getUint32(at + 4 * i, true));
  at += 12;
  at += 4; // quantiser header (unused int)
  const table = (i: number) =>
    new Float32Array(bytes.slice(at + i * QUANT_BINS * 4, at + (i + 1) * QUANT_BINS * 4).buffer);
  const bigramProbBins = table(0);
  const bigramBackoffBins = table(1);
  const trigramProbBins = table(2);
  at += 3 * QUANT_BINS * 4;
  const [v, nBigram, nTrigram] = counts as [number, number, number];
  const unigramLogProb = new Float64Array(v);
  const unigramBackoff = new Float64Array(v);
  const unigramNext = new Uint32Array(v + 1);
  for (let i = 0; i <= v; i++) {
    if (i < v) {
      unigramLogProb[i] = view.getFloat32(at, true) * SPHINX_LOG_TO_LN;
      unigramBackoff[i] = view.getFloat32(at + 4, true) * SPHINX_LOG_TO_LN;
    }
    unigramNext[i] = view.getUint32(at + 8, true);
    at += 12;
  }
  const wordBits = requiredBits(v);
  const nextBits = requiredBits(nTrigram);
  const middleBits = wordBits + 32 + nextBits;
  const middleStart = at;
  at += Math.floor(((1 + nBigram) * middleBits + 7) / 8) + 8;
  const longestBits = wordBits + 16;
  const longestStart = at;
  at += Math.floor(((1 + nTrigram) * longestBits + 7) / 8) + 8;
  /** bitarr_read_int25: a little-endian uint32 at bit offset >> 3, shifted by offset & 7, masked. */
  const readBits = (bitOffset: number, length: number): number => {
    const word = view.getUint32(Math.floor(bitOffset / 8), true);
    return (word >>> (bitOffset % 8)) & ((1 << length) - 1);
  };
  const middle = {
    read(index: number) {
      const base = middleStart * 8 + index * middleBits;
      const word = readBits(base, wordBits);
      const backoff = (bigramBackoffBins[readBits(base + wordBits, 16)] ?? 0) * SPHINX_LOG_TO_LN;
      const logProb = (bigramProbBins[readBits(base + wordBits + 16, 16)] ?? 0) * SPHINX_LOG_TO_LN;
      const next = readBits(base + wordBits + 32, nextBits);
      return { word, logProb, backoff, next };
    },
  };
  const longest = {
    read(index: number) {
      const base = longestStart * 8 + index * longestBits;
      return {
        word: readBits(base, wordBits),
        logProb: (trigramProbBins[readBits(base + wordBits, 16)] ?? 0) * SPHINX_LOG_TO_LN,
      };
    },
  };
  const stringBytes = view.getInt32(at, true);
  at += 4;
  const words = new TextDecoder()
    .decode(bytes.subarray(at, at + stringBytes))
    .split("\0")
    .slice(0, v);
  if (words.length !== v || at + stringBytes !== bytes.length) throw new Error("trie layout mismatch");
  return { words, unigramLogProb, unigramBackoff, unigramNext, middle, longest };
}

/** Words we can meet in tokenised text: lower-case letters with inner apostrophes, hyphens or periods. */
const USABLE_WORD = /^(?:<s>|'?[a-z][a-z'.-]*)$/;

function derive(trie: SphinxTrie): LanguageModelTables {
  const candidates = trie.words
    .map((w, id) => ({ w, id, p: trie.unigramLogProb[id] ?? -99 }))
    .filter((c) => USABLE_WORD.test(c.w) && (c.p > -90 || c.w === "<s>"))
    .sort((a, b) => b.p - a.p || (a.w < b.w ? -1 : 1))
    .slice(0, MAX_VOCAB);
  const newId = new Map<number, number>();
  candidates.forEach((c, i) => {
    newId.set(c.id, i);
  });
  const vocab = candidates.map((c) => c.w);
  const n = vocab.length;
  const unigramLogProb = new Float32Array(n);
  const unigramBackoff = new Float32Array(n);
  candidates.forEach((c, i) => {
    unigramLogProb[i] = c.w === "<s>" ? -99 : (trie.unigramLogProb[c.id] ?? -99);
    unigramBackoff[i] = trie.unigramBackoff[c.id] ?? 0;
  });

  // Collect every bigram (history h -> word w) and trigram (h2 h -> w) over the kept vocabulary.
  const allBigrams: Array<{ h: number; w: number; logProb: number; backoff: number }> = [];
  const trigrams: Array<{ h2: number; h: number; w: number; logProb: number }> = [];
  const bigramLogProb = new Map<number, number>(); // key h * 65536 + w
  const bigramBackoff = new Map<number, number>();
  for (let oldW = 0; oldW < trie.words.length; oldW++) {
    const w = newId.get(oldW);
    if (w === undefined) continue;
    for (let m = trie.unigramNext[oldW] ?? 0; m < (trie.unigramNext[oldW + 1] ?? 0); m++) {
      const entry = trie.middle.read(m);
      const h = newId.get(entry.word);
      if (h === undefined) continue;
      bigramLogProb.set(h * 65536 + w, entry.logProb);
      bigramBackoff.set(h * 65536 + w, entry.backoff);
      allBigrams.push({ h, w, logProb: entry.logProb, backoff: entry.backoff });
      const next = trie.middle.read(m + 1).next;
      for (let t = entry.next; t < next; t++) {
        const tri = trie.longest.read(t);
        const h2 = newId.get(tri.word);
        if (h2 !== undefined) trigrams.push({ h2, h, w, logProb: tri.logProb });
      }
    }
  }
  // Weighted-difference pruning (after Stolcke 1998): an n-gram's worth is how often its history occurs times
  // its probability times how far it is from its back-off estimate; the most valuable ones are kept.
  const historyWeight = (h: number) => Math.exp(unigramLogProb[h] ?? -99);
  const keptTrigrams = topByWorth(trigrams, MAX_TRIGRAMS, (t) => {
    const backoff = bigramBackoff.get(t.h2 * 65536 + t.h) ?? 0;
    const lower =
      bigramLogProb.get(t.h * 65536 + t.w) ?? (unigramBackoff[t.h] ?? 0) + (unigramLogProb[t.w] ?? 0);
    const historyLogProb = (unigramLogProb[t.h2] ?? -99) + (bigramLogProb.get(t.h2 * 65536 + t.h) ?? -99);
    return Math.exp(historyLogProb + t.logProb) * Math.abs(t.logProb - (backoff + lower));
  });
  // Bigrams that are the history of a kept trigram stay regardless (their back-off weight is needed).
  const trigramHistories = new Set(keptTrigrams.map((t) => t.h2 * 65536 + t.h));
  const bigrams = topByWorth(allBigrams, MAX_BIGRAMS, (b) =>
    trigramHistories.has(b.h * 65536 + b.w)
      ? Number.POSITIVE_INFINITY
      : historyWeight(b.h) *
        (Math.exp(b.logProb) *
          Math.abs(b.logProb - ((unigramBackoff[b.h] ?? 0) + (unigramLogProb[b.w] ?? 0))) +
          Math.exp(unigramLogProb[b.w] ?? -99) * Math.abs(b.backoff)),
  );
  bigrams.sort((a, b) => a.h - b.h || a.w - b.w);
  return { vocab, unigramLogProb, unigramBackoff, bigrams, trigrams: keptTrigrams };
}

/** The `limit` items of highest worth, in their original order (ties broken by position: deterministic). */
function topByWorth<T>(items: T[], limit: number, worth: (item: T) => number): T[] {
  if (items.length <= limit) return items;
  const ranked = items.map((item, i) => ({ i, v: worth(item) })).sort((a, b) => b.v - a.v || a.i - b.i);
  const keep = new Set(ranked.slice(0, limit).map((r) => r.i));
  return items.filter((_, i) => keep.has(i));
}

function main(): void {
  const path = locateModel();
  const trie = readSphinxTrie(new Uint8Array(readFileSync(path)));
  const tables = derive(trie);
  const bytes = encodeLanguageModelFile(tables, {
    source: "Debian pocketsphinx-en-us (CMU Sphinx US English trigram LM), BSD-2-Clause",
    maxVocab: MAX_VOCAB,
    maxBigrams: MAX_BIGRAMS,
    maxTrigrams: MAX_TRIGRAMS,
  });
  const out = join(import.meta.dir, "..", "src", "detection", "english-lm.bin");
  writeFileSync(out, bytes);
  console.log(
    JSON.stringify({
      wrote: out,
      bytes: bytes.length,
      vocab: tables.vocab.length,
      bigrams: tables.bigrams.length,
      trigrams: tables.trigrams.length,
    }),
  );
}

if (import.meta.main) main();
