import type { FetchLike } from "../webimport/index.ts";

/**
 * A client of SearXNG's JSON API: `GET {base}/search?q=...&format=json` answers `{results: [{url, title,
 * content}, ...]}`. The instance is the operator's own (configured, not user-supplied), so it is reached
 * directly, also on a private or loopback address; the pages its results name go through the URL guard.
 */

export interface SearchResult {
  url: string;
  title: string;
  content: string;
}

/** The provider could not be asked or did not answer usefully: the check is retried later. */
export class SearchUnavailableError extends Error {
  override name = "SearchUnavailableError";
}

export function searchRequestUrl(base: string, query: string): string {
  const url = new URL("search", base.endsWith("/") ? base : `${base}/`);
  url.searchParams.set("q", query);
  url.searchParams.set("format", "json");
  return url.href;
}

export async function searchSearxng(
  base: string,
  query: string,
  options: { timeoutMs: number; userAgent: string; fetchImpl?: FetchLike },
): Promise<SearchResult[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  const where = new URL(base).host;
  try {
    let response: Response;
    try {
      response = await (options.fetchImpl ?? fetch)(searchRequestUrl(base, query), {
        method: "GET",
        headers: { accept: "application/json", "user-agent": options.userAgent },
        signal: controller.signal,
      });
    } catch (error) {
      throw new SearchUnavailableError(
        controller.signal.aborted
          ? `The web search provider (${where}) did not answer within ${options.timeoutMs} ms.`
          : `The web search provider (${where}) cannot be reached: ${(error as Error).message}`,
      );
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      const hint = response.status === 403 ? " (is 'json' listed in the instance's search.formats?)" : "";
      throw new SearchUnavailableError(
        `The web search provider (${where}) answered HTTP ${response.status}${hint}.`,
      );
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      throw new SearchUnavailableError(
        controller.signal.aborted
          ? `The web search provider (${where}) did not answer within ${options.timeoutMs} ms.`
          : `The web search provider (${where}) did not answer with JSON.`,
      );
    }
    return resultsOf(body);
  } finally {
    clearTimeout(timer);
  }
}

/** The usable results of an answer, in rank order; entries without an http(s) URL are left out. */
function resultsOf(body: unknown): SearchResult[] {
  const results = (body as { results?: unknown })?.results;
  if (!Array.isArray(results)) {
    throw new SearchUnavailableError("The web search provider answered without a results list.");
  }
  const out: SearchResult[] = [];
  for (const entry of results) {
    const { url, title, content } = (entry ?? {}) as Record<string, unknown>;
    if (typeof url !== "string" || !/^https?:\/\//i.test(url)) continue;
    out.push({
      url,
      title: typeof title === "string" ? title : "",
      content: typeof content === "string" ? content : "",
    });
  }
  return out;
}
