import { and, eq } from "drizzle-orm";
import { folders } from "../../schema/index.ts";
import { MAX_WORDS, MIN_WORDS } from "../config.ts";
import { type Issue, invalidBody, ServiceError } from "../errors.ts";
import type { DbOrTx } from "../store/db.ts";
import { countWords } from "../text/index.ts";

/** Metadata limits (DESIGN decision; the spec leaves key and value lengths "not shown"). */
export const METADATA_MAX_PAIRS = 20;
export const METADATA_KEY_MAX = 40;
export const METADATA_VALUE_MAX = 500;
export const TITLE_MAX = 200; // spec 8
export const AUTHOR_MAX = 120; // spec 8

/**
 * Characters a text may hold per counted word, before and after Unicode normalisation (NFKC can expand one
 * character up to 18 times: U+FDFA). Ordinary prose has 5-7; long compounds, URLs and scripts written without
 * spaces stay far below 64. The bound keeps the work and the storage of a scan proportional to what it is
 * billed: a few "words" of megabytes of characters are refused instead of scored for a few credits.
 */
export const MAX_CHARS_PER_WORD = 64;
/** Short texts get this much room whatever their word count (a 40-word text with a long URL or two). */
export const MIN_CHAR_BUDGET = 4_000;
const NORMALIZE_CHUNK = 65_536;

/** The text's length after NFKC, counted chunk by chunk and abandoned as soon as it passes `budget`. */
export function normalizedLengthWithin(text: string, budget: number): boolean {
  let total = 0;
  for (let i = 0; i < text.length; i += NORMALIZE_CHUNK) {
    total += text.slice(i, i + NORMALIZE_CHUNK).normalize("NFKC").length;
    if (total > budget) return false;
  }
  return true;
}

/** Refuses a text whose characters, as written or once normalised, are out of proportion to its words. */
export function checkTextSize(text: string, words: number, field = "/text"): void {
  const budget = Math.max(MIN_CHAR_BUDGET, words * MAX_CHARS_PER_WORD);
  if (text.length > budget || !normalizedLengthWithin(text, budget)) {
    throw invalidBody(
      [
        {
          path: field,
          message: `At most ${MAX_CHARS_PER_WORD} characters per word (after Unicode normalisation) are accepted; this text has ${words} words in ${text.length.toLocaleString("en")} characters`,
        },
      ],
      "The text has far more characters than words.",
    );
  }
}

/** Counts the words of a scan's text and enforces spec 4.1's limits; the count is also the billing unit. */
export function checkedWordCount(text: string): number {
  const words = countWords(text);
  checkTextSize(text, words);
  if (words < MIN_WORDS) {
    throw new ServiceError("too_short", `The text has ${words} words; at least ${MIN_WORDS} are needed.`);
  }
  if (words > MAX_WORDS) {
    throw new ServiceError(
      "too_long",
      `The text has ${words} words; at most ${MAX_WORDS.toLocaleString("en")} are allowed.`,
    );
  }
  return words;
}

/**
 * Metadata rules beyond the wire schema's types: JSON Schema cannot bound the length of a record's keys, so
 * the count and both lengths are checked here, for every creating endpoint alike.
 */
export function checkMetadata(metadata: Record<string, unknown> | undefined): void {
  if (metadata === undefined) return;
  const issues: Issue[] = [];
  const entries = Object.entries(metadata);
  if (entries.length > METADATA_MAX_PAIRS) {
    issues.push({ path: "/metadata", message: `At most ${METADATA_MAX_PAIRS} pairs, got ${entries.length}` });
  }
  for (const [key, value] of entries) {
    const path = `/metadata/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
    if (key.length < 1 || key.length > METADATA_KEY_MAX) {
      issues.push({ path, message: `Keys must be 1 to ${METADATA_KEY_MAX} characters, got ${key.length}` });
    }
    if (typeof value !== "string") issues.push({ path, message: "Values must be strings" });
    else if (value.length > METADATA_VALUE_MAX) {
      issues.push({
        path,
        message: `Values must be at most ${METADATA_VALUE_MAX} characters, got ${value.length}`,
      });
    }
  }
  if (issues.length > 0) throw invalidBody(issues);
}

/** An unknown or foreign folder is `invalid_body` (spec 4.2), never a hint that it exists elsewhere. */
export function checkFolder(db: DbOrTx, workspaceId: string, folderId: string | undefined): void {
  if (folderId === undefined) return;
  const row = db
    .select({ id: folders.id })
    .from(folders)
    .where(and(eq(folders.id, folderId), eq(folders.workspaceId, workspaceId)))
    .get();
  if (!row)
    throw invalidBody([
      { path: "/folder_id", message: `No folder with id '${folderId}' in this workspace.` },
    ]);
}
