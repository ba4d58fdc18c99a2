/**
 * The compact n-gram file format (english-lm.bin) and its in-memory reader. Loading wraps typed-array views
 * around one buffer (no parsing of n-grams), so start-up stays in the low milliseconds.
 *
 * Layout (little-endian): "TSLM", u32 format version, u32 meta length, meta JSON, then 4-byte-aligned sections
 * named in meta.sections: vocab (UTF-8, newline-separated, id = line), per-word Float32 tables, bigram CSR
 * (offsets by history, Uint16 next words, Uint8 quantised log-probabilities, Int8 quantised back-offs), and
 * trigrams as sorted Uint32 hashes of (h2, h, w) with Uint8 log-probabilities.
 */

const MAGIC = "TSLM";
const FORMAT_VERSION = 1;
/** Quantisation steps (natural log). */
export const LOG_PROB_STEP = 0.1;
export const BACKOFF_STEP = 0.05;

export interface LanguageModelTables {
  vocab: string[];
  unigramLogProb: Float32Array;
  unigramBackoff: Float32Array;
  /** Sorted by history then word. */
  bigrams: Array<{ h: number; w: number; logProb: number; backoff: number }>;
  trigrams: Array<{ h2: number; h: number; w: number; logProb: number }>;
}

interface Meta {
  vocabSize: number;
  bigrams: number;
  trigrams: number;
  logProbStep: number;
  backoffStep: number;
  /** Expected log-probability and its variance when the context is empty (unigram distribution). */
  unigramContext: [number, number];
  sections: Record<string, [number, number]>;
  provenance: Record<string, unknown>;
}

/** 32-bit hash of a trigram's word ids; collisions among stored trigrams are dropped at encoding. */
export function trigramKey(h2: number, h: number, w: number): number {
  let x = Math.imul(h2 + 1, 0x9e3779b1) ^ Math.imul(h + 1, 0x85ebca77) ^ Math.imul(w + 1, 0xc2b2ae3d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x2c1b3c6d);
  x ^= x >>> 12;
  return x >>> 0;
}

export function quantiseLogProb(logProb: number): number {
  return Math.min(255, Math.max(0, Math.round(-logProb / LOG_PROB_STEP)));
}

export function quantiseBackoff(backoff: number): number {
  return Math.min(127, Math.max(-127, Math.round(backoff / BACKOFF_STEP)));
}

/**
 * Expected log-probability (and variance) of the next word after each history, under the pruned model as the
 * reader will evaluate it: explicit bigrams, and back-off weight times unigram for every other word.
 */
function contextExpectations(t: LanguageModelTables): {
  expected: Float32Array;
  variance: Float32Array;
  unigram: [number, number];
} {
  const n = t.vocab.length;
  let u = 0;
  let s = 0;
  let q = 0;
  for (let w = 0; w < n; w++) {
    const l = t.unigramLogProb[w] ?? -99;
    const p = Math.exp(l);
    u += p;
    s += p * l;
    q += p * l * l;
  }
  const expected = new Float32Array(n);
  const variance = new Float32Array(n);
  let i = 0;
  for (let h = 0; h < n; h++) {
    let mass = 0;
    let e1 = 0;
    let e2 = 0;
    let uB = 0;
    let sB = 0;
    let qB = 0;
    for (; i < t.bigrams.length && t.bigrams[i]?.h === h; i++) {
      const b = t.bigrams[i] as { w: number; logProb: number };
      const l = dequantiseLogProb(quantiseLogProb(b.logProb));
      const p = Math.exp(l);
      mass += p;
      e1 += p * l;
      e2 += p * l * l;
      const lu = t.unigramLogProb[b.w] ?? -99;
      const pu = Math.exp(lu);
      uB += pu;
      sB += pu * lu;
      qB += pu * lu * lu;
    }
    const bo = quantiseBackoff(t.unigramBackoff[h] ?? 0) * BACKOFF_STEP;
    const eb = Math.exp(bo);
    mass += eb * (u - uB);
    e1 += eb * (bo * (u - uB) + (s - sB));
    e2 += eb * (bo * bo * (u - uB) + 2 * bo * (s - sB) + (q - qB));
    const mean = e1 / mass;
    expected[h] = mean;
    variance[h] = Math.max(0, e2 / mass - mean * mean);
  }
  const mean = s / u;
  return { expected, variance, unigram: [mean, Math.max(0, q / u - mean * mean)] };
}

function dequantiseLogProb(q: number): number {
  return -q * LOG_PROB_STEP;
}

