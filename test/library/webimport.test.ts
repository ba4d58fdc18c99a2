import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  extractHtml,
  extractMarkdown,
  fetchPage,
  parseHttpResponse,
  readWarc,
  WarcFormatError,
  WebFetchError,
  webFetchSettingsFromEnv,
} from "../../src/webimport/index.ts";
import {
  distinctivePhrases,
  liveSearchSettingsFromEnv,
  SearchUnavailableError,
  searchRequestUrl,
  searchSearxng,
} from "../../src/websearch/index.ts";
import { tempDataDir } from "../support/harness.ts";
import { OPENSSL, selfSignedCertificate } from "../support/tls.ts";
import { GLACIER_SOURCE, localFetch, OWN_WORDS, page } from "./support.ts";
import { chunked, httpResponse, warcFile, warcRecord } from "./warc-builder.ts";

/** The fetching, extraction, WARC and search modules through their own APIs. */
let server: ReturnType<typeof Bun.serve>;
let base: string;
beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    fetch(request) {
      const { pathname } = new URL(request.url);
      switch (pathname) {
        case "/page":
          return new Response(page("A page", GLACIER_SOURCE), { headers: { "content-type": "text/html" } });
        case "/hang":
        case "/slow/search":
          return new Promise<Response>(() => {});
        case "/slow-body":
          return new Response(
            new ReadableStream({
              start(controller) {
                controller.enqueue(new TextEncoder().encode("<p>first bytes"));
              },
            }),
            { headers: { "content-type": "text/html" } },
          );
        case "/stream-large":
          return new Response(
            new ReadableStream({
              pull(controller) {
                controller.enqueue(new Uint8Array(64 * 1024).fill(97));
              },
            }),
            { headers: { "content-type": "text/plain" } },
          );
        case "/to-metadata":
          return new Response(null, {
            status: 302,
            headers: { location: "http://169.254.169.254/latest/meta-data" },
          });
        case "/loop":
          return new Response(null, { status: 302, headers: { location: "/loop" } });
        case "/latin1":
          return new Response(
            new Uint8Array([
              ...new TextEncoder().encode('<meta charset="iso-8859-1"><p>caf'),
              0xe9,
              0x3c,
              0x2f,
              0x70,
              0x3e,
            ]),
            { headers: { "content-type": "text/html" } },
          );
        case "/search": {
          const q = new URL(request.url).searchParams;
          if (q.get("format") !== "json") return new Response("", { status: 403 });
          if (q.get("q") === "broken")
            return new Response("<html>", { headers: { "content-type": "text/html" } });
          if (q.get("q") === "forbidden") return new Response("", { status: 403 });
          return Response.json({
            results: [
              { url: "https://a.example/1", title: "One", content: "x" },
              { url: "javascript:alert(1)", title: "Bad" },
              { title: "No URL" },
              { url: "http://b.example/2" },
            ],
          });
        }
        default:
          return new Response("nope", { status: 404 });
      }
    },
  });
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(() => server.stop(true));

const failure = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a failure");
};

