import { FINGERPRINT_K, WINNOW_WINDOW } from "./params.ts";

/**
 * Word k-gram fingerprints with 64-bit hashes. A hash is computed as two independent 32-bit lanes (fast integer
 * arithmetic in JS) and handed out as a signed 64-bit bigint, the type SQLite stores in an INTEGER column.
 */

/** Two 32-bit lanes per k-gram: `high[i]`, `low[i]` describe the k-gram starting at term i. */
export interface KgramHashes {
  high: Uint32Array;
  low: Uint32Array;
}

function fmix32(h: number): number {
  let x = h ^ (h >>> 16);
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/** Two independent 32-bit hashes of a term (FNV-1a style over UTF-16 code units, then avalanche). */
function hashTerm(term: string, lanes: Uint32Array, at: number): void {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < term.length; i++) {
    const c = term.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  lanes[at] = fmix32(a ^ term.length);
  lanes[at + 1] = fmix32(b + term.length);
}

export function kgramHashes(terms: readonly string[], k = FINGERPRINT_K): KgramHashes {
  const count = Math.max(0, terms.length - k + 1);
  const termLanes = new Uint32Array(terms.length * 2);
  for (let i = 0; i < terms.length; i++) hashTerm(terms[i] as string, termLanes, i * 2);
  const high = new Uint32Array(count);
  const low = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    let h1 = 0x2545f491;
    let h2 = 0x6c8e9cf5;
    for (let t = 0; t < k; t++) {
      // Order matters: each step multiplies and rotates before mixing in the next term.
      h1 = Math.imul(h1 ^ (termLanes[(i + t) * 2] as number), 0x9e3779b1);
      h1 = (h1 << 13) | (h1 >>> 19);
      h2 = Math.imul(h2 ^ (termLanes[(i + t) * 2 + 1] as number), 0x85ebca77);
      h2 = (h2 << 17) | (h2 >>> 15);
    }
    high[i] = fmix32(h1 ^ k);
    low[i] = fmix32(h2 + k);
  }
  return { high, low };
}

export function toBigint(high: number, low: number): bigint {
  return BigInt.asIntN(64, (BigInt(high) << 32n) | BigInt(low));
}

function lessOrEqual(hashes: KgramHashes, a: number, b: number): boolean {
  const ha = hashes.high[a] as number;
  const hb = hashes.high[b] as number;
  return ha < hb || (ha === hb && (hashes.low[a] as number) <= (hashes.low[b] as number));
}

/**
 * Winnowing (Schleimer, Wilkerson, Aiken 2003): the minimum hash of every window of `window` consecutive
 * k-grams, the rightmost on ties, each position kept once. What the index stores for a source text.
 */
export function winnow(hashes: KgramHashes, window = WINNOW_WINDOW): bigint[] {
  const n = hashes.high.length;
  if (n === 0) return [];
  const span = Math.min(window, n);
  const picked = new Set<bigint>();
  let lastPick = -1;
  for (let start = 0; start + span <= n; start++) {
    let min = start;
    for (let i = start + 1; i < start + span; i++) if (lessOrEqual(hashes, i, min)) min = i;
    if (min !== lastPick) {
      picked.add(toBigint(hashes.high[min] as number, hashes.low[min] as number));
      lastPick = min;
    }
  }
  return [...picked];
}
