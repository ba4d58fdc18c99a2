import { getWebPage, type NewWebPage, upsertWebPages } from "../fingerprints/index.ts";
import { normalizeUrl } from "../plagiarism/index.ts";
import type { Store } from "../store/db.ts";
import { type FetchLike, fetchWebPage } from "../webimport/index.ts";
import { distinctivePhrases } from "./phrases.ts";
import { searchSearxng } from "./searxng.ts";
import { type LiveSearchSettings, PAGE_CONCURRENCY, SEARCH_CONCURRENCY } from "./settings.ts";

/**
 * The live step of a check: search for the text's most distinctive phrases, fetch the top pages, and add them to
 * the web index, so that the alignment that follows sees them like any imported page. A provider that cannot
 * be asked fails the step (`SearchUnavailableError`); a page that cannot be fetched is only left out.
 */

export interface LiveSearchReport {
  queries: number;
  /** Distinct result URLs considered (after exclusions). */
  candidates: number;
  /** Pages fetched and indexed now. */
  indexed: number;
  /** Pages used as already indexed (fetched recently). */
  reused: number;
  /** Pages that could not be fetched or held no text, with the reason. */
  failures: string[];
}

export interface LiveSearchDeps {
  settings: LiveSearchSettings;
  fetchImpl?: FetchLike;
  /** The service clock: a page fetched within `refreshAfterMs` of now is used as indexed. */
  now: () => number;
}

/** Runs `task` over `items` with at most `limit` at once; results in input order. */
async function pool<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export async function addLiveSources(
  store: Store,
  text: string,
  options: { excludeQuotes: boolean; excludeUrls: readonly string[] },
  deps: LiveSearchDeps,
): Promise<LiveSearchReport> {
  const { settings } = deps;
  const { now } = deps;
  const phrases = distinctivePhrases(text, {
    count: settings.queries,
    excludeQuotes: options.excludeQuotes,
  });
  // Every search must answer: a check that silently skipped the web would report a copy as original.
  const answers = await pool(phrases, SEARCH_CONCURRENCY, (phrase) =>
    searchSearxng(settings.searchUrl, `"${phrase.text}"`, {
      timeoutMs: settings.fetch.timeoutMs,
      userAgent: settings.fetch.userAgent,
      ...(deps.fetchImpl && { fetchImpl: deps.fetchImpl }),
    }),
  );
  const excluded = new Set(options.excludeUrls.map((url) => normalizeUrl(url) ?? url));
  // Rank by how many phrases found a page, then by best rank: a page hit by several phrases is the likeliest source.
  const hits = new Map<string, { url: string; count: number; bestRank: number; order: number }>();
  for (const results of answers) {
    results.slice(0, settings.resultsPerQuery).forEach((result, rank) => {
      const key = normalizeUrl(result.url);
      if (key === null || excluded.has(key)) return;
      const hit = hits.get(key);
      if (hit) {
        hit.count++;
        hit.bestRank = Math.min(hit.bestRank, rank);
      } else hits.set(key, { url: result.url, count: 1, bestRank: rank, order: hits.size });
    });
  }
  const candidates = [...hits.values()]
    .sort((a, b) => b.count - a.count || a.bestRank - b.bestRank || a.order - b.order)
    .slice(0, settings.maxPages);
  const report: LiveSearchReport = {
    queries: phrases.length,
    candidates: candidates.length,
    indexed: 0,
    reused: 0,
    failures: [],
  };
  const stale = candidates.filter((candidate) => {
    const known = getWebPage(store, candidate.url);
    const fresh = known !== null && now() - known.fetchedAt < settings.refreshAfterMs;
    if (fresh) report.reused++;
    return !fresh;
  });
  const fetched = await pool(stale, PAGE_CONCURRENCY, (candidate) =>
    fetchWebPage(candidate.url, settings.fetch, {
      now,
      ...(deps.fetchImpl && { fetchImpl: deps.fetchImpl }),
    }),
  );
  const pages: NewWebPage[] = [];
  for (const outcome of fetched) {
    if ("page" in outcome) pages.push(outcome.page);
    else report.failures.push(outcome.reason);
  }
  if (pages.length > 0) report.indexed = upsertWebPages(store, pages).length;
  return report;
}
