import { describe, expect, test } from "bun:test";
import { findPlagiarism } from "../../src/plagiarism/index.ts";
import { countWords } from "../../src/text/index.ts";
import { ALL_SOURCES, BEEKEEPING, BREAD, RAILWAYS, spaceWords, TIDES, UNRELATED } from "./fixtures.ts";
import { memoryIndex } from "./support.ts";

const index = memoryIndex(ALL_SOURCES);
const [cello, canal, museum] = UNRELATED as [string, string, string];

describe("verbatim copies", () => {
  const copied = spaceWords(TIDES).slice(20, 80).join(" ");
  const text = `${cello} ${copied} ${canal}`;
  const result = findPlagiarism(text, index);

  test("finds the one source and the passage, with offsets that slice back to the copy on both sides", () => {
    expect(result.sources).toHaveLength(1);
    const source = result.sources[0];
    expect(source?.url).toBe("https://example.com/2");
    expect(source?.type).toBe("web");
    expect(source?.matches).toHaveLength(1);
    const match = source?.matches[0];
    if (match === undefined) throw new Error("no match");
    expect(text.slice(match.start, match.end)).toBe(copied);
    expect(TIDES.slice(match.source_start, match.source_end)).toBe(copied);
    expect(source?.excerpt).toBe(copied);
  });

  test("credits the copied words and nothing else", () => {
    expect(result.word_count).toBe(countWords(text));
    expect(result.matched_words).toBe(countWords(copied));
    expect(result.similarity).toBe(Math.round((countWords(copied) / countWords(text)) * 1000) / 10);
    expect(result.sources[0]?.percent).toBe(result.similarity);
  });

  test("a whole copy is 100% similar", () => {
    const whole = findPlagiarism(BREAD, index);
    expect(whole.similarity).toBe(100);
    expect(whole.matched_words).toBe(countWords(BREAD));
  });
});

describe("light edits", () => {
  test("substituted, inserted and deleted words stay inside one passage", () => {
    const words = spaceWords(BEEKEEPING).slice(0, 90);
    words[12] = "protected"; // substitution ("sheltered")
    words.splice(30, 0, "really"); // insertion
    words.splice(50, 1); // deletion
    words[70] = "usually"; // substitution
    const edited = words.join(" ");
    const text = `${museum} ${edited} ${cello}`;
    const result = findPlagiarism(text, index);
    expect(result.sources).toHaveLength(1);
    const matches = result.sources[0]?.matches ?? [];
    expect(matches).toHaveLength(1);
    const match = matches[0];
    if (match === undefined) throw new Error("no match");
    // The passage spans the edited copy (edges may lose a word only if an edit sits there; none does here).
    expect(text.slice(match.start, match.end)).toBe(edited);
    expect(result.matched_words).toBe(countWords(edited));
  });

  test("case, punctuation and spacing changes do not matter", () => {
    const copy = spaceWords(RAILWAYS).slice(0, 60).join("  ").toUpperCase().replaceAll(",", ";");
    const result = findPlagiarism(`${canal} ${copy}`, index);
    expect(result.sources[0]?.url).toBe("https://example.com/4");
    expect(result.sources[0]?.matched_words).toBe(countWords(copy));
  });
});

describe("reordering", () => {
  test("sentences of a source in another order are found as one passage of that source", () => {
    const sentences = BREAD.match(/[^.]+\./g) ?? [];
    expect(sentences.length).toBeGreaterThanOrEqual(4);
    const reordered = [sentences[3], sentences[0], sentences[2], sentences[1]]
      .map((s) => s?.trim())
      .join(" ");
    const text = `${cello} ${reordered} ${museum}`;
    const result = findPlagiarism(text, index);
    expect(result.sources).toHaveLength(1);
    expect(result.sources[0]?.url).toBe("https://example.com/3");
    expect(result.sources[0]?.matches).toHaveLength(1);
    expect(result.matched_words).toBeGreaterThanOrEqual(countWords(reordered) - 2);
  });

  test("passages from several sources are each credited to their own source, each word once", () => {
    const fromTides = spaceWords(TIDES).slice(0, 40).join(" ");
    const fromRailways = spaceWords(RAILWAYS).slice(40, 90).join(" ");
    const text = `${fromRailways} ${cello} ${fromTides}`;
    const result = findPlagiarism(text, index);
    expect(result.sources.map((s) => s.url)).toEqual(["https://example.com/4", "https://example.com/2"]);
    expect(result.sources.map((s) => s.matched_words)).toEqual([
      countWords(fromRailways),
      countWords(fromTides),
    ]);
    expect(result.matched_words).toBe(countWords(fromRailways) + countWords(fromTides));
  });
});

describe("no false matches", () => {
  test("unrelated texts match nothing", () => {
    for (const text of UNRELATED) {
      const result = findPlagiarism(text, index);
      expect(result.sources).toEqual([]);
      expect(result.similarity).toBe(0);
      expect(result.matched_words).toBe(0);
    }
  });

  test("a shared stock phrase shorter than a passage is not reported", () => {
    const phrase = spaceWords(TIDES).slice(0, 8).join(" "); // "The height of the tide at any harbour"
    const result = findPlagiarism(`${cello} ${phrase} ${canal}`, index);
    expect(result.sources).toEqual([]);
  });

  test("an empty index and an empty text give an empty result", () => {
    expect(findPlagiarism(cello, memoryIndex([]))).toEqual({
      similarity: 0,
      word_count: countWords(cello),
      matched_words: 0,
      sources: [],
    });
    expect(findPlagiarism("", index)).toEqual({
      similarity: 0,
      word_count: 0,
      matched_words: 0,
      sources: [],
    });
  });
});

describe("each submitted word is credited once", () => {
  test("two sources holding the same passage both report it, the total counts it once", () => {
    const twin = memoryIndex([TIDES, `${canal} ${TIDES}`]);
    const copied = spaceWords(TIDES).slice(10, 60).join(" ");
    const result = findPlagiarism(`${museum} ${copied}`, twin);
    expect(result.sources).toHaveLength(2);
    for (const source of result.sources) expect(source.matched_words).toBe(countWords(copied));
    expect(result.matched_words).toBe(countWords(copied));
  });
});
