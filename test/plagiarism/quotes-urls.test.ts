import { describe, expect, test } from "bun:test";
import { findPlagiarism, findQuotedSpans, normalizeUrl } from "../../src/plagiarism/index.ts";
import { countWords } from "../../src/text/index.ts";
import { ALL_SOURCES, spaceWords, TIDES, UNRELATED } from "./fixtures.ts";
import { memoryIndex } from "./support.ts";

const index = memoryIndex(ALL_SOURCES);
const [cello, canal] = UNRELATED as [string, string];
const copied = spaceWords(TIDES).slice(20, 70).join(" ");

const QUOTE_STYLES: Array<[string, string, string]> = [
  ["straight double", '"', '"'],
  ["English curly double", "\u201C", "\u201D"],
  ["German low-high", "\u201E", "\u201C"],
  ["Polish low-high", "\u201E", "\u201D"],
  ["Swedish", "\u201D", "\u201D"],
  ["guillemets", "\u00AB", "\u00BB"],
  ["reversed guillemets", "\u00BB", "\u00AB"],
  ["single guillemets", "\u2039", "\u203A"],
  ["English curly single", "\u2018", "\u2019"],
  ["German single", "\u201A", "\u2018"],
  ["straight single", "'", "'"],
  ["CJK corner brackets", "\u300C", "\u300D"],
  ["CJK white corner brackets", "\u300E", "\u300F"],
];

describe("exclude_quotes", () => {
  for (const [name, open, close] of QUOTE_STYLES) {
    test(`skips a copied passage inside ${name} quotes (${open}…${close})`, () => {
      const text = `${cello} As one guide puts it, ${open}${copied}${close} which matches my experience. ${canal}`;
      const excluded = findPlagiarism(text, index);
      expect(excluded.sources).toEqual([]);
      expect(excluded.matched_words).toBe(0);
      expect(excluded.word_count).toBe(countWords(text));

      const counted = findPlagiarism(text, index, { excludeQuotes: false });
      expect(counted.sources).toHaveLength(1);
      expect(counted.matched_words).toBe(countWords(copied));
    });
  }

  test("quoted words are not counted in the similarity", () => {
    const quote = "\u201CA short saying that nobody copied from anywhere at all, honestly.\u201D";
    const text = `${quote} ${copied}`;
    const result = findPlagiarism(text, index);
    const countedWords = countWords(text) - countWords(quote);
    expect(result.matched_words).toBe(countWords(copied));
    expect(result.similarity).toBe(Math.round((countWords(copied) / countedWords) * 1000) / 10);
  });

  test("apostrophes do not open quotations", () => {
    const text = `Don't worry, the students' notes and the sailors' tables weren't wrong: ${copied} That's all.`;
    expect(findQuotedSpans(text)).toEqual([]);
    expect(findPlagiarism(text, index).matched_words).toBe(countWords(copied));
  });

  test("an unclosed quotation mark hides nothing", () => {
    const text = `He wrote \u201Cthat ${copied}\n\nAnd then a new paragraph starts here.`;
    expect(findQuotedSpans(text)).toEqual([]);
    expect(findPlagiarism(text, index).sources).toHaveLength(1);
  });

  test("nested quotation marks give one outer span", () => {
    const text = "She said \u201Che called it \u2018the long tide\u2019 every time\u201D and left.";
    const spans = findQuotedSpans(text);
    expect(spans).toHaveLength(1);
    expect(text.slice(spans[0]?.start, spans[0]?.end)).toBe(
      "\u201Che called it \u2018the long tide\u2019 every time\u201D",
    );
  });
});

describe("exclude_urls", () => {
  const webIndex = memoryIndex([]);
  webIndex.add({
    key: 1,
    type: "web",
    id: "wp_1",
    url: "https://example.com/sea/tides",
    title: "Tides",
    text: TIDES,
  });
  const text = `${cello} ${copied}`;

  test("drops the source whatever the spelling of its URL", () => {
    for (const url of [
      "https://example.com/sea/tides",
      "HTTPS://EXAMPLE.COM/sea/tides",
      "https://example.com/sea/tides/",
      "https://example.com:443/sea/tides",
      "https://example.com/sea/tides#section-2",
      "  https://Example.com:443/sea/tides/#top ",
    ]) {
      expect(findPlagiarism(text, webIndex, { excludeUrls: [url] }).sources).toEqual([]);
    }
  });

  test("keeps the source for other pages, other schemes and invalid entries", () => {
    for (const url of [
      "https://example.com/sea",
      "https://example.com/sea/tides?page=2",
      "http://example.com/sea/tides",
      "https://example.org/sea/tides",
      "not a url",
    ]) {
      expect(findPlagiarism(text, webIndex, { excludeUrls: [url] }).sources).toHaveLength(1);
    }
  });

  test("normalizeUrl", () => {
    expect(normalizeUrl("HTTP://Example.COM:80/A/b/?q=1#frag")).toBe("http://example.com/A/b?q=1");
    expect(normalizeUrl("https://example.com/")).toBe("https://example.com");
    expect(normalizeUrl("https://example.com:8443/x")).toBe("https://example.com:8443/x");
    expect(normalizeUrl("https://user:pw@example.com/x")).toBe("https://example.com/x");
    expect(normalizeUrl("ftp://example.com/x")).toBeNull();
    expect(normalizeUrl("example.com/x")).toBeNull();
  });
});
