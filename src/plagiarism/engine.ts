import { alignPassages, prepareQuerySeeds } from "./align.ts";
import { analyzeText } from "./analysis.ts";
import { allFingerprints, kgramHashes, winnow } from "./fingerprints.ts";
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
  const shared = index.countSharedFingerprints(
    allFingerprints(kgramHashes(query.terms)),
    params.maxSourcesPerFingerprint,
  );
  const candidates: SourceKey[] = [...shared]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, params.maxCandidates)
    .map(([key]) => key);

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

/** The fingerprints the index stores for a source text (winnowed k-gram hashes, distinct). */
export function indexFingerprints(text: string): bigint[] {
  return winnow(kgramHashes(analyzeText(text).terms));
}
