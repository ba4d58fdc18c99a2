import type { NewLibraryDocument } from "../fingerprints/index.ts";
import {
  checkDocument,
  createDocuments,
  type DocumentObject,
  deleteDocument,
  documentWorkspace,
  listDocuments,
  MAX_PAGE_SIZE,
  readLibraryFile,
} from "../library/index.ts";
import { countWords } from "../text/index.ts";
import { getWorkspace } from "../workspaces/index.ts";
import { type Command, requireString, UsageError } from "./command.ts";

const JSON_OPTION = { type: "boolean" as const, description: "Print JSON instead of text." };
/** Documents written per transaction: big enough to amortise the commit, small enough to show progress. */
const BATCH = 50;
/**
 * Words per write transaction at most: each word is about one fingerprint row, and ~50,000 rows commit in well
 * under a second, so a CLI import never holds the write lock near the server's busy timeout (5 s), whatever
 * the size of the files.
 */
const BATCH_WORDS = 50_000;

const documentLine = (doc: DocumentObject) =>
  `${doc.id}  ${doc.title}  ${doc.word_count} words${doc.url ? `  ${doc.url}` : ""}  ${doc.created_at}`;

const warn = (line: string) => console.error(`textscan library add: ${line}`);

/** A one-line bar on a terminal's standard error, redrawn in place; nothing at all elsewhere. */
class ProgressBar {
  private lastDraw = 0;
  private drawn = false;

  constructor(
    private readonly total: number,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {}

  static wanted(stream: NodeJS.WriteStream = process.stderr): boolean {
    return stream.isTTY === true;
  }

  update(done: number, force = false): void {
    const now = performance.now();
    if (!force && now - this.lastDraw < 100) return; // a redraw per file would cost more than the import
    this.lastDraw = now;
    const width = 30;
    const filled = Math.round((done / Math.max(1, this.total)) * width);
    const percent = Math.floor((done / Math.max(1, this.total)) * 100);
    this.stream.write(
      `\r[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${String(percent).padStart(3)}%  ${done}/${this.total} files`,
    );
    this.drawn = true;
  }

  /** Clears the bar so that a message can be printed on a clean line. */
  clear(): void {
    if (this.drawn) this.stream.write("\r\x1b[2K");
  }

  finish(): void {
    if (this.drawn) this.stream.write("\n");
  }
}

export const libraryCommands: Command[] = [
  {
    name: "library add",
    summary:
      "Add text, Markdown or HTML files to a workspace's library (title from the HTML title, the first Markdown " +
      "heading, else the file name). Files that cannot be added are named and skipped.",
    args: "FILE...",
    usesStore: true,
    options: {
      workspace: { type: "string", description: "Workspace id (required).", valueName: "ID" },
      json: {
        type: "boolean",
        description: "Print the added documents as JSON ({file, document} per file).",
      },
    },
    run({ values, positionals, store, context, out }) {
      const workspaceId = requireString(values, "workspace");
      if (positionals.length === 0) throw new UsageError("at least one FILE is required");
      getWorkspace(store().db, workspaceId); // an unknown workspace stops here, before any file is read
      const bar = ProgressBar.wanted() && positionals.length > 1 ? new ProgressBar(positionals.length) : null;
      const added: Array<{ file: string; document: DocumentObject }> = [];
      const failures: string[] = [];
      const fail = (message: string) => {
        failures.push(message);
        if (positionals.length === 1) return; // the one line of the error says it
        bar?.clear();
        warn(`skipped ${message}`);
      };
      let batch: Array<{ file: string; input: NewLibraryDocument }> = [];
      let batchWords = 0;
      let done = 0;
      const flush = () => {
        if (batch.length === 0) return;
        const documents = createDocuments(
          store(),
          workspaceId,
          batch.map((entry) => entry.input),
          context().clock(),
        );
        documents.forEach((document, i) => {
          const file = batch[i]?.file ?? "";
          added.push({ file, document });
          if (!values.json && !bar)
            out(`added ${document.id}  ${document.title} (${document.word_count} words) from ${file}`);
        });
        batch = [];
        batchWords = 0;
      };
      for (const file of positionals) {
        try {
          const input = readLibraryFile(file);
          // Checked here, file by file, so one bad file is named and skipped rather than failing its batch.
          checkDocument(input);
          const words = countWords(input.text);
          if (batch.length > 0 && batchWords + words > BATCH_WORDS) flush();
          batch.push({ file, input });
          batchWords += words;
          if (batch.length >= BATCH || batchWords >= BATCH_WORDS) flush();
        } catch (error) {
          fail(`${file}: ${(error as Error).message}`);
        }
        bar?.update(++done);
      }
      flush();
      bar?.update(done, true);
      bar?.finish();
      if (values.json) out(JSON.stringify(added));
      else if (bar || positionals.length > 1) {
        out(`added ${added.length} of ${positionals.length} files to workspace ${workspaceId}`);
      }
      if (failures.length > 0) {
        throw new Error(
          positionals.length === 1
            ? (failures[0] as string)
            : `${failures.length} of ${positionals.length} files were not added (named above)`,
        );
      }
    },
  },
  {
    name: "library list",
    summary: "List a workspace's library documents, newest first.",
    usesStore: true,
    options: {
      workspace: { type: "string", description: "Workspace id (required).", valueName: "ID" },
      json: JSON_OPTION,
    },
    run({ values, store, out }) {
      const workspaceId = requireString(values, "workspace");
      getWorkspace(store().db, workspaceId);
      const all: DocumentObject[] = [];
      let startingAfter: string | undefined;
      for (;;) {
        const page = listDocuments(store(), workspaceId, {
          limit: MAX_PAGE_SIZE,
          ...(startingAfter !== undefined && { startingAfter }),
        });
        all.push(...page.data);
        if (!page.has_more) break;
        startingAfter = page.data[page.data.length - 1]?.id;
      }
      if (values.json) out(JSON.stringify(all));
      else if (all.length === 0)
        out(`no documents yet: textscan library add --workspace ${workspaceId} FILE...`);
      else for (const doc of all) out(documentLine(doc));
    },
  },
  {
    name: "library remove",
    summary: "Remove a library document and its fingerprints; later checks no longer find it.",
    args: "DOC_ID",
    usesStore: true,
    options: { json: JSON_OPTION },
    run({ values, positionals, store, out }) {
      const id = positionals[0];
      if (!id) throw new UsageError("a DOC_ID is required (see textscan library list)");
      const removed = deleteDocument(store(), documentWorkspace(store(), id), id);
      out(values.json ? JSON.stringify(removed) : `removed ${removed.id}`);
    },
  },
];
