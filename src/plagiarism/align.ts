import type { EngineParams } from "./params.ts";

/**
 * Passage alignment between the submitted text and one source, over folded terms:
 * 1. seeds: every exact match of `seedLength` consecutive terms;
 * 2. chaining: seeds that follow each other on both sides within `maxGap` terms (with at most `maxSkew` more
 *    on one side) form one fragment, which bridges substituted, inserted and deleted words;
 * 3. exact extension of each fragment's edges;
 * 4. merging of neighbouring fragments whose source ranges are close (reordered sentences of one passage),
 *    and removal of a fragment overlapped by a stronger one (a source that repeats itself);
 * 5. dropping fragments that are too short or mostly bridged rather than matched.
 */

/** Half-open term ranges: terms [start, end) of the submitted text match terms [sourceStart, sourceEnd). */
export interface AlignedPassage {
  start: number;
  end: number;
  sourceStart: number;
  sourceEnd: number;
  /** Terms of the submitted range that lie inside exact seeds. */
  covered: number;
}

/** Interned terms of the submitted text and where each seed (run of `seedLength` terms) occurs in it. */
export interface QuerySeeds {
  ids: Int32Array;
  vocabulary: Map<string, number>;
  seedPositions: Map<number, number[]>;
  seedLength: number;
}

/** A seed repeated more often than this in the submitted text is a stock phrase: it only adds noise. */
const MAX_SEED_REPEATS = 32;

function seedKey(ids: Int32Array, at: number, length: number, base: number): number {
  let key = 0;
  for (let t = 0; t < length; t++) {
    const id = ids[at + t] as number;
    if (id < 0) return -1;
    key = key * base + id;
  }
  return key;
}

export function prepareQuerySeeds(terms: readonly string[], seedLength: number): QuerySeeds {
  const vocabulary = new Map<string, number>();
  const ids = new Int32Array(terms.length);
  for (let i = 0; i < terms.length; i++) {
    const term = terms[i] as string;
    let id = vocabulary.get(term);
    if (id === undefined) {
      id = vocabulary.size;
      vocabulary.set(term, id);
    }
    ids[i] = id;
  }
  if (vocabulary.size ** seedLength >= Number.MAX_SAFE_INTEGER) {
    throw new RangeError("Text vocabulary too large for numeric seed keys");
  }
  const seedPositions = new Map<number, number[]>();
  const base = vocabulary.size;
  for (let i = 0; i + seedLength <= terms.length; i++) {
    const key = seedKey(ids, i, seedLength, base);
    const list = seedPositions.get(key);
    if (list === undefined) seedPositions.set(key, [i]);
    else if (list.length <= MAX_SEED_REPEATS) list.push(i);
  }
  return { ids, vocabulary, seedPositions, seedLength };
}

interface Chain {
  start: number;
  sourceStart: number;
  lastQuery: number;
  lastSource: number;
  coveredEnd: number;
  covered: number;
}

export function alignPassages(
  query: QuerySeeds,
  sourceTerms: readonly string[],
  params: EngineParams,
): AlignedPassage[] {
  const L = query.seedLength;
  const sourceIds = new Int32Array(sourceTerms.length);
  for (let j = 0; j < sourceTerms.length; j++)
    sourceIds[j] = query.vocabulary.get(sourceTerms[j] as string) ?? -1;

  // Seeds packed as query * 2^26 + source, sorted by query then source position.
  const base = query.vocabulary.size;
  const packed: number[] = [];
  for (let j = 0; j + L <= sourceIds.length; j++) {
    const key = seedKey(sourceIds, j, L, base);
    if (key < 0) continue;
    const positions = query.seedPositions.get(key);
    if (positions === undefined || positions.length > MAX_SEED_REPEATS) continue;
    for (const i of positions) packed.push(i * 67108864 + j);
  }
  if (packed.length === 0) return [];
  const seeds = Float64Array.from(packed).sort();

  const open: Chain[] = [];
  const closed: Chain[] = [];
  for (const seed of seeds) {
    const i = Math.floor(seed / 67108864);
    const j = seed - i * 67108864;
    let best: Chain | undefined;
    let bestCost = Number.POSITIVE_INFINITY;
    for (let c = open.length - 1; c >= 0; c--) {
      const chain = open[c] as Chain;
      const di = i - chain.lastQuery;
      if (di > params.maxGap) {
        closed.push(chain);
        open.splice(c, 1);
        continue;
      }
      const dj = j - chain.lastSource;
      if (di < 1 || dj < 1 || dj > params.maxGap || Math.abs(di - dj) > params.maxSkew) continue;
      const cost = di + dj + Math.abs(di - dj);
      if (cost < bestCost) {
        bestCost = cost;
        best = chain;
      }
    }
    if (best === undefined) {
      open.push({ start: i, sourceStart: j, lastQuery: i, lastSource: j, coveredEnd: i + L, covered: L });
    } else {
      best.covered += Math.max(0, i + L - Math.max(i, best.coveredEnd));
      best.coveredEnd = Math.max(best.coveredEnd, i + L);
      best.lastQuery = i;
      best.lastSource = j;
    }
  }
  closed.push(...open);

  const fragments = closed.map((chain) =>
    extendExactly(query.ids, sourceIds, {
      start: chain.start,
      end: chain.lastQuery + L,
      sourceStart: chain.sourceStart,
      sourceEnd: chain.lastSource + L,
      covered: chain.covered,
    }),
  );
  return mergeFragments(fragments, params);
}

