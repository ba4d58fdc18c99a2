import { and, eq } from "drizzle-orm";
import { scans } from "../../schema/index.ts";
import { notFound } from "../errors.ts";
import { SCAN_ID_PATTERN } from "../ids.ts";
import type { DbOrTx } from "../store/db.ts";
import { type ScanObject, scanObject } from "./view.ts";

export { type AiTextScanInput, createAiTextScan } from "./detect.ts";
export { type ScanObject, type ScanRow, scanObject } from "./view.ts";

/** Any scan of the workspace, whatever created it; another workspace's scan is simply `not_found`. */
export function getScan(db: DbOrTx, workspaceId: string, id: string): ScanObject {
  if (!SCAN_ID_PATTERN.test(id)) throw notFound("scan", id);
  const row = db
    .select()
    .from(scans)
    .where(and(eq(scans.id, id), eq(scans.workspaceId, workspaceId)))
    .get();
  if (!row) throw notFound("scan", id);
  return scanObject(row);
}
