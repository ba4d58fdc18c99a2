import type { webhookAttempts, webhookDeliveries, webhookEndpoints } from "../../schema/index.ts";
import { iso, isoOrNull } from "../time.ts";

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type AttemptRow = typeof webhookAttempts.$inferSelect;

export type EndpointStatus = EndpointRow["status"];
export type DeliveryStatus = DeliveryRow["status"];

/** A webhook endpoint as the API and the CLI show it. The secret is never part of it (see EndpointWithSecret). */
export interface EndpointView {
  id: string;
  object: "webhook_endpoint";
  workspace_id: string;
  url: string;
  events: string[];
  status: EndpointStatus;
  description: string | null;
  /** While set and in the future, the previous secret signs too (24 hours after a rotation). */
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Shown once, when the endpoint is created or its secret rotated. */
export interface EndpointWithSecret extends EndpointView {
  secret: string;
}

export interface AttemptView {
  /** The Service-Delivery header value of this attempt. */
  id: string;
  attempt: number;
  outcome: AttemptRow["outcome"];
  started_at: string;
  duration_ms: number | null;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
}

export interface DeliveryView {
  id: string;
  object: "webhook_delivery";
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: number;
  max_attempts: number;
  /** When the next attempt is due; null once succeeded or failed. A paused endpoint's delivery waits past it. */
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  /** The delivery log, oldest attempt first (pruned after the retention age). */
  log: AttemptView[];
}

export function endpointView(row: EndpointRow, now: number): EndpointView {
  const previousValid = row.previousSecretExpiresAt != null && row.previousSecretExpiresAt > now;
  return {
    id: row.id,
    object: "webhook_endpoint",
    workspace_id: row.workspaceId,
    url: row.url,
    events: row.events,
    status: row.status,
    description: row.description,
    previous_secret_expires_at: previousValid ? isoOrNull(row.previousSecretExpiresAt) : null,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

export function attemptView(row: AttemptRow): AttemptView {
  return {
    id: row.id,
    attempt: row.attempt,
    outcome: row.outcome,
    started_at: iso(row.startedAt),
    duration_ms: row.durationMs,
    status_code: row.statusCode,
    error: row.error,
    response_excerpt: row.responseExcerpt,
  };
}

export function deliveryView(
  row: DeliveryRow,
  eventType: string,
  maxAttempts: number,
  log: AttemptRow[],
): DeliveryView {
  return {
    id: row.id,
    object: "webhook_delivery",
    endpoint_id: row.endpointId,
    event_id: row.eventId,
    event_type: eventType,
    status: row.status,
    attempts: row.attempts,
    max_attempts: maxAttempts,
    next_attempt_at: row.status === "pending" ? isoOrNull(row.nextAttemptAt) : null,
    last_attempt_at: isoOrNull(row.lastAttemptAt),
    last_status_code: row.lastStatusCode,
    last_error: row.lastError,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    log: log.map(attemptView),
  };
}
