import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { epochMs } from "./columns.ts";

/** A customer account: it owns keys, scans, credits, folders, library documents and webhook endpoints. */
export const workspaces = sqliteTable(
  "workspaces",
  {
    id: text("id").primaryKey(), // UUID-shaped, spec 2.5
    name: text("name").notNull(),
    plan: text("plan", { enum: ["free", "essential", "advanced", "team"] }).notNull(),
    monthlyAllowance: integer("monthly_allowance").notNull(),
    // Denormalised for the conditional debit; invariant 1 keeps it equal to the sum of ledger rows.
    balance: integer("balance").notNull().default(0),
    createdAt: epochMs("created_at").notNull(),
  },
  (t) => [check("balance_not_negative", sql`${t.balance} >= 0`)],
);

/** API keys are stored as SHA-256 hashes; only a short display prefix stays readable. */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(), // key_...
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    name: text("name").notNull(),
    prefix: text("prefix").notNull(),
    keyHash: text("key_hash").notNull(),
    rateLimit: integer("rate_limit").notNull(),
    createdAt: epochMs("created_at").notNull(),
    revokedAt: epochMs("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_hash").on(t.keyHash), index("api_keys_workspace").on(t.workspaceId)],
);

/** Dashboard folders a scan can be saved into (`folder_id`). */
export const folders = sqliteTable(
  "folders",
  {
    id: text("id").primaryKey(), // fld_...
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    name: text("name").notNull(),
    createdAt: epochMs("created_at").notNull(),
  },
  (t) => [index("folders_workspace").on(t.workspaceId)],
);

export const scans = sqliteTable(
  "scans",
  {
    id: text("id").primaryKey(), // scn_ + 32 hex
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    type: text("type", { enum: ["ai_text", "plagiarism", "ai_image"] }).notNull(),
    status: text("status", { enum: ["queued", "processing", "completed", "failed"] }).notNull(),
    creditsUsed: integer("credits_used").notNull(),
    metadata: text("metadata", { mode: "json" }).$type<Record<string, string>>().notNull(),
    createdAt: epochMs("created_at").notNull(),
    completedAt: epochMs("completed_at"),
    result: text("result", { mode: "json" }).$type<Record<string, unknown>>(),
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    // Input and presentation fields (not all are in the API's scan object).
    text: text("text").notNull(),
    title: text("title"),
    author: text("author"),
    folderId: text("folder_id").references(() => folders.id),
    source: text("source", { enum: ["api", "dashboard", "cli"] }).notNull(),
    apiKeyId: text("api_key_id"),
    // Scan-type specific request options (e.g. plagiarism exclude_urls), kept for the background job.
    options: text("options", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    // Job bookkeeping for background scans (DESIGN invariant 4).
    attempts: integer("attempts").notNull().default(0),
    leaseExpiresAt: epochMs("lease_expires_at"),
    runAfter: epochMs("run_after"),
  },
  (t) => [
    index("scans_workspace_status").on(t.workspaceId, t.type, t.status),
    index("scans_jobs").on(t.status, t.type, t.runAfter),
    // The scans list: a workspace's scans newest first, paged by (created_at, id).
    index("scans_workspace_created").on(t.workspaceId, t.createdAt, t.id),
  ],
);

/** Every change of a balance is one row here, written in the same transaction as the change (invariant 1). */
export const creditLedger = sqliteTable(
  "credit_ledger",
  {
    id: text("id").primaryKey(), // led_...
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    delta: integer("delta").notNull(),
    balanceAfter: integer("balance_after").notNull(),
    reason: text("reason", {
      enum: ["initial", "monthly_allowance", "admin_grant", "scan_charge", "scan_refund"],
    }).notNull(),
    scanId: text("scan_id"),
    // For monthly allowances: the calendar month granted ("2026-11"); unique so a month is never granted twice.
    period: text("period"),
    createdAt: epochMs("created_at").notNull(),
  },
  (t) => [
    index("ledger_workspace").on(t.workspaceId, t.createdAt),
    uniqueIndex("ledger_allowance_once").on(t.workspaceId, t.period),
    index("ledger_scan").on(t.scanId),
  ],
);

/** Idempotency records (DESIGN invariant 5). */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    key: text("key").notNull(),
    endpoint: text("endpoint").notNull(), // "POST /api/v1/detect"
    bodyHash: text("body_hash").notNull(),
    state: text("state", { enum: ["in_progress", "completed"] }).notNull(),
    responseStatus: integer("response_status"),
    responseHeaders: text("response_headers", { mode: "json" }).$type<Record<string, string>>(),
    responseBody: text("response_body"),
    createdAt: epochMs("created_at").notNull(),
    expiresAt: epochMs("expires_at").notNull(),
    /** The server process (instances.id) running the request while in_progress; null once completed. */
    holder: text("holder"),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.key] }),
    index("idempotency_expiry").on(t.expiresAt),
    index("idempotency_holder").on(t.holder),
  ],
);

/**
 * The server processes working on this store, each with a lease it renews while alive. A claim (an idempotency
 * key in progress) belongs to one instance; when the instance's lease runs out, or its process is gone from this
 * host, its claims are free, so a retry after a crash runs again within seconds (not after a fixed age).
 */
export const instances = sqliteTable("instances", {
  id: text("id").primaryKey(),
  hostname: text("hostname").notNull(),
  pid: integer("pid").notNull(),
  startedAt: epochMs("started_at").notNull(),
  leaseExpiresAt: epochMs("lease_expires_at").notNull(),
});
