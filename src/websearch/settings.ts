import {
  positiveInteger,
  readEnv,
  type WebFetchSettings,
  webFetchSettingsFromEnv,
} from "../webimport/settings.ts";

/**
 * The optional live search step of a plagiarism check: off unless TEXTSCAN_SEARCH_URL names a SearXNG
 * instance. Budgets are chosen so that the whole step (two rounds of searches, two rounds of page fetches, each
 * bounded by the fetch timeout) ends well within the default 60-second job lease.
 */

/** Phrases searched per check. */
export const DEFAULT_SEARCH_QUERIES = 6;
/** Results taken from each search: the top ones; lower ranks rarely hold a copied passage the top ones lack. */
export const DEFAULT_RESULTS_PER_QUERY = 3;
/** Pages fetched per check at most. */
export const DEFAULT_SEARCH_PAGES = 8;
/** Searches in flight at once per check. */
export const SEARCH_CONCURRENCY = 3;
/** Page fetches in flight at once per check. */
export const PAGE_CONCURRENCY = 4;
/** A page fetched less than this long ago is used as indexed instead of being fetched again. */
export const REFRESH_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

export interface LiveSearchSettings {
  /** Base address of the SearXNG instance, e.g. http://127.0.0.1:8888 (its /search answers JSON). */
  searchUrl: string;
  queries: number;
  resultsPerQuery: number;
  maxPages: number;
  refreshAfterMs: number;
  /** The guard, limits and timeout of each page fetch; the timeout also bounds each search request. */
  fetch: WebFetchSettings;
}

type Env = Record<string, string | undefined>;

/** The live search settings, or null when TEXTSCAN_SEARCH_URL is unset (the step is off). */
export function liveSearchSettingsFromEnv(env: Env): LiveSearchSettings | null {
  const searchUrl = readEnv(env, "TEXTSCAN_SEARCH_URL");
  if (searchUrl === undefined) return null;
  let parsed: URL;
  try {
    parsed = new URL(searchUrl);
  } catch {
    throw new Error(`TEXTSCAN_SEARCH_URL must be an http(s) URL, got '${searchUrl}'`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new Error(`TEXTSCAN_SEARCH_URL must be an http(s) URL, got '${searchUrl}'`);
  }
  return {
    searchUrl,
    queries: positiveInteger(env, "TEXTSCAN_SEARCH_QUERIES", DEFAULT_SEARCH_QUERIES),
    resultsPerQuery: DEFAULT_RESULTS_PER_QUERY,
    maxPages: positiveInteger(env, "TEXTSCAN_SEARCH_PAGES", DEFAULT_SEARCH_PAGES),
    refreshAfterMs: REFRESH_AFTER_MS,
    fetch: webFetchSettingsFromEnv(env),
  };
}