describe("fetchPage", () => {
  test("a page on an allowed network is fetched as text", async () => {
    const fetched = await fetchPage(`${base}/page`, localFetch());
    expect(fetched).toMatchObject({ url: `${base}/page`, mediaType: "text/html" });
    expect(fetched.body).toContain(GLACIER_SOURCE);
  });

  test("refused without the operator's allowance, and a redirect into a metadata address is refused too", async () => {
    const plain = await failure(fetchPage(`${base}/page`, localFetch({ allowNetworks: [] })));
    expect(plain).toBeInstanceOf(WebFetchError);
    expect((plain as WebFetchError).kind).toBe("refused");
    const redirected = await failure(fetchPage(`${base}/to-metadata`, localFetch()));
    expect((redirected as WebFetchError).kind).toBe("refused");
    expect(redirected.message).toContain("169.254.169.254");
  });

  test("limits: deadline for headers and for the body, size while streaming, redirect hops", async () => {
    const settings = localFetch({ timeoutMs: 300, maxBytes: 256 * 1024 });
    expect(((await failure(fetchPage(`${base}/hang`, settings))) as WebFetchError).kind).toBe("timeout");
    expect(((await failure(fetchPage(`${base}/slow-body`, settings))) as WebFetchError).kind).toBe("timeout");
    const large = await failure(fetchPage(`${base}/stream-large`, localFetch({ maxBytes: 256 * 1024 })));
    expect((large as WebFetchError).kind).toBe("too_large");
    expect(((await failure(fetchPage(`${base}/loop`, localFetch()))) as WebFetchError).kind).toBe(
      "redirects",
    );
    expect(((await failure(fetchPage(`${base}/absent`, localFetch()))) as WebFetchError).kind).toBe(
      "http_status",
    );
    expect(((await failure(fetchPage("file:///etc/passwd", localFetch()))) as WebFetchError).kind).toBe(
      "bad_url",
    );
  });

  test.skipIf(!OPENSSL)(
    "https connects to the address the guard checked and verifies the certificate against the name",
    async () => {
      const { dir, cleanup } = tempDataDir();
      try {
        const { cert, key, ca } = await selfSignedCertificate(dir, "pages.example.test");
        const hosts: (string | null)[] = [];
        const tlsServer = Bun.serve({
          hostname: "127.0.0.1",
          port: 0,
          tls: { cert: Bun.file(cert), key: Bun.file(key) },
          fetch: (request) => {
            hosts.push(request.headers.get("host"));
            return new Response(page("Pinned", `<p>${GLACIER_SOURCE}</p>`), {
              headers: { "content-type": "text/html; charset=utf-8" },
            });
          },
        });
        try {
          // The names resolve to the loopback server only through the guard's resolver: nothing else could
          // reach it, so an answer proves the connection went to the checked address.
          const settings = localFetch({ resolve: async () => ["127.0.0.1"] });
          const trusting = (input: string, init: BunFetchRequestInit) =>
            fetch(input, { ...init, tls: { ...init.tls, ca } });
          const fetched = await fetchPage(
            `https://pages.example.test:${tlsServer.port}/a`,
            settings,
            trusting,
          );
          expect(fetched.body).toContain("Glaciers");
          expect(hosts).toEqual([`pages.example.test:${tlsServer.port}`]);
          const wrongName = await failure(
            fetchPage(`https://other.example.test:${tlsServer.port}/a`, settings, trusting),
          );
          expect((wrongName as WebFetchError).kind).toBe("unreachable");
          expect(hosts).toHaveLength(1);
        } finally {
          tlsServer.stop(true);
        }
      } finally {
        cleanup();
      }
    },
  );

  test("the charset named by a <meta> tag decodes the page", async () => {
    const fetched = await fetchPage(`${base}/latin1`, localFetch());
    expect(fetched.body).toContain("café");
  });
});

describe("extraction", () => {
  test("HTML: the article as paragraphs, without navigation, scripts or footer", () => {
    const html =
      "<html><head><title>Site | Story</title><script>var tracking = 1;</script></head><body>" +
      "<nav><a href='/'>Home</a> <a href='/about'>About us</a></nav>" +
      `<main><article><h2>Part one</h2><p>${GLACIER_SOURCE}</p><p>Second paragraph<br>with a break.</p></article></main>` +
      "<footer>Copyright notice and cookie settings</footer></body></html>";
    const { title, text } = extractHtml(html);
    expect(title).toBe("Site | Story");
    expect(text).toContain(`Part one\n\n${GLACIER_SOURCE}\n\nSecond paragraph\nwith a break.`);
    expect(text).not.toContain("tracking");
    expect(text).not.toContain("About us");
    expect(text).not.toContain("Copyright");
  });

  test("HTML with little text falls back to the body without its furniture", () => {
    const { title, text } = extractHtml(
      "<html><body><nav>Menu</nav><h1>Heading only</h1><ul><li>one item</li><li>two items</li></ul></body></html>",
    );
    expect(title).toBe("Heading only");
    expect(text).toBe("Heading only\n\none item\n\ntwo items");
  });

  test("Markdown: front matter title, links and emphasis reduced to their words", () => {
    const { title, text } = extractMarkdown(
      "---\ntitle: Field notes\n---\n# Heading\n\nSee **this** [page](https://x.example/p) and ![a map](m.png).\n\n- item one\n- item two\n",
    );
    expect(title).toBe("Field notes");
    expect(text).toBe("Heading\n\nSee this page and a map.\n\nitem one\nitem two");
  });
});

