import { alignPassages, prepareQuerySeeds } from "./align.ts";
import { analyzeText } from "./analysis.ts";
import { type KgramHashes, kgramHashes, toBigint, winnow } from "./fingerprints.ts";
import { DEFAULT_PARAMS, type EngineParams } from "./params.ts";
import { buildResult, type SourceAlignment } from "./result.ts";
import type { FingerprintIndex, PlagiarismOptions, PlagiarismResult, SourceKey } from "./types.ts";
import { normalizeUrl } from "./urls.ts";

/**
 * The plagiarism check: fingerprints of the submitted text pick candidate sources from the index, each candidate
 * is aligned in full, and the passages found become the result. Pure apart from the index it is given: no clock,
 * no randomness, no I/O of its own.
 */
export function findPlagiarism(
  text: string,
  index: FingerprintIndex,
  options: PlagiarismOptions = {},
  params: EngineParams = DEFAULT_PARAMS,
): PlagiarismResult {
  const query = analyzeText(text);
  const positions = fingerprintPositions(kgramHashes(query.terms));
  const holders = index.findHolders([...positions.keys()], params.maxSourcesPerFingerprint);
  const candidates = rankCandidates(holders, positions, params);

  const excluded = new Set<string>();
  for (const url of options.excludeUrls ?? []) {
    const normalized = normalizeUrl(url);
    if (normalized !== null) excluded.add(normalized);
  }
  const seeds = prepareQuerySeeds(query.terms, params.seedLength);
  const alignments: SourceAlignment[] = [];
  for (const source of index.loadSources(candidates)) {
    if (source.url !== null && excluded.has(normalizeUrl(source.url) ?? source.url)) continue;
    const analysis = analyzeText(source.text);
    const passages = alignPassages(seeds, analysis.terms, params);
    if (passages.length > 0) alignments.push({ source, analysis, passages });
  }
  return buildResult(query, alignments, options.excludeQuotes ?? true, params);
}

/** Every distinct k-gram hash of the submitted text, with the term position where it first occurs. */
function fingerprintPositions(hashes: KgramHashes): Map<bigint, number> {
  const positions = new Map<bigint, number>();
  for (let i = 0; i < hashes.high.length; i++) {
    const fingerprint = toBigint(hashes.high[i] as number, hashes.low[i] as number);
    if (!positions.has(fingerprint)) positions.set(fingerprint, i);
  }
  return positions;
}

interface CandidateScore {
  key: SourceKey;
  /** Term positions of the submitted text whose k-gram the source holds. */
  positions: number[];
  /** Most shared fingerprints within one stretch of `mergeSourceGap` terms: hits of a copied passage cluster. */
  clustered: number;
  /** Sum of 1 / holders over the shared fingerprints: a k-gram few sources hold says more. */
  rarity: number;
}

function mostWithin(sorted: number[], width: number): number {
  let best = 0;
  for (let from = 0, to = 0; to < sorted.length; to++) {
    while ((sorted[to] as number) - (sorted[from] as number) > width) from++;
    best = Math.max(best, to - from + 1);
  }
  return best;
}

/**
 * Sources worth aligning, best first: those with at least `minSharedFingerprints` fingerprints close together
 * in the submitted text (up to `maxCandidates`), then a few weaker ones, the rarest first (a short passage may
 * leave a single hit). Hits scattered over a long text are chance collisions of everyday phrasing.
 */
function rankCandidates(
  holders: Map<bigint, SourceKey[]>,
  positions: Map<bigint, number>,
  params: EngineParams,
): SourceKey[] {
  const scores = new Map<SourceKey, CandidateScore>();
  for (const [fingerprint, keys] of holders) {
    const position = positions.get(fingerprint) ?? 0;
    for (const key of keys) {
      const score = scores.get(key);
      if (score === undefined)
        scores.set(key, { key, positions: [position], clustered: 0, rarity: 1 / keys.length });
      else {
        score.positions.push(position);
        score.rarity += 1 / keys.length;
      }
    }
  }
  for (const score of scores.values()) {
    score.clustered = mostWithin(
      score.positions.sort((a, b) => a - b),
      params.mergeSourceGap,
    );
  }
  const ranked = [...scores.values()].sort(
    (a, b) =>
      b.clustered - a.clustered ||
      b.positions.length - a.positions.length ||
      b.rarity - a.rarity ||
      a.key - b.key,
  );
  const strong = ranked
    .filter((s) => s.clustered >= params.minSharedFingerprints)
    .slice(0, params.maxCandidates);
  const weak = ranked
    .filter((s) => s.clustered < params.minSharedFingerprints)
    .sort((a, b) => b.rarity - a.rarity || a.key - b.key)
    .slice(0, params.maxWeakCandidates);
  return [...strong, ...weak].map((s) => s.key);
}

/** The fingerprints the index stores for a source text (winnowed k-gram hashes, distinct). */
export function indexFingerprints(text: string): bigint[] {
  return winnow(kgramHashes(analyzeText(text).terms));
}
