import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { countWords, tokenizeWords } from "../../src/text/index.ts";
import { essay, json, type TestApp, testApp } from "../support/harness.ts";

/** Replays of the security review's findings on counting and sizing text (issue "Foundation", 2, 3, 4, 14). */
let app: TestApp;
beforeAll(() => {
  app = testApp();
});
afterAll(() => app.close());

/** `groups` runs of `per` distinct words joined by `joiner`, separated by spaces. */
const joined = (groups: number, per: number, joiner: string) =>
  Array.from({ length: groups }, (_, g) =>
    Array.from({ length: per }, (_, i) => `word${g}n${i}`).join(joiner),
  ).join(" ");

describe("finding 2: the limit and the bill count the words the engines analyse", () => {
  test("1,000 words joined in groups of 25 by hyphens, periods or apostrophes are 1,000 words", () => {
    for (const joiner of ["-", ".", "'"]) {
      const text = joined(40, 25, joiner);
      expect(countWords(text)).toBe(1_000);
      // The engines analyse exactly these tokens (src/plagiarism/analysis.ts, src/detection/features.ts).
      expect(tokenizeWords(text)).toHaveLength(1_000);
    }
  });

  test("compounds of up to three parts stay one word", () => {
    expect(countWords("well-known mother-in-law e.g. 3.14 don't state-of-the-art")).toBe(9);
  });

  test("a detect of hyphen-joined words is billed per word", async () => {
    const { key } = app.workspace({ credits: 10_000 });
    const res = await app.request("POST", "/api/v1/detect", { key, body: { text: joined(40, 25, "-") } });
    expect(res.status).toBe(200);
    expect((await json(res)).credits_used).toBe(1_000);
  });

  test("30,000 real words hidden in 40 joined runs are too_long, not 40 credits", async () => {
    const { key } = app.workspace({ plan: "team", credits: 1_000_000 });
    const text = joined(40, 750, "-");
    for (const path of ["/api/v1/detect", "/api/v1/plagiarism"]) {
      const res = await app.request("POST", path, { key, body: { text } });
      expect(res.status).toBe(400);
      expect((await json(res)).error.code).toBe("too_long");
    }
  });
});

describe("finding 3 and 4: work and storage per credit are bounded", () => {
  test("40 'words' of U+FDFA (NFKC expands it 18x) are refused, charged nothing", async () => {
    const { key } = app.workspace({ credits: 1_000 });
    const text = Array.from({ length: 40 }, () => "\uFDFA".repeat(5_000)).join(" ");
    const res = await app.request("POST", "/api/v1/detect", { key, body: { text } });
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body.error.code).toBe("invalid_body");
    expect(body.error.issues[0].path).toBe("/text");
    expect((await json(app.request("GET", "/api/v1/usage", { key }))).credits.balance).toBe(1_000);
  });

  test("a text that expands past the budget only once normalised is refused too", async () => {
    const { key } = app.workspace({ credits: 1_000 });
    // 200 characters per word as written would already be refused; 20 ligatures per word pass as written
    // (under 64 characters) but expand to 360.
    const text = Array.from({ length: 60 }, () => "\uFDFA".repeat(20)).join(" ");
    expect(text.length / 60).toBeLessThan(64);
    const res = await app.request("POST", "/api/v1/detect", { key, body: { text } });
    expect(res.status).toBe(400);
    expect((await json(res)).error.message).toContain("more characters than words");
  });

  test("what an accepted scan stores is proportional to its words", async () => {
    const { key } = app.workspace({ credits: 100_000 });
    const res = await app.request("POST", "/api/v1/detect", { key, body: { text: essay(2_000) } });
    expect(res.status).toBe(200);
    const scan = await json(res);
    const stored = app.service.store.sqlite
      .query(
        `SELECT length(s.text) + length(s.result) + coalesce((SELECT sum(length(e.payload)) FROM events e WHERE e.scan_id = s.id), 0) AS bytes
         FROM scans s WHERE s.id = ?`,
      )
      .get(scan.id) as { bytes: number };
    // Text, result and event together stay under 1 KB per billed word (64 characters per word at most).
    expect(stored.bytes / scan.credits_used).toBeLessThan(1_024);
  });

  test("library documents get the same bound (they are free, so it matters more)", async () => {
    const { key } = app.workspace();
    const text = Array.from({ length: 40 }, () => "x".repeat(2_000)).join(" ");
    const res = await app.request("POST", "/api/v1/documents", { key, body: { title: "Huge", text } });
    expect(res.status).toBe(400);
  });
});

describe("finding 14: metadata arrays and reserved keys are refused, never reshaped or dropped", () => {
  test("an array, __proto__ and constructor: 400 invalid_body naming the field", async () => {
    const { key } = app.workspace({ credits: 1_000 });
    for (const [metadata, path] of [
      ['["a"]', "/metadata"],
      ['{"__proto__":"x","a":"b"}', "/metadata/__proto__"],
      ['{"constructor":"x"}', "/metadata/constructor"],
    ] as const) {
      const body = `{"text":${JSON.stringify(essay(45))},"metadata":${metadata}}`;
      const res = await app.request("POST", "/api/v1/detect", { key, body });
      expect(res.status).toBe(400);
      expect((await json(res)).error.issues[0].path).toBe(path);
    }
    expect((await json(app.request("GET", "/api/v1/usage", { key }))).credits.balance).toBe(1_000);
  });
});
