import { describe, expect, test } from "bun:test";
import { splitSentences } from "../../src/text/index.ts";

const texts = (t: string) => splitSentences(t).map((s) => s.text);

describe("splitSentences", () => {
  test("offsets point into the original text", () => {
    const text = "  First one here.   Second\u200B one!\n\n- third item\nFourth?";
    const spans = splitSentences(text);
    expect(spans.length).toBe(4);
    for (const s of spans) expect(text.slice(s.start, s.end)).toBe(s.text);
  });

  test("survives abbreviations and decimals", () => {
    expect(texts("Dr. Smith paid $3.50 for it. Then he left.")).toEqual([
      "Dr. Smith paid $3.50 for it.",
      "Then he left.",
    ]);
    expect(texts("Use tools, e.g. hammers. They help.")).toEqual(["Use tools, e.g. hammers.", "They help."]);
  });

  test("survives initials", () => {
    expect(texts("J. R. R. Tolkien wrote it. It sold well.")).toEqual([
      "J. R. R. Tolkien wrote it.",
      "It sold well.",
    ]);
  });

  test("keeps quotes with their sentence", () => {
    expect(texts('He said "Stop." Then he ran. "Why?" she asked.')).toEqual([
      'He said "Stop."',
      "Then he ran.",
      '"Why?" she asked.',
    ]);
  });

  test("splits bullets and drops their markers", () => {
    expect(texts("Points:\n- first point\n* second point\n1. third point\n2) fourth")).toEqual([
      "Points:",
      "first point",
      "second point",
      "third point",
      "fourth",
    ]);
  });

  test("splits paragraphs but joins hard-wrapped lines", () => {
    expect(texts("This line is hard\nwrapped here. Next one.\n\nA heading\nBody text.")).toEqual([
      "This line is hard\nwrapped here.",
      "Next one.",
      "A heading",
      "Body text.",
    ]);
  });

  test("handles ellipses, ?! runs and a missing final period", () => {
    expect(texts("Wait... What?! No way")).toEqual(["Wait...", "What?!", "No way"]);
  });

  test("splits East Asian full stops", () => {
    expect(texts("这是第一句。这是第二句！")).toEqual(["这是第一句。", "这是第二句！"]);
  });

  test("returns nothing for text without words", () => {
    expect(splitSentences(" ... \n\n -- ")).toEqual([]);
  });
});
