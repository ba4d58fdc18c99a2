import type { Server } from "bun";
import { parseCidrList } from "../../src/webhooks/cidr.ts";
import { DEFAULT_WEB_FETCH_SETTINGS, type WebFetchSettings } from "../../src/webimport/index.ts";
import type { LiveSearchSettings } from "../../src/websearch/index.ts";

/** Loopback only: every fixture of these tests listens on 127.0.0.1. */
export const LOOPBACK = parseCidrList("127.0.0.0/8", "test");

/** Fetch settings that let the guard reach the local fixtures, with short limits. */
export const localFetch = (overrides: Partial<WebFetchSettings> = {}): WebFetchSettings => ({
  ...DEFAULT_WEB_FETCH_SETTINGS,
  allowNetworks: LOOPBACK,
  timeoutMs: 2_000,
  ...overrides,
});

export const liveSettings = (searchUrl: string, overrides: Partial<LiveSearchSettings> = {}) => ({
  settings: {
    searchUrl,
    queries: 4,
    resultsPerQuery: 3,
    maxPages: 5,
    refreshAfterMs: 60_000,
    fetch: localFetch(),
    ...overrides,
  } satisfies LiveSearchSettings,
});

/** A source passage of ~90 words that no other fixture shares. */
export const GLACIER_SOURCE =
  "Glaciers in the high valleys retreated by almost a kilometre over the last century, leaving behind moraines " +
  "that botanists now study to understand how plant communities colonise bare ground. The first arrivals are " +
  "mosses and lichens, followed within decades by dwarf willows and fireweed, and only much later by spruce. " +
  "Researchers returning every summer measured soil depth, nitrogen and the spread of roots, and found that the " +
  "youngest moraines gained organic matter far faster than any model of the region had predicted.";

export const LIGHTHOUSE_SOURCE =
  "The keepers of the northern lighthouse logged every passing vessel in a leather-bound ledger, noting its " +
  "flag, its cargo when they could guess it, and the hour at which its lamps disappeared beyond the headland. " +
  "Storms sometimes cut them off from the mainland for weeks, and the ledger from the winter of 1911 records " +
  "rations of salted herring, lamp oil measured by the pint, and a single letter delivered by a fishing boat.";

/** An opening of the submitter's own words, so that a copied passage is only part of the text. */
export const OWN_WORDS =
  "My report begins with an introduction in my own words about a field trip we took together last summer, " +
  "when the weather was unusually kind to us and everyone in the group wanted to write something about it.";

export const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><nav>Home | Archive | Contact</nav>` +
  `<article><h1>${title}</h1><p>${body}</p></article><footer>Copyright the authors</footer></body></html>`;

export interface SearchProvider {
  /** Base URL, to be used as TEXTSCAN_SEARCH_URL. */
  url: string;
  /** Pages served under `${url}${path}`. */
  pages: Map<string, string>;
  /** URLs every search answers with (in rank order); default: every page. */
  results: string[] | null;
  /** `answer` normally; `hold` keeps search requests open and never answers; `fail` answers 502. */
  mode: "answer" | "hold" | "fail";
  searches: string[];
  pageHits: Map<string, number>;
  /** Resolves once a search request has arrived (so that a test knows the check is inside the search). */
  searched(timeoutMs?: number): Promise<void>;
  stop(): void;
}

/** A local server that speaks SearXNG's JSON API and serves the pages its results name. */
export function startSearchProvider(port = 0): SearchProvider {
  let notify: (() => void) | undefined;
  let arrived = false;
  const provider: SearchProvider = {
    url: "",
    pages: new Map(),
    results: null,
    mode: "answer",
    searches: [],
    pageHits: new Map(),
    searched(timeoutMs = 15_000) {
      if (arrived) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no search request arrived")), timeoutMs);
        notify = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    },
    stop: () => server.stop(true),
  };
  const server: Server<undefined> = Bun.serve({
    hostname: "127.0.0.1",
    port,
    idleTimeout: 0,
    fetch(request) {
      const url = new URL(request.url);
      if (url.pathname === "/search") {
        provider.searches.push(url.searchParams.get("q") ?? "");
        arrived = true;
        notify?.();
        if (provider.mode === "hold") return new Promise<Response>(() => {});
        if (provider.mode === "fail") return new Response("bad gateway", { status: 502 });
        if (url.searchParams.get("format") !== "json") return new Response("forbidden", { status: 403 });
        const urls = provider.results ?? [...provider.pages.keys()].map((path) => `${provider.url}${path}`);
        return Response.json({
          query: url.searchParams.get("q"),
          results: urls.map((u, i) => ({ url: u, title: `Result ${i + 1}`, content: "…" })),
        });
      }
      const html = provider.pages.get(url.pathname);
      if (html === undefined) return new Response("not found", { status: 404 });
      provider.pageHits.set(url.pathname, (provider.pageHits.get(url.pathname) ?? 0) + 1);
      return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
    },
  });
  provider.url = `http://127.0.0.1:${server.port}`;
  return provider;
}

/** A port nothing listens on (a provider that is down). */
export function deadPort(): number {
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = server.port ?? 0;
  server.stop(true);
  return port;
}