export function encodeLanguageModelFile(
  t: LanguageModelTables,
  provenance: Record<string, unknown>,
): Uint8Array {
  const n = t.vocab.length;
  if (n > 65536) throw new Error("vocabulary must fit 16-bit ids");
  const { expected, variance, unigram } = contextExpectations(t);
  const bigramOffsets = new Uint32Array(n + 1);
  const bigramWords = new Uint16Array(t.bigrams.length);
  const bigramLogProb = new Uint8Array(t.bigrams.length);
  const bigramBackoff = new Int8Array(t.bigrams.length);
  t.bigrams.forEach((b, i) => {
    bigramWords[i] = b.w;
    bigramLogProb[i] = quantiseLogProb(b.logProb);
    bigramBackoff[i] = quantiseBackoff(b.backoff);
    bigramOffsets[b.h + 1] = i + 1;
  });
  for (let h = 1; h <= n; h++) bigramOffsets[h] = Math.max(bigramOffsets[h] ?? 0, bigramOffsets[h - 1] ?? 0);
  const keyed = t.trigrams
    .map((x) => ({ key: trigramKey(x.h2, x.h, x.w), q: quantiseLogProb(x.logProb) }))
    .sort((a, b) => a.key - b.key || a.q - b.q);
  const unique = keyed.filter((x, i) => keyed[i - 1]?.key !== x.key && keyed[i + 1]?.key !== x.key);
  const trigramKeys = Uint32Array.from(unique.map((x) => x.key));
  const trigramLogProb = Uint8Array.from(unique.map((x) => x.q));

  const sections: Array<[string, Uint8Array]> = [
    ["vocab", new TextEncoder().encode(t.vocab.join("\n"))],
    ["unigramLogProb", bytesOf(t.unigramLogProb)],
    ["unigramBackoff", bytesOf(t.unigramBackoff)],
    ["contextExpected", bytesOf(expected)],
    ["contextVariance", bytesOf(variance)],
    ["bigramOffsets", bytesOf(bigramOffsets)],
    ["trigramKeys", bytesOf(trigramKeys)],
    ["bigramWords", bytesOf(bigramWords)],
    ["bigramLogProb", bytesOf(bigramLogProb)],
    ["bigramBackoff", bytesOf(bigramBackoff)],
    ["trigramLogProb", bytesOf(trigramLogProb)],
  ];
  const placed: Record<string, [number, number]> = {};
  let offset = 0;
  for (const [name, bytes] of sections) {
    placed[name] = [offset, bytes.length];
    offset = align4(offset + bytes.length);
  }
  const meta: Meta = {
    vocabSize: n,
    bigrams: t.bigrams.length,
    trigrams: trigramKeys.length,
    logProbStep: LOG_PROB_STEP,
    backoffStep: BACKOFF_STEP,
    unigramContext: unigram,
    sections: placed,
    provenance,
  };
  const metaBytes = new TextEncoder().encode(JSON.stringify(meta));
  const headerLength = align4(12 + metaBytes.length);
  const out = new Uint8Array(headerLength + offset);
  out.set(new TextEncoder().encode(MAGIC), 0);
  const view = new DataView(out.buffer);
  view.setUint32(4, FORMAT_VERSION, true);
  view.setUint32(8, metaBytes.length, true);
  out.set(metaBytes, 12);
  for (const [name, bytes] of sections) out.set(bytes, headerLength + (placed[name]?.[0] ?? 0));
  return out;
}

function bytesOf(a: ArrayBufferView): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

function align4(x: number): number {
  return (x + 3) & ~3;
}

/** The decoded tables, as views over the file's bytes. */
export interface NgramTables {
  wordIds: Map<string, number>;
  sentenceStart: number;
  unigramLogProb: Float32Array;
  unigramBackoff: Float32Array;
  contextExpected: Float32Array;
  contextVariance: Float32Array;
  unigramContext: [number, number];
  bigramOffsets: Uint32Array;
  bigramWords: Uint16Array;
  bigramLogProb: Uint8Array;
  bigramBackoff: Int8Array;
  trigramKeys: Uint32Array;
  trigramLogProb: Uint8Array;
  provenance: Record<string, unknown>;
}

export function decodeLanguageModelFile(input: Uint8Array): NgramTables {
  // Typed-array views need 4-byte alignment of the buffer itself.
  const bytes = input.byteOffset % 4 === 0 ? input : input.slice();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (
    new TextDecoder().decode(bytes.subarray(0, 4)) !== MAGIC ||
    view.getUint32(4, true) !== FORMAT_VERSION
  ) {
    throw new Error("english-lm.bin: unknown format");
  }
  const metaLength = view.getUint32(8, true);
  const meta = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + metaLength))) as Meta;
  const base = bytes.byteOffset + align4(12 + metaLength);
  const section = (name: string): [number, number] => {
    const s = meta.sections[name];
    if (!s) throw new Error(`english-lm.bin: missing section ${name}`);
    return [base + s[0], s[1]];
  };
  const f32 = (name: string) => {
    const [o, l] = section(name);
    return new Float32Array(bytes.buffer, o, l / 4);
  };
  const [vo, vl] = section("vocab");
  const vocab = new TextDecoder().decode(new Uint8Array(bytes.buffer, vo, vl)).split("\n");
  const wordIds = new Map<string, number>();
  vocab.forEach((w, i) => {
    wordIds.set(w, i);
  });
  const [bo, bl] = section("bigramOffsets");
  const [tk, tkl] = section("trigramKeys");
  const [bw, bwl] = section("bigramWords");
  const [bp, bpl] = section("bigramLogProb");
  const [bb, bbl] = section("bigramBackoff");
  const [tp, tpl] = section("trigramLogProb");
  return {
    wordIds,
    sentenceStart: wordIds.get("<s>") ?? -1,
    unigramLogProb: f32("unigramLogProb"),
    unigramBackoff: f32("unigramBackoff"),
    contextExpected: f32("contextExpected"),
    contextVariance: f32("contextVariance"),
    unigramContext: meta.unigramContext,
    bigramOffsets: new Uint32Array(bytes.buffer, bo, bl / 4),
    bigramWords: new Uint16Array(bytes.buffer, bw, bwl / 2),
    bigramLogProb: new Uint8Array(bytes.buffer, bp, bpl),
    bigramBackoff: new Int8Array(bytes.buffer, bb, bbl),
    trigramKeys: new Uint32Array(bytes.buffer, tk, tkl / 4),
    trigramLogProb: new Uint8Array(bytes.buffer, tp, tpl),
    provenance: meta.provenance,
  };
}
