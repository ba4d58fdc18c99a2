import { afterAll, describe, expect, test } from "bun:test";
import {
  addLibraryDocument,
  addLibraryDocuments,
  checkPlagiarism,
  compactFingerprints,
  getLibraryDocument,
  getWebPage,
  listLibraryDocuments,
  removeLibraryDocument,
  removeWebPage,
  upsertWebPage,
  upsertWebPages,
} from "../../src/fingerprints/index.ts";
import { countWords } from "../../src/text/index.ts";
import { BEEKEEPING, BREAD, RAILWAYS, spaceWords, TIDES, UNRELATED } from "./fixtures.ts";
import { tempStore } from "./support.ts";

/** The instant every document of these tests is added at: the index keeps no other notion of time. */
const NOW = Date.parse("2026-11-22T12:00:00Z");
const [cello, canal] = UNRELATED as [string, string];
const copyOf = (text: string) => spaceWords(text).slice(5, 65).join(" ");
const countRows = (t: ReturnType<typeof tempStore>, table: string) =>
  (t.store.sqlite.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
/** Fingerprint rows in both tables of the index (recent and compacted). */
const fingerprintRows = (t: ReturnType<typeof tempStore>) =>
  countRows(t, "plagiarism_fingerprints") + countRows(t, "plagiarism_fingerprints_recent");

describe("library documents", () => {
  const t = tempStore();
  afterAll(t.close);
  const workspaceA = t.workspace("A");
  const workspaceB = t.workspace("B");
  const doc = addLibraryDocument(
    t.store,
    workspaceA,
    {
      title: "Bees in the city",
      text: BEEKEEPING,
      metadata: { course: "biology" },
    },
    NOW,
  );
  const submitted = `${cello} ${copyOf(BEEKEEPING)}`;

  test("a document added to a workspace is stored and found by that workspace's checks", () => {
    expect(doc.id).toMatch(/^doc_[0-9a-f]{32}$/);
    expect(doc.wordCount).toBe(countWords(BEEKEEPING));
    expect(getLibraryDocument(t.store, workspaceA, doc.id)?.text).toBe(BEEKEEPING);
    const result = checkPlagiarism(t.store, workspaceA, submitted);
    expect(result.sources).toHaveLength(1);
    expect(result.sources[0]).toMatchObject({
      type: "document",
      url: null,
      title: "Bees in the city",
      document_id: doc.id,
      matched_words: countWords(copyOf(BEEKEEPING)),
    });
    const match = result.sources[0]?.matches[0];
    expect(BEEKEEPING.slice(match?.source_start, match?.source_end)).toBe(copyOf(BEEKEEPING));
  });

  test("another workspace never sees it: not as a source, not by id, not in a listing", () => {
    expect(checkPlagiarism(t.store, workspaceB, submitted).sources).toEqual([]);
    expect(getLibraryDocument(t.store, workspaceB, doc.id)).toBeNull();
    expect(listLibraryDocuments(t.store, workspaceB)).toEqual([]);
    expect(removeLibraryDocument(t.store, workspaceB, doc.id)).toBe(false);
    expect(checkPlagiarism(t.store, workspaceA, submitted).sources).toHaveLength(1);
  });

  test("workspace B's own copy of the same text is B's source only", () => {
    const twin = addLibraryDocument(t.store, workspaceB, { title: "B's bees", text: BEEKEEPING }, NOW);
    expect(checkPlagiarism(t.store, workspaceB, submitted).sources.map((s) => s.document_id)).toEqual([
      twin.id,
    ]);
    expect(checkPlagiarism(t.store, workspaceA, submitted).sources.map((s) => s.document_id)).toEqual([
      doc.id,
    ]);
    expect(removeLibraryDocument(t.store, workspaceB, twin.id)).toBe(true);
  });

  test("listing pages through a workspace's documents, newest first", () => {
    const more = addLibraryDocuments(
      t.store,
      workspaceA,
      [
        { title: "Tides", text: TIDES },
        { title: "Bread", text: BREAD },
      ],
      doc.createdAt + 1000,
    );
    const firstPage = listLibraryDocuments(t.store, workspaceA, { limit: 2 });
    expect(firstPage).toHaveLength(2);
    const last = firstPage[1];
    if (last === undefined) throw new Error("short page");
    const secondPage = listLibraryDocuments(t.store, workspaceA, { limit: 2, after: last });
    expect([...firstPage, ...secondPage].map((d) => d.id).sort()).toEqual(
      [doc.id, ...more.map((d) => d.id)].sort(),
    );
    expect(secondPage.map((d) => d.id)).toEqual([doc.id]);
    for (const d of more) removeLibraryDocument(t.store, workspaceA, d.id);
  });

  test("removal deletes the document and every one of its fingerprints", () => {
    expect(fingerprintRows(t)).toBeGreaterThan(0);
    expect(removeLibraryDocument(t.store, workspaceA, doc.id)).toBe(true);
    expect(getLibraryDocument(t.store, workspaceA, doc.id)).toBeNull();
    expect(checkPlagiarism(t.store, workspaceA, submitted).sources).toEqual([]);
    expect(fingerprintRows(t)).toBe(0);
    expect(removeLibraryDocument(t.store, workspaceA, doc.id)).toBe(false);
  });
});

describe("web pages", () => {
  const t = tempStore();
  afterAll(t.close);
  const workspaceA = t.workspace("A");
  const workspaceB = t.workspace("B");

  test("a web page is a source for every workspace, under its normalised URL", () => {
    const page = upsertWebPage(t.store, {
      url: "HTTPS://Example.com:443/history/railway-time/#intro",
      title: "Railway time",
      text: RAILWAYS,
      fetchedAt: 1_700_000_000_000,
    });
    expect(page.id).toMatch(/^wp_[0-9a-f]{32}$/);
    expect(page.url).toBe("https://example.com/history/railway-time");
    const submitted = `${canal} ${copyOf(RAILWAYS)}`;
    for (const workspace of [workspaceA, workspaceB]) {
      const result = checkPlagiarism(t.store, workspace, submitted);
      expect(result.sources.map((s) => [s.type, s.url, s.title])).toEqual([
        ["web", "https://example.com/history/railway-time", "Railway time"],
      ]);
      expect(
        checkPlagiarism(t.store, workspace, submitted, {
          excludeUrls: ["https://example.com/history/railway-time/"],
        }).sources,
      ).toEqual([]);
    }
  });

  test("upserting the same URL replaces the text and keeps the id", () => {
    const before = getWebPage(t.store, "https://example.com/history/railway-time");
    const after = upsertWebPage(t.store, {
      url: "https://example.com/history/railway-time",
      title: "Tides (moved)",
      text: TIDES,
      fetchedAt: 1_700_000_100_000,
    });
    expect(after.id).toBe(before?.id as string);
    expect(checkPlagiarism(t.store, workspaceA, `${canal} ${copyOf(RAILWAYS)}`).sources).toEqual([]);
    expect(checkPlagiarism(t.store, workspaceA, `${canal} ${copyOf(TIDES)}`).sources[0]?.title).toBe(
      "Tides (moved)",
    );
  });

  test("removal by any spelling of the URL deletes the page and its fingerprints", () => {
    expect(removeWebPage(t.store, "https://EXAMPLE.com/history/railway-time/")).toBe(true);
    expect(getWebPage(t.store, "https://example.com/history/railway-time")).toBeNull();
    expect(checkPlagiarism(t.store, workspaceA, `${canal} ${copyOf(TIDES)}`).sources).toEqual([]);
    expect(fingerprintRows(t)).toBe(0);
    expect(removeWebPage(t.store, "https://example.com/history/railway-time")).toBe(false);
  });

  test("a URL that is not http(s) is refused", () => {
    expect(() =>
      upsertWebPage(t.store, { url: "ftp://example.com/x", title: "x", text: TIDES, fetchedAt: 0 }),
    ).toThrow(/Not an http\(s\) URL/);
  });
});

describe("library and web together", () => {
  const t = tempStore();
  afterAll(t.close);
  const workspace = t.workspace("A");

  test("passages from a library document and a web page are both reported, each word credited once", () => {
    const doc = addLibraryDocument(t.store, workspace, { title: "Bread notes", text: BREAD }, NOW);
    upsertWebPage(t.store, { url: "https://example.com/bread", title: "Bread", text: BREAD, fetchedAt: 0 });
    upsertWebPage(t.store, { url: "https://example.com/tides", title: "Tides", text: TIDES, fetchedAt: 0 });
    const fromBread = copyOf(BREAD);
    const fromTides = copyOf(TIDES);
    const result = checkPlagiarism(t.store, workspace, `${fromBread} ${cello} ${fromTides}`);
    expect(result.sources.map((s) => s.document_id ?? s.url).sort()).toEqual(
      [doc.id, "https://example.com/bread", "https://example.com/tides"].sort(),
    );
    expect(result.matched_words).toBe(countWords(fromBread) + countWords(fromTides));
  });
});

describe("web pages in bulk", () => {
  const t = tempStore();
  afterAll(t.close);
  const workspace = t.workspace("A");

  test("a URL given twice in one batch keeps its last text only", () => {
    const [first, second] = upsertWebPages(t.store, [
      { url: "https://example.com/page", title: "Old", text: RAILWAYS, fetchedAt: 1 },
      { url: "https://example.com/page/", title: "New", text: TIDES, fetchedAt: 2 },
    ]);
    expect(first?.id).toBe(second?.id as string);
    expect(second?.title).toBe("New");
    expect(checkPlagiarism(t.store, workspace, `${canal} ${copyOf(RAILWAYS)}`).sources).toEqual([]);
    expect(checkPlagiarism(t.store, workspace, `${canal} ${copyOf(TIDES)}`).sources).toHaveLength(1);
    expect(removeWebPage(t.store, "https://example.com/page")).toBe(true);
    expect(fingerprintRows(t)).toBe(0);
  });
});

describe("compaction", () => {
  const t = tempStore();
  afterAll(t.close);
  const workspaceA = t.workspace("A");
  const workspaceB = t.workspace("B");

  test("moves every fingerprint into the main table; checks, isolation and removal work the same", () => {
    const docs = addLibraryDocuments(
      t.store,
      workspaceA,
      [
        { title: "Bees", text: BEEKEEPING },
        { title: "Bread", text: BREAD },
      ],
      NOW,
    );
    upsertWebPage(t.store, { url: "https://example.com/tides", title: "Tides", text: TIDES, fetchedAt: 0 });
    const rows = fingerprintRows(t);
    expect(countRows(t, "plagiarism_fingerprints_recent")).toBe(rows);

    expect(compactFingerprints(t.store)).toBe(rows);
    expect(countRows(t, "plagiarism_fingerprints_recent")).toBe(0);
    expect(countRows(t, "plagiarism_fingerprints")).toBe(rows);
    expect(compactFingerprints(t.store)).toBe(0);

    const submitted = `${copyOf(BEEKEEPING)} ${cello} ${copyOf(TIDES)}`;
    expect(
      checkPlagiarism(t.store, workspaceA, submitted)
        .sources.map((s) => s.title)
        .sort(),
    ).toEqual(["Bees", "Tides"]);
    expect(checkPlagiarism(t.store, workspaceB, submitted).sources.map((s) => s.title)).toEqual(["Tides"]);

    // A document added after compaction sits in the recent table; both are searched together.
    addLibraryDocument(t.store, workspaceA, { title: "Railways", text: RAILWAYS }, NOW);
    expect(countRows(t, "plagiarism_fingerprints_recent")).toBeGreaterThan(0);
    expect(checkPlagiarism(t.store, workspaceA, `${copyOf(RAILWAYS)} ${copyOf(BREAD)}`).sources).toHaveLength(
      2,
    );

    for (const doc of docs) expect(removeLibraryDocument(t.store, workspaceA, doc.id)).toBe(true);
    expect(removeWebPage(t.store, "https://example.com/tides")).toBe(true);
    expect(checkPlagiarism(t.store, workspaceA, submitted).sources).toEqual([]);
    expect(countRows(t, "plagiarism_fingerprints")).toBe(0);
  });
});
