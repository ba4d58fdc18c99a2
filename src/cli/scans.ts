import { getScan } from "../scans/index.ts";
import { listScans, MAX_SCAN_PAGE } from "../scans/list.ts";
import type { ScanObject } from "../scans/view.ts";
import { type Command, optionalInteger, requireString, UsageError } from "./command.ts";

const JSON_OPTION = { type: "boolean" as const, description: "Print the API's JSON instead of text." };

const pick = <T extends string>(value: unknown, allowed: readonly T[], name: string): T | undefined => {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`--${name} must be one of ${allowed.join(", ")}`);
  }
  return value as T;
};

const instant = (value: unknown, name: string): number | undefined => {
  if (value === undefined) return undefined;
  const ms = Date.parse(String(value));
  if (Number.isNaN(ms)) throw new UsageError(`--${name} must be a date or date-time (ISO 8601)`);
  return ms;
};

/** One line a scan: what a person scanning the list wants first. */
function line(scan: ScanObject): string {
  const verdict = (scan.result as { verdict?: string } | null)?.verdict;
  const similarity = (scan.result as { similarity?: number } | null)?.similarity;
  const outcome =
    scan.status !== "completed"
      ? scan.status
      : verdict !== undefined
        ? `${verdict}`
        : similarity !== undefined
          ? `${similarity}% similar`
          : "completed";
  return `${scan.id}  ${scan.created_at}  ${scan.type.padEnd(10)}  ${outcome.padEnd(12)}  ${scan.source.padEnd(9)}  ${scan.title ?? "(untitled)"}`;
}

export const scanCommands: Command[] = [
  {
    name: "scans list",
    summary: "List a workspace's scans, newest first (API, dashboard and CLI alike), with the API's filters.",
    usesStore: true,
    options: {
      workspace: { type: "string", description: "Workspace id (required).", valueName: "ID" },
      limit: {
        type: "string",
        description: `Scans per page, 1-${MAX_SCAN_PAGE} (default 20).`,
        valueName: "N",
      },
      after: { type: "string", description: "The last scan id of the previous page.", valueName: "SCAN_ID" },
      type: { type: "string", description: "ai_text, plagiarism or ai_image.", valueName: "TYPE" },
      status: {
        type: "string",
        description: "queued, processing, completed or failed.",
        valueName: "STATUS",
      },
      verdict: { type: "string", description: "human, mixed or ai.", valueName: "VERDICT" },
      folder: { type: "string", description: "Folder id.", valueName: "ID" },
      source: { type: "string", description: "api, dashboard or cli.", valueName: "SOURCE" },
      since: { type: "string", description: "Created at or after (ISO 8601).", valueName: "DATE" },
      until: { type: "string", description: "Created before (ISO 8601).", valueName: "DATE" },
      title: { type: "string", description: "Part of the title (case-insensitive).", valueName: "TEXT" },
      json: JSON_OPTION,
    },
    run({ values, store, out }) {
      const limit = optionalInteger(values, "limit");
      const createdAfter = instant(values.since, "since");
      const createdBefore = instant(values.until, "until");
      const type = pick(values.type, ["ai_text", "plagiarism", "ai_image"] as const, "type");
      const status = pick(values.status, ["queued", "processing", "completed", "failed"] as const, "status");
      const verdict = pick(values.verdict, ["human", "mixed", "ai"] as const, "verdict");
      const source = pick(values.source, ["api", "dashboard", "cli"] as const, "source");
      const page = listScans(store().db, requireString(values, "workspace"), {
        ...(limit !== undefined && { limit }),
        ...(typeof values.after === "string" && { startingAfter: values.after }),
        ...(type && { type }),
        ...(status && { status }),
        ...(verdict && { verdict }),
        ...(source && { source }),
        ...(typeof values.folder === "string" && { folderId: values.folder }),
        ...(createdAfter !== undefined && { createdAfter }),
        ...(createdBefore !== undefined && { createdBefore }),
        ...(typeof values.title === "string" && { title: values.title }),
      });
      if (values.json) {
        out(JSON.stringify(page));
        return;
      }
      if (page.data.length === 0) out("no scans");
      for (const scan of page.data) out(line(scan));
      const last = page.data.at(-1);
      if (page.has_more && last)
        out(`more: textscan scans list --workspace ${values.workspace} --after ${last.id}`);
    },
  },
  {
    name: "scans show",
    summary: "Show one scan of a workspace: its fields and result (the API's scan object with --json).",
    args: "SCAN_ID",
    usesStore: true,
    options: {
      workspace: { type: "string", description: "Workspace id (required).", valueName: "ID" },
      json: JSON_OPTION,
    },
    run({ values, positionals, store, out }) {
      const id = positionals[0];
      if (!id) throw new UsageError("a SCAN_ID is required");
      const scan = getScan(store().db, requireString(values, "workspace"), id);
      if (values.json) {
        out(JSON.stringify(scan, null, 2));
        return;
      }
      out(line(scan));
      const result = scan.result as Record<string, unknown> | null;
      if (scan.error) out(`error: ${scan.error.code}: ${scan.error.message}`);
      if (result && scan.type === "ai_text") {
        out(
          `human score ${result.human_score}  verdict ${result.verdict}  AI probability ${result.ai_probability}  ` +
            `${result.word_count} words  language ${result.language ?? "unknown"}  model ${result.model_version}`,
        );
      }
      if (result && scan.type === "plagiarism") {
        out(`similarity ${result.similarity}%`);
        for (const source of (result.sources as Array<Record<string, unknown>> | undefined) ?? []) {
          out(`  ${source.percent}%  ${source.title ?? ""}  ${source.url ?? source.document_id ?? ""}`);
        }
      }
      out(`credits ${scan.credits_used}  metadata ${JSON.stringify(scan.metadata)}`);
    },
  },
];