/** Grows a fragment while the terms just outside it are equal on both sides. */
function extendExactly(queryIds: Int32Array, sourceIds: Int32Array, p: AlignedPassage): AlignedPassage {
  let { start, end, sourceStart, sourceEnd, covered } = p;
  while (start > 0 && sourceStart > 0 && queryIds[start - 1] === sourceIds[sourceStart - 1]) {
    start--;
    sourceStart--;
    covered++;
  }
  while (end < queryIds.length && sourceEnd < sourceIds.length && queryIds[end] === sourceIds[sourceEnd]) {
    end++;
    sourceEnd++;
    covered++;
  }
  return { start, end, sourceStart, sourceEnd, covered };
}

function sourceDistance(a: AlignedPassage, b: AlignedPassage): number {
  return Math.max(0, b.sourceStart - a.sourceEnd, a.sourceStart - b.sourceEnd);
}

/** Terms of the union of the source ranges of `parts`. */
function sourceUnion(parts: AlignedPassage[]): number {
  const ranges = parts.map((p) => [p.sourceStart, p.sourceEnd] as const).sort((a, b) => a[0] - b[0]);
  let total = 0;
  let from = -1;
  let to = -1;
  for (const [a, b] of ranges) {
    if (a > to) {
      total += to - from;
      from = a;
      to = b;
    } else to = Math.max(to, b);
  }
  return total + (to - from);
}

/**
 * Groups fragments into passages. Fragments that follow each other closely in the submitted text form a run;
 * within a run, fragments whose source ranges lie close together (directly or through other fragments of the
 * run) are one passage: the sentences of a reordered passage come back together in any order.
 */
function mergeFragments(fragments: AlignedPassage[], params: EngineParams): AlignedPassage[] {
  // A lone seed or two that chained to nothing is chance, not a piece of a passage: merging it would only
  // stretch a real passage's source range.
  // Words matched twice (a source that repeats a phrase) are settled first, so that the weaker match cannot
  // join the passage and stretch its source range.
  const solid = resolveOverlaps(fragments.filter((f) => f.end - f.start >= params.minFragmentTerms));
  const passages: AlignedPassage[] = [];
  let run: AlignedPassage[] = [];
  let runEnd = Number.NEGATIVE_INFINITY;
  for (const fragment of solid) {
    if (fragment.start - runEnd > params.mergeGap && run.length > 0) {
      passages.push(...mergeRun(run, params));
      run = [];
    }
    run.push(fragment);
    runEnd = Math.max(runEnd, fragment.end);
  }
  if (run.length > 0) passages.push(...mergeRun(run, params));
  return resolveOverlaps(passages).filter((p) => p.covered / (p.end - p.start) >= params.minSeedCoverage);
}

function mergeRun(run: AlignedPassage[], params: EngineParams): AlignedPassage[] {
  // Union-find over the run: two fragments join when their source ranges are close.
  const parent = run.map((_, i) => i);
  const find = (i: number): number => {
    let root = i;
    while (parent[root] !== root) root = parent[root] as number;
    parent[i] = root;
    return root;
  };
  for (let a = 0; a < run.length; a++) {
    for (let b = a + 1; b < run.length; b++) {
      if (sourceDistance(run[a] as AlignedPassage, run[b] as AlignedPassage) <= params.mergeSourceGap) {
        parent[find(b)] = find(a);
      }
    }
  }
  const groups = new Map<number, AlignedPassage[]>();
  run.forEach((fragment, i) => {
    const root = find(i);
    const group = groups.get(root);
    if (group === undefined) groups.set(root, [fragment]);
    else group.push(fragment);
  });
  return [...groups.values()].flatMap((parts) => {
    if (parts.length === 1) return parts;
    const passage: AlignedPassage = {
      start: Math.min(...parts.map((p) => p.start)),
      end: Math.max(...parts.map((p) => p.end)),
      sourceStart: Math.min(...parts.map((p) => p.sourceStart)),
      sourceEnd: Math.max(...parts.map((p) => p.sourceEnd)),
      covered: 0,
    };
    passage.covered = Math.min(
      passage.end - passage.start,
      parts.reduce((sum, p) => sum + p.covered, 0),
    );
    // Kept whole only if its parts also fill most of the merged source range, as reordered sentences do.
    const fillsSource =
      sourceUnion(parts) >= params.minSeedCoverage * (passage.sourceEnd - passage.sourceStart);
    return fillsSource ? [passage] : parts;
  });
}

/**
 * Passages of one source that overlap in the submitted text (its words matched in two places of a source that
 * repeats itself): a passage mostly inside another gives way to the better-supported one; a partial overlap
 * is cut from the later passage.
 */
function resolveOverlaps(passages: AlignedPassage[]): AlignedPassage[] {
  passages.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: AlignedPassage[] = [];
  for (const next of passages) {
    const current = kept[kept.length - 1];
    const overlap = current === undefined ? 0 : Math.max(0, Math.min(current.end, next.end) - next.start);
    if (current === undefined || overlap === 0) {
      kept.push(next);
    } else if (overlap * 2 >= next.end - next.start) {
      if (next.covered > current.covered) kept[kept.length - 1] = next;
    } else {
      kept.push({
        start: current.end,
        end: next.end,
        sourceStart: Math.min(next.sourceStart + overlap, next.sourceEnd),
        sourceEnd: next.sourceEnd,
        covered: Math.max(0, next.covered - overlap),
      });
    }
  }
  return kept;
}