describe("WARC reading", () => {
  const stream = (bytes: Uint8Array) => new Blob([bytes]).stream();

  test("records in order; a block over the size limit is skipped without being held", async () => {
    const file = warcFile([
      warcRecord("resource", "https://x.example/small", "text/plain", "small"),
      warcRecord("resource", "https://x.example/big", "text/plain", "x".repeat(5_000)),
      warcRecord("resource", "https://x.example/after", "text/plain", "after"),
    ]);
    const records = [];
    for await (const record of readWarc(stream(file), { maxBlockBytes: 1_000 })) records.push(record);
    expect(
      records.map((r) => [r.targetUri, r.block === null ? null : new TextDecoder().decode(r.block)]),
    ).toEqual([
      ["https://x.example/small", "small"],
      ["https://x.example/big", null],
      ["https://x.example/after", "after"],
    ]);
  });

  test("a file cut inside a record, or not a WARC at all, is a format error", async () => {
    const whole = warcRecord("resource", "https://x.example/a", "text/plain", "some text here");
    for (const bytes of [whole.subarray(0, whole.byteLength - 10), new TextEncoder().encode("hello\n")]) {
      const error = await failure(
        (async () => {
          for await (const _ of readWarc(stream(bytes), { maxBlockBytes: 1_000 })) {
          }
        })(),
      );
      expect(error).toBeInstanceOf(WarcFormatError);
    }
  });

  test("HTTP responses: chunked bodies are dechunked; a body stored already decoded is kept as it is", () => {
    const body = "<p>hello world</p>".repeat(20);
    const dechunked = parseHttpResponse(
      httpResponse(200, { "Content-Type": "text/html", "Transfer-Encoding": "chunked" }, chunked(body, 7)),
    );
    expect(new TextDecoder().decode(dechunked?.body)).toBe(body);
    const decoded = parseHttpResponse(httpResponse(200, { "Transfer-Encoding": "chunked" }, body));
    expect(new TextDecoder().decode(decoded?.body)).toBe(body);
    expect(parseHttpResponse(new TextEncoder().encode("not http"))).toBeNull();
  });
});

describe("live search pieces", () => {
  test("distinctive phrases: one per stretch of the text, in order, never from a quotation, deterministic", () => {
    const text = `${OWN_WORDS} ${GLACIER_SOURCE} She said \u201Cthe quoted words of someone else entirely are here\u201D.`;
    const phrases = distinctivePhrases(text, { count: 4 });
    expect(phrases).toHaveLength(4);
    expect(distinctivePhrases(text, { count: 4 })).toEqual(phrases);
    for (let i = 1; i < phrases.length; i++) {
      expect(phrases[i]?.start).toBeGreaterThan(phrases[i - 1]?.end ?? 0);
    }
    for (const phrase of phrases) {
      expect(phrase.text.split(" ")).toHaveLength(8);
      expect(phrase.text).not.toContain("quoted");
      // Within one sentence: the slice of the text holds no sentence end.
      expect(text.slice(phrase.start, phrase.end)).not.toMatch(/[.!?]/);
    }
    expect(distinctivePhrases("too short to search for", { count: 3 })).toEqual([]);
    const withQuotes = distinctivePhrases(text, { count: 20, excludeQuotes: false });
    expect(withQuotes.some((p) => p.text.includes("quoted"))).toBe(true);
  });

  test("the SearXNG client asks for JSON and keeps only http(s) results", async () => {
    expect(searchRequestUrl("http://s.example/searx", "a b")).toBe(
      "http://s.example/searx/search?q=a+b&format=json",
    );
    const results = await searchSearxng(base, '"some phrase"', { timeoutMs: 1_000, userAgent: "t" });
    expect(results.map((r) => r.url)).toEqual(["https://a.example/1", "http://b.example/2"]);
    const broken = await failure(searchSearxng(base, "broken", { timeoutMs: 1_000, userAgent: "t" }));
    expect(broken).toBeInstanceOf(SearchUnavailableError);
    const forbidden = await failure(searchSearxng(base, "forbidden", { timeoutMs: 1_000, userAgent: "t" }));
    expect(forbidden.message).toContain("search.formats");
    const hung = await failure(searchSearxng(`${base}/slow`, "x", { timeoutMs: 200, userAgent: "t" }));
    expect(hung).toBeInstanceOf(SearchUnavailableError);
  });

  test("settings from the environment: off without TEXTSCAN_SEARCH_URL; malformed values stop the start", () => {
    expect(liveSearchSettingsFromEnv({})).toBeNull();
    const on = liveSearchSettingsFromEnv({
      TEXTSCAN_SEARCH_URL: "http://127.0.0.1:8888",
      TEXTSCAN_WEB_ALLOW_NETWORKS: "127.0.0.0/8, ::1/128",
      TEXTSCAN_SEARCH_PAGES: "3",
    });
    expect(on?.maxPages).toBe(3);
    expect(on?.fetch.allowNetworks.map((c) => c.text)).toEqual(["127.0.0.0/8", "::1/128"]);
    expect(() => liveSearchSettingsFromEnv({ TEXTSCAN_SEARCH_URL: "searx.local" })).toThrow(
      "TEXTSCAN_SEARCH_URL",
    );
    expect(() => webFetchSettingsFromEnv({ TEXTSCAN_WEB_FETCH_TIMEOUT_MS: "soon" })).toThrow(
      "TEXTSCAN_WEB_FETCH_TIMEOUT_MS",
    );
  });
});
