import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { epochMs } from "./columns.ts";
import { workspaces } from "./core.ts";

/**
 * The transactional outbox (DESIGN invariant 3): an event row and one delivery row per subscribed endpoint are
 * inserted in the same transaction as the state change that causes them. The dispatcher only reads from here.
 */
export const events = sqliteTable(
  "events",
  {
    id: text("id").primaryKey(), // evt_...
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    type: text("type", { enum: ["scan.completed", "scan.failed", "webhook.test"] }).notNull(),
    scanId: text("scan_id"),
    // The full event object (spec 2.6) as it will be sent, frozen at the moment of the state change.
    payload: text("payload").notNull(),
    createdAt: epochMs("created_at").notNull(),
  },
  (t) => [index("events_workspace").on(t.workspaceId, t.createdAt), index("events_created").on(t.createdAt)],
);

export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(), // we_...
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    url: text("url").notNull(),
    events: text("events", { mode: "json" }).$type<string[]>().notNull(),
    status: text("status", { enum: ["active", "paused"] }).notNull(),
    description: text("description"),
    // Both secrets are sealed with AES-256-GCM (src/webhooks/secret-box.ts): HMAC signing needs the secret
    // itself, so a hash would not serve, and the plain value must not sit in the database file.
    secret: text("secret").notNull(),
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: epochMs("previous_secret_expires_at"),
    createdAt: epochMs("created_at").notNull(),
    updatedAt: epochMs("updated_at").notNull(),
  },
  (t) => [index("webhook_endpoints_workspace").on(t.workspaceId)],
);

export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(), // whd_...
    eventId: text("event_id")
      .notNull()
      .references(() => events.id),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    workspaceId: text("workspace_id").notNull(),
    status: text("status", { enum: ["pending", "succeeded", "failed"] }).notNull(),
    // Attempts started (counted when claimed, so a crash loop cannot resend forever).
    attempts: integer("attempts").notNull().default(0),
    // null: the retry schedule decides (schedule length + 1); 1 for webhook.test; raised by a manual retry.
    maxAttempts: integer("max_attempts"),
    // webhook.test goes out even while its endpoint is paused (spec 6.1); every other delivery is held.
    bypassesPause: integer("bypasses_pause", { mode: "boolean" }).notNull().default(false),
    nextAttemptAt: epochMs("next_attempt_at"),
    leaseExpiresAt: epochMs("lease_expires_at"),
    // The attempt id holding the lease: an outcome is applied only by the holder of the current lease.
    leaseToken: text("lease_token"),
    lastAttemptAt: epochMs("last_attempt_at"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    createdAt: epochMs("created_at").notNull(),
    updatedAt: epochMs("updated_at").notNull(),
  },
  (t) => [
    // The claim walks endpoints, then each endpoint's due deliveries: cost follows what is claimed, not the backlog.
    index("webhook_deliveries_endpoint_due").on(t.endpointId, t.status, t.nextAttemptAt),
    index("webhook_deliveries_endpoint_lease").on(t.endpointId, t.leaseExpiresAt),
    index("webhook_deliveries_bypassing_pause")
      .on(t.endpointId, t.nextAttemptAt)
      .where(sql`status = 'pending' AND bypasses_pause = 1`),
    index("webhook_deliveries_endpoint").on(t.endpointId, t.createdAt),
    index("webhook_deliveries_event").on(t.eventId),
    index("webhook_deliveries_finished").on(t.status, t.updatedAt),
  ],
);

/** The delivery log: one row per attempt, kept for a configurable age (TEXTSCAN_WEBHOOK_LOG_RETENTION_DAYS). */
export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    id: text("id").primaryKey(), // wha_..., sent as Service-Delivery
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    endpointId: text("endpoint_id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    attempt: integer("attempt").notNull(),
    outcome: text("outcome", { enum: ["in_flight", "succeeded", "failed", "interrupted"] }).notNull(),
    startedAt: epochMs("started_at").notNull(),
    durationMs: integer("duration_ms"),
    statusCode: integer("status_code"),
    error: text("error"),
    // The first bytes of the receiver's reply, for the operator reading the log.
    responseExcerpt: text("response_excerpt"),
  },
  (t) => [
    index("webhook_attempts_delivery").on(t.deliveryId, t.attempt),
    index("webhook_attempts_started").on(t.startedAt),
  ],
);
