import type { scans } from "../../schema/index.ts";
import { iso, isoOrNull } from "../time.ts";

export type ScanRow = typeof scans.$inferSelect;
export type ScanType = ScanRow["type"];
export type ScanStatus = ScanRow["status"];

/** The scan object of spec 2.1, plus fields added within v1 (title, author, folder_id, source). */
export interface ScanObject {
  id: string;
  object: "scan";
  type: ScanType;
  status: ScanStatus;
  credits_used: number;
  metadata: Record<string, string>;
  created_at: string;
  completed_at: string | null;
  result: Record<string, unknown> | null;
  error: { code: string; message: string } | null;
  title: string | null;
  author: string | null;
  folder_id: string | null;
  source: ScanRow["source"];
}

export function scanObject(row: ScanRow): ScanObject {
  return {
    id: row.id,
    object: "scan",
    type: row.type,
    status: row.status,
    credits_used: row.creditsUsed,
    metadata: row.metadata,
    created_at: iso(row.createdAt),
    completed_at: row.status === "completed" || row.status === "failed" ? isoOrNull(row.completedAt) : null,
    result: row.status === "completed" ? (row.result ?? null) : null,
    error:
      row.status === "failed"
        ? { code: row.errorCode ?? "server_error", message: row.errorMessage ?? "" }
        : null,
    title: row.title,
    author: row.author,
    folder_id: row.folderId,
    source: row.source,
  };
}

/** What every scan-creating request carries besides its text, as the verbs receive it. */
export interface ScanRequestFields {
  text: string;
  title?: string;
  author?: string;
  folderId?: string;
  metadata?: Record<string, string>;
  source: ScanRow["source"];
  apiKeyId?: string;
}

/** A new scan row: the request's fields, the verb's own, and the job bookkeeping at its starting values. */
export function newScanRow(
  input: ScanRequestFields,
  fields: Pick<ScanRow, "id" | "workspaceId" | "type" | "status" | "creditsUsed" | "createdAt" | "options"> &
    Partial<Pick<ScanRow, "completedAt" | "result" | "runAfter">>,
): ScanRow {
  return {
    completedAt: null,
    result: null,
    runAfter: null,
    ...fields,
    metadata: input.metadata ?? {},
    errorCode: null,
    errorMessage: null,
    text: input.text,
    title: input.title ?? null,
    author: input.author ?? null,
    folderId: input.folderId ?? null,
    source: input.source,
    apiKeyId: input.apiKeyId ?? null,
    attempts: 0,
    leaseExpiresAt: null,
  };
}
