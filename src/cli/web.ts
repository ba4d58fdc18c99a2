import { readFileSync } from "node:fs";
import { removeWebPage, type WebPage } from "../fingerprints/index.ts";
import { iso } from "../time.ts";
import { type ImportOutcome, importUrls, importWarc, WarcFormatError } from "../webimport/index.ts";
import { type Command, UsageError } from "./command.ts";

const pageObject = (page: WebPage) => ({
  id: page.id,
  object: "web_page" as const,
  url: page.url,
  title: page.title,
  word_count: page.wordCount,
  fetched_at: iso(page.fetchedAt),
});

const listOf = (value: unknown): string[] =>
  value === undefined ? [] : Array.isArray(value) ? value.map(String) : [String(value)];

/** URLs of a list file: one a line; blank lines and lines starting with # are left out. */
function urlsOfFile(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(`cannot read ${path}: ${code === "ENOENT" ? "no such file" : (error as Error).message}`);
  }
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}

export const webCommands: Command[] = [
  {
    name: "web import",
    summary:
      "Add web pages to the local web index, shared by every workspace: fetched from URLs (private and loopback " +
      "addresses refused unless TEXTSCAN_WEB_ALLOW_NETWORKS allows them) or read from WARC files. The main text " +
      "is extracted; a page already indexed under the same URL is replaced.",
    args: "[URL...]",
    usesStore: true,
    options: {
      file: {
        type: "string",
        multiple: true,
        description: "A file of URLs, one a line (# starts a comment).",
        valueName: "FILE",
      },
      warc: {
        type: "string",
        multiple: true,
        description: "A WARC file (.warc or .warc.gz) whose HTML and text responses are imported.",
        valueName: "FILE",
      },
      json: { type: "boolean", description: "Print {imported, failed, ignored_records} as JSON." },
    },
    async run({ values, positionals, store, context, out }) {
      const urls = [...positionals, ...listOf(values.file).flatMap(urlsOfFile)];
      const warcs = listOf(values.warc);
      if (urls.length === 0 && warcs.length === 0) {
        throw new UsageError("give at least one URL, --file FILE or --warc FILE");
      }
      const settings = context().config.webFetch;
      const now = context().clock;
      const imported: WebPage[] = [];
      const failed: Array<{ url: string; reason: string }> = [];
      let ignored = 0;
      const report = (outcome: ImportOutcome) => {
        if (outcome.ok) {
          imported.push(outcome.page);
          if (!values.json) {
            out(
              `imported ${outcome.page.id}  ${outcome.page.url}  ${outcome.page.title} (${outcome.page.wordCount} words)`,
            );
          }
        } else {
          failed.push({ url: outcome.url, reason: outcome.reason });
        }
      };
      if (urls.length > 0) await importUrls(store(), urls, settings, { onOutcome: report, now });
      for (const path of warcs) {
        try {
          ignored += (await importWarc(store(), path, settings, { onOutcome: report, now })).ignored;
        } catch (error) {
          const why =
            (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message;
          const message = `${path}: ${error instanceof WarcFormatError ? `not a readable WARC file (${why})` : why}`;
          failed.push({ url: path, reason: message });
        }
      }
      const alone = imported.length + failed.length === 1;
      // Failures are named together at the end; a lone one is the command's single error line.
      if (!alone) for (const { reason } of failed) console.error(`textscan web import: failed ${reason}`);
      if (values.json) {
        out(JSON.stringify({ imported: imported.map(pageObject), failed, ignored_records: ignored }));
      } else if (imported.length + failed.length > 1 || warcs.length > 0) {
        out(
          `imported ${imported.length} pages, ${failed.length} failed${warcs.length > 0 ? `, ${ignored} WARC records without a page ignored` : ""}`,
        );
      }
      if (failed.length > 0) {
        throw new Error(
          alone
            ? (failed[0]?.reason ?? "failed")
            : `${failed.length} sources were not imported (named above)`,
        );
      }
    },
  },
  {
    name: "web remove",
    summary: "Remove a page from the local web index by its URL.",
    args: "URL",
    usesStore: true,
    options: { json: { type: "boolean", description: "Print JSON instead of text." } },
    run({ values, positionals, store, out }) {
      const url = positionals[0];
      if (!url) throw new UsageError("a URL is required");
      if (!removeWebPage(store(), url)) throw new Error(`no page with URL '${url}' in the web index`);
      out(values.json ? JSON.stringify({ url, object: "web_page", deleted: true }) : `removed ${url}`);
    },
  },
];
