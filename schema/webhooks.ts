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
  (t) => [index("events_workspace").on(t.workspaceId, t.createdAt)],
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
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: epochMs("next_attempt_at"),
    leaseExpiresAt: epochMs("lease_expires_at"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    createdAt: epochMs("created_at").notNull(),
    updatedAt: epochMs("updated_at").notNull(),
  },
  (t) => [
    index("webhook_deliveries_due").on(t.status, t.nextAttemptAt),
    index("webhook_deliveries_endpoint").on(t.endpointId, t.createdAt),
  ],
);
