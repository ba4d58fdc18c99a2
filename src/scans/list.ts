import { and, desc, eq, gt, lt, or, type SQL, sql } from "drizzle-orm";
import { scans } from "../../schema/index.ts";
import { invalidBody } from "../errors.ts";
import type { DbOrTx } from "../store/db.ts";
import { type ScanObject, type ScanRow, scanObject } from "./view.ts";

export const DEFAULT_SCAN_PAGE = 20;
export const MAX_SCAN_PAGE = 100;

export interface ScanFilters {
  type?: ScanRow["type"];
  status?: ScanRow["status"];
  /** The ai_text verdict (human, mixed, ai); scans without one never match. */
  verdict?: "human" | "mixed" | "ai";
  folderId?: string;
  source?: ScanRow["source"];
  /** Epoch ms, inclusive / exclusive. */
  createdAfter?: number;
  createdBefore?: number;
  /** Case-insensitive substring of the title. */
  title?: string;
}

export interface ScanList {
  object: "list";
  data: ScanObject[];
  has_more: boolean;
}

/**
 * A workspace's scans, newest first, with the same cursor paging as the documents list: `startingAfter` names the
 * last scan of the previous page. Filters combine with AND. Scans of another workspace are never visible, and a
 * cursor of another workspace is refused like an unknown one.
 */
export function listScans(
  db: DbOrTx,
  workspaceId: string,
  options: ScanFilters & { limit?: number; startingAfter?: string } = {},
): ScanList {
  const limit = Math.min(Math.max(options.limit ?? DEFAULT_SCAN_PAGE, 1), MAX_SCAN_PAGE);
  const conditions: SQL[] = [eq(scans.workspaceId, workspaceId)];
  if (options.startingAfter !== undefined) {
    const anchor = db
      .select({ createdAt: scans.createdAt, id: scans.id })
      .from(scans)
      .where(and(eq(scans.id, options.startingAfter), eq(scans.workspaceId, workspaceId)))
      .get();
    if (!anchor) {
      throw invalidBody(
        [{ path: "/starting_after", message: `No scan with id '${options.startingAfter}'` }],
        "The request query is not valid.",
      );
    }
    conditions.push(
      or(
        lt(scans.createdAt, anchor.createdAt),
        and(eq(scans.createdAt, anchor.createdAt), lt(scans.id, anchor.id)),
      ) as SQL,
    );
  }
  if (options.type !== undefined) conditions.push(eq(scans.type, options.type));
  if (options.status !== undefined) conditions.push(eq(scans.status, options.status));
  if (options.folderId !== undefined) conditions.push(eq(scans.folderId, options.folderId));
  if (options.source !== undefined) conditions.push(eq(scans.source, options.source));
  if (options.createdAfter !== undefined) conditions.push(gt(scans.createdAt, options.createdAfter - 1));
  if (options.createdBefore !== undefined) conditions.push(lt(scans.createdAt, options.createdBefore));
  if (options.verdict !== undefined) {
    conditions.push(sql`json_extract(${scans.result}, '$.verdict') = ${options.verdict}`);
  }
  if (options.title !== undefined && options.title !== "") {
    // LIKE is case-insensitive for ASCII in SQLite; the pattern's own wildcards are escaped.
    const escaped = options.title.replace(/[\\%_]/g, (c) => `\\${c}`);
    conditions.push(sql`${scans.title} LIKE ${`%${escaped}%`} ESCAPE '\\'`);
  }
  const rows = db
    .select()
    .from(scans)
    .where(and(...conditions))
    .orderBy(desc(scans.createdAt), desc(scans.id))
    .limit(limit + 1)
    .all();
  return { object: "list", data: rows.slice(0, limit).map(scanObject), has_more: rows.length > limit };
}
