/** The optional live web search of plagiarism checks (a SearXNG instance named by TEXTSCAN_SEARCH_URL). */
export { addLiveSources, type LiveSearchDeps, type LiveSearchReport } from "./live.ts";
export { distinctivePhrases, PHRASE_WORDS, type Phrase } from "./phrases.ts";
export { type SearchResult, SearchUnavailableError, searchRequestUrl, searchSearxng } from "./searxng.ts";
export { type LiveSearchSettings, liveSearchSettingsFromEnv } from "./settings.ts";
