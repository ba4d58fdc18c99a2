import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { getWebPage } from "../../src/fingerprints/index.ts";
import { openStore } from "../../src/store/db.ts";
import { countWords } from "../../src/text/index.ts";
import { tempDataDir } from "../support/harness.ts";
import { runCli } from "../support/processes.ts";
import { GLACIER_SOURCE, LIGHTHOUSE_SOURCE, page } from "./support.ts";
import { chunked, gzipSync, httpResponse, warcFile, warcRecord } from "./warc-builder.ts";

/** `textscan library ...` and `textscan web import` as a user runs them, on a fresh data directory. */
let dir: string;
let cleanup: () => void;
let workspaceId: string;
let site: ReturnType<typeof Bun.serve>;
let base: string;
const LOCAL = { TEXTSCAN_WEB_ALLOW_NETWORKS: "127.0.0.0/8" };

const cli = (args: string[], env: Record<string, string> = {}) =>
  runCli([...args, "--data-dir", dir], { env: { TEXTSCAN_WEB_ALLOW_NETWORKS: "", ...env } });
const file = (name: string, content: string | Uint8Array) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
const lines = (text: string) => text.split("\n").filter((line) => line !== "");

beforeAll(async () => {
  ({ dir, cleanup } = tempDataDir());
  const created = await cli(["workspace", "create", "--name", "Library", "--plan", "team", "--json"]);
  workspaceId = JSON.parse(created.stdout).id;
  site = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const { pathname } = new URL(request.url);
      if (pathname === "/glaciers") return html(page("Retreating glaciers", GLACIER_SOURCE));
      if (pathname === "/lighthouse") return html(page("The northern lighthouse", LIGHTHOUSE_SOURCE));
      if (pathname === "/moved")
        return new Response(null, { status: 301, headers: { location: "/glaciers" } });
      if (pathname === "/photo") return new Response("PNG", { headers: { "content-type": "image/png" } });
      if (pathname === "/huge") return html(`<p>${"word ".repeat(1_100_000)}</p>`);
      return new Response("missing", { status: 404 });
    },
  });
  base = `http://127.0.0.1:${site.port}`;
});
afterAll(() => {
  site.stop(true);
  cleanup();
});

const html = (body: string) =>
  new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });

describe("textscan library", () => {
  test("add of text, Markdown and HTML files; list; remove", async () => {
    const txt = file("field-notes.txt", GLACIER_SOURCE);
    const md = file(
      "ledger.md",
      `# The lighthouse ledger\n\nFrom the **archive** ([source](https://example.org/ledger)):\n\n> ${LIGHTHOUSE_SOURCE}\n`,
    );
    const htmlFile = file("essay.html", page("Retreating glaciers, an essay", GLACIER_SOURCE));
    const added = await cli(["library", "add", "--workspace", workspaceId, txt, md, htmlFile]);
    expect(added.stderr).toBe("");
    expect(added.code).toBe(0);
    // Not a terminal: plain lines, one per file, then a summary.
    const out = lines(added.stdout);
    expect(out).toHaveLength(4);
    expect(out[0]).toMatch(/^added doc_[0-9a-f]{32} {2}field-notes \(\d+ words\) from .*field-notes\.txt$/);
    expect(out[3]).toBe(`added 3 of 3 files to workspace ${workspaceId}`);

    const listed = await cli(["library", "list", "--workspace", workspaceId, "--json"]);
    expect(listed.code).toBe(0);
    const docs = JSON.parse(listed.stdout) as Array<{ id: string; title: string; word_count: number }>;
    const byTitle = Object.fromEntries(docs.map((d) => [d.title, d]));
    expect(Object.keys(byTitle).sort()).toEqual([
      "Retreating glaciers, an essay",
      "The lighthouse ledger",
      "field-notes",
    ]);
    expect(byTitle["field-notes"]?.word_count).toBe(countWords(GLACIER_SOURCE));
    // Markdown: the words a reader sees (heading, "From the archive (source):", the quotation), no link target.
    expect(byTitle["The lighthouse ledger"]?.word_count).toBe(
      countWords(`The lighthouse ledger From the archive source ${LIGHTHOUSE_SOURCE}`),
    );
    // HTML: the article (Readability drops the heading that repeats the title), not the navigation or footer.
    expect(byTitle["Retreating glaciers, an essay"]?.word_count).toBe(countWords(GLACIER_SOURCE));

    const text = await cli(["library", "list", "--workspace", workspaceId]);
    expect(lines(text.stdout)).toHaveLength(3);
    expect(text.stdout).toContain("field-notes");

    const target = byTitle["field-notes"]?.id as string;
    const removed = await cli(["library", "remove", target]);
    expect(removed.code).toBe(0);
    expect(removed.stdout.trim()).toBe(`removed ${target}`);
    const after = JSON.parse((await cli(["library", "list", "--workspace", workspaceId, "--json"])).stdout);
    expect(after.map((d: { id: string }) => d.id)).not.toContain(target);

    const again = await cli(["library", "remove", target]);
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe(`textscan library remove: No document with id '${target}'.`);
  }, 60_000);

  test("--json prints the added documents", async () => {
    const path = file("one.txt", LIGHTHOUSE_SOURCE);
    const res = await cli(["library", "add", "--workspace", workspaceId, "--json", path]);
    expect(res.code).toBe(0);
    const [entry] = JSON.parse(res.stdout);
    expect(entry.file).toBe(path);
    expect(entry.document).toMatchObject({ object: "document", title: "one", url: null });
  }, 60_000);

  test("errors are one line with a non-zero exit", async () => {
    const cases: Array<[string[], number, RegExp]> = [
      [["library", "add", join(dir, "x.txt")], 2, /^textscan library add: --workspace is required/],
      [
        ["library", "add", "--workspace", workspaceId],
        2,
        /^textscan library add: at least one FILE is required/,
      ],
      [
        ["library", "add", "--workspace", "nope", join(dir, "x.txt")],
        1,
        /^textscan library add: No workspace/,
      ],
      [
        ["library", "add", "--workspace", workspaceId, join(dir, "absent.txt")],
        1,
        /^textscan library add: .*absent\.txt: cannot read it: no such file$/,
      ],
      [
        ["library", "add", "--workspace", workspaceId, file("short.txt", "too short to index")],
        1,
        /^textscan library add: .*short\.txt: The document has 4 words; a library document needs at least 12\.$/,
      ],
      [
        ["library", "add", "--workspace", workspaceId, file("binary.txt", new Uint8Array([0, 1, 2, 3]))],
        1,
        /not a text file/,
      ],
      [["library", "remove"], 2, /^textscan library remove: a DOC_ID is required/],
      [["library", "list"], 2, /^textscan library list: --workspace is required/],
    ];
    for (const [args, code, pattern] of cases) {
      const res = await cli(args);
      expect({ args, code: res.code }).toEqual({ args, code });
      expect(lines(res.stderr)).toHaveLength(1);
      expect(res.stderr.trim()).toMatch(pattern);
    }
  }, 60_000);

  test("a bulk import names and skips the files it cannot add, adds the rest, and exits 1", async () => {
    const good = file("good.txt", GLACIER_SOURCE);
    const res = await cli(["library", "add", "--workspace", workspaceId, good, join(dir, "gone.txt")]);
    expect(res.code).toBe(1);
    expect(lines(res.stderr)).toEqual([
      `textscan library add: skipped ${join(dir, "gone.txt")}: cannot read it: no such file`,
      "textscan library add: 1 of 2 files were not added (named above)",
    ]);
    expect(res.stdout).toContain("added 1 of 2 files");
  }, 60_000);

  test("on a terminal, a bulk import draws a progress bar instead of a line per file", async () => {
    const script = Bun.which("script");
    if (!script) return; // util-linux's `script` gives the command a terminal; absent on some systems
    const files = Array.from({ length: 3 }, (_, i) => file(`bar-${i}.txt`, `${GLACIER_SOURCE} Copy ${i}.`));
    const command = [process.execPath, "src/main.ts", "library", "add", "--workspace", workspaceId, ...files]
      .concat(["--data-dir", dir])
      .map((arg) => `'${arg}'`)
      .join(" ");
    const proc = Bun.spawn([script, "-qec", command, "/dev/null"], {
      cwd: new URL("../../", import.meta.url).pathname,
      stdout: "pipe",
      stderr: "pipe",
      env: { ...process.env, NO_COLOR: "1" },
    });
    const [output, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(0);
    expect(output).toContain("100%  3/3 files");
    expect(output).toContain("#".repeat(30));
    expect(output).not.toContain("from ");
    expect(output).toContain("added 3 of 3 files");
  }, 60_000);
});

describe("textscan web import", () => {
  test("URLs served by a local server: main text and title kept, redirects followed", async () => {
    const res = await cli(["web", "import", `${base}/glaciers`, `${base}/moved`, "--json"], LOCAL);
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    const { imported, failed } = JSON.parse(res.stdout);
    expect(failed).toEqual([]);
    expect(imported.map((p: { url: string }) => p.url)).toEqual([`${base}/glaciers`, `${base}/moved`]);
    expect(imported[0]).toMatchObject({
      object: "web_page",
      url: `${base}/glaciers`,
      title: "Retreating glaciers",
    });
    const store = openStore(dir);
    try {
      const stored = getWebPage(store, `${base}/glaciers`);
      expect(stored?.text).toContain(GLACIER_SOURCE);
      expect(stored?.text).not.toContain("Archive");
      expect(stored?.text).not.toContain("Copyright");
    } finally {
      store.close();
    }
  }, 60_000);

  test("--file: one URL a line, comments and blank lines left out; failures named, the rest imported", async () => {
    const list = file("urls.txt", `# sources\n${base}/lighthouse\n\n${base}/photo\n${base}/absent\n`);
    const res = await cli(["web", "import", "--file", list], LOCAL);
    expect(res.code).toBe(1);
    expect(lines(res.stdout)[0]).toMatch(
      new RegExp(
        `^imported wp_[0-9a-f]{32} {2}${base}/lighthouse {2}The northern lighthouse \\(\\d+ words\\)$`,
      ),
    );
    expect(lines(res.stderr)).toEqual([
      `textscan web import: failed ${base}/photo: image/png is not a text page (expected HTML or plain text)`,
      `textscan web import: failed ${base}/absent: HTTP 404`,
      "textscan web import: 2 sources were not imported (named above)",
    ]);
  }, 60_000);

  test("a WARC file built here (plain and gzip): HTML and text pages imported, other records ignored", async () => {
    const records = [
      warcRecord("warcinfo", null, "application/warc-fields", "software: test\r\n"),
      warcRecord(
        "request",
        "https://archive.example/a",
        "application/http; msgtype=request",
        "GET /a HTTP/1.1\r\n\r\n",
      ),
      warcRecord(
        "response",
        "https://archive.example/a",
        "application/http; msgtype=response",
        httpResponse(
          200,
          {
            "Content-Type": "text/html; charset=utf-8",
            "Transfer-Encoding": "chunked",
            "Content-Encoding": "gzip",
          },
          chunked(gzipSync(page("Archived glaciers", GLACIER_SOURCE))),
        ),
      ),
      warcRecord(
        "response",
        "https://archive.example/logo.png",
        "application/http; msgtype=response",
        httpResponse(200, { "Content-Type": "image/png" }, "PNG"),
      ),
      warcRecord(
        "response",
        "https://archive.example/gone",
        "application/http; msgtype=response",
        httpResponse(404, { "Content-Type": "text/html" }, "<p>not found</p>"),
      ),
      warcRecord("resource", "https://archive.example/ledger.txt", "text/plain", LIGHTHOUSE_SOURCE),
    ];
    for (const gzip of [false, true]) {
      const path = file(gzip ? "crawl.warc.gz" : "crawl.warc", warcFile(records, gzip));
      const res = await cli(["web", "import", "--warc", path]);
      expect(res.stderr).toBe("");
      expect(res.code).toBe(0);
      const out = lines(res.stdout);
      expect(out).toHaveLength(3);
      expect(out[0]).toMatch(
        /^imported wp_\w+ {2}https:\/\/archive\.example\/a {2}Archived glaciers \(\d+ words\)$/,
      );
      expect(out[1]).toMatch(
        / {2}https:\/\/archive\.example\/ledger\.txt {2}https:\/\/archive\.example\/ledger\.txt /,
      );
      expect(out[2]).toBe("imported 2 pages, 0 failed, 4 WARC records without a page ignored");
    }
    const store = openStore(dir);
    try {
      const page = getWebPage(store, "https://archive.example/a");
      expect(page?.text).toContain(GLACIER_SOURCE);
      expect(page?.fetchedAt).toBe(Date.parse("2026-11-01T10:00:00Z"));
    } finally {
      store.close();
    }
  }, 60_000);

  test("errors are one line with a non-zero exit", async () => {
    const notWarc = file("notes.warc", "this is not a WARC file\n");
    const cases: Array<[string[], Record<string, string>, number, RegExp]> = [
      [["web", "import"], {}, 2, /^textscan web import: give at least one URL, --file FILE or --warc FILE/],
      [
        ["web", "import", `${base}/glaciers`],
        {},
        1,
        /^textscan web import: http:\/\/127\.0\.0\.1:\d+\/glaciers: refused, 127\.0\.0\.1 is a loopback address; set TEXTSCAN_WEB_ALLOW_NETWORKS to allow it$/,
      ],
      [
        ["web", "import", "ftp://example.org/x"],
        {},
        1,
        /^textscan web import: ftp:\/\/example\.org\/x: the URL must use http or https/,
      ],
      [["web", "import", `${base}/huge`], LOCAL, 1, /larger than 5242880 bytes$/],
      [
        ["web", "import", "--file", join(dir, "none.txt")],
        {},
        1,
        /^textscan web import: cannot read .*none\.txt: no such file$/,
      ],
      [
        ["web", "import", "--warc", notWarc],
        {},
        1,
        /notes\.warc: not a readable WARC file \(record 1 does not start/,
      ],
      [["web", "import", "--warc", join(dir, "none.warc")], {}, 1, /none\.warc: no such file$/],
      [
        ["web", "import", `${base}/glaciers`],
        { TEXTSCAN_WEB_ALLOW_NETWORKS: "not-a-cidr" },
        1,
        /TEXTSCAN_WEB_ALLOW_NETWORKS: 'not-a-cidr'/,
      ],
    ];
    for (const [args, env, code, pattern] of cases) {
      const res = await cli(args, env);
      expect({ args, code: res.code }).toEqual({ args, code });
      expect(lines(res.stderr)).toHaveLength(1);
      expect(res.stderr.trim()).toMatch(pattern);
    }
  }, 60_000);
});
