import { and, desc, eq, inArray, lt, or } from "drizzle-orm";
import { events, webhookAttempts, webhookDeliveries } from "../../schema/index.ts";
import { invalidBody, notFound } from "../errors.ts";
import { newId } from "../ids.ts";
import { type DbOrTx, writeTransaction } from "../store/db.ts";
import { maxAttemptsOf } from "./config.ts";
import { endpointRow } from "./endpoints.ts";
import type { WebhookRuntime } from "./runtime.ts";
import { sampleTestEvent } from "./sample.ts";
import { type DeliveryStatus, type DeliveryView, deliveryView } from "./views.ts";

export const DELIVERY_ID_PATTERN = /^whd_[0-9a-f]{32}$/;
export const DEFAULT_PAGE = 20;
export const MAX_PAGE = 100;

type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export interface DeliveryPage {
  object: "list";
  data: DeliveryView[];
  has_more: boolean;
}

/** An endpoint's deliveries, newest first, each with its attempt log. */
export function listDeliveries(
  rt: WebhookRuntime,
  workspaceId: string,
  endpointId: string,
  options: { limit?: number; status?: DeliveryStatus; startingAfter?: string } = {},
): DeliveryPage {
  endpointRow(rt.db, workspaceId, endpointId);
  const limit = options.limit ?? DEFAULT_PAGE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) {
    throw invalidBody(
      [{ path: "/limit", message: `Expected a whole number from 1 to ${MAX_PAGE}` }],
      "The query is not valid.",
    );
  }
  const conditions = [eq(webhookDeliveries.endpointId, endpointId)];
  if (options.status) conditions.push(eq(webhookDeliveries.status, options.status));
  if (options.startingAfter !== undefined) {
    const cursor = deliveryRow(rt, workspaceId, options.startingAfter);
    const before = or(
      lt(webhookDeliveries.createdAt, cursor.createdAt),
      and(eq(webhookDeliveries.createdAt, cursor.createdAt), lt(webhookDeliveries.id, cursor.id)),
    );
    if (before) conditions.push(before);
  }
  const rows = rt.db
    .select()
    .from(webhookDeliveries)
    .where(and(...conditions))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit + 1)
    .all();
  const page = rows.slice(0, limit);
  return { object: "list", data: viewsOf(rt, page), has_more: rows.length > limit };
}

export function getDelivery(rt: WebhookRuntime, workspaceId: string, id: string): DeliveryView {
  const [view] = viewsOf(rt, [deliveryRow(rt, workspaceId, id)]);
  if (!view) throw notFound("webhook delivery", id);
  return view;
}

/**
 * Sends a delivery again now. A pending one is brought forward; a succeeded or failed one gets one more
 * attempt (a replay: same event id, new Service-Delivery id and signature time) and no further retries.
 * A delivery to a paused endpoint stays held until the endpoint is resumed, like every other.
 */
export function retryDelivery(rt: WebhookRuntime, workspaceId: string, id: string): DeliveryView {
  const now = rt.clock();
  writeTransaction(rt.db, (tx) => {
    const row = deliveryRowIn(tx, workspaceId, id);
    const changes: Partial<DeliveryRow> =
      row.status === "pending"
        ? { nextAttemptAt: now, updatedAt: now }
        : { status: "pending", nextAttemptAt: now, maxAttempts: row.attempts + 1, updatedAt: now };
    tx.update(webhookDeliveries).set(changes).where(eq(webhookDeliveries.id, id)).run();
  });
  rt.wake.notify();
  return getDelivery(rt, workspaceId, id);
}

/**
 * Records a `webhook.test` event for one endpoint: one attempt, no retries, regardless of its subscriptions and
 * even while it is paused (spec 6.1). It goes through the outbox like any event, so it is signed and logged the
 * same way.
 */
export function sendTestEvent(rt: WebhookRuntime, workspaceId: string, endpointId: string): DeliveryView {
  const now = rt.clock();
  const deliveryId = newId("whd_");
  writeTransaction(rt.db, (tx) => {
    endpointRow(tx, workspaceId, endpointId);
    const event = sampleTestEvent(now);
    tx.insert(events)
      .values({
        id: event.id,
        workspaceId,
        type: "webhook.test",
        scanId: null,
        payload: JSON.stringify(event),
        createdAt: now,
      })
      .run();
    tx.insert(webhookDeliveries)
      .values({
        id: deliveryId,
        eventId: event.id,
        endpointId,
        workspaceId,
        status: "pending",
        attempts: 0,
        maxAttempts: 1,
        bypassesPause: true,
        nextAttemptAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .run();
  });
  rt.wake.notify();
  return getDelivery(rt, workspaceId, deliveryId);
}

function deliveryRow(rt: WebhookRuntime, workspaceId: string, id: string): DeliveryRow {
  return deliveryRowIn(rt.db, workspaceId, id);
}

function deliveryRowIn(db: DbOrTx, workspaceId: string, id: string): DeliveryRow {
  const row = DELIVERY_ID_PATTERN.test(id)
    ? db
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.workspaceId, workspaceId)))
        .get()
    : undefined;
  if (!row) throw notFound("webhook delivery", id);
  return row;
}

/** The workspace of a delivery, for the operator's CLI. */
export function deliveryWorkspace(rt: WebhookRuntime, id: string): string {
  const row = DELIVERY_ID_PATTERN.test(id)
    ? rt.db
        .select({ workspaceId: webhookDeliveries.workspaceId })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.id, id))
        .get()
    : undefined;
  if (!row) throw notFound("webhook delivery", id);
  return row.workspaceId;
}

function viewsOf(rt: WebhookRuntime, rows: DeliveryRow[]): DeliveryView[] {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const types = new Map(
    rt.db
      .select({ id: events.id, type: events.type })
      .from(events)
      .where(
        inArray(
          events.id,
          rows.map((row) => row.eventId),
        ),
      )
      .all()
      .map((row) => [row.id, row.type]),
  );
  const attempts = rt.db
    .select()
    .from(webhookAttempts)
    .where(inArray(webhookAttempts.deliveryId, ids))
    .orderBy(webhookAttempts.attempt)
    .all();
  const logs = new Map<string, (typeof attempts)[number][]>();
  for (const attempt of attempts) {
    const list = logs.get(attempt.deliveryId) ?? [];
    list.push(attempt);
    logs.set(attempt.deliveryId, list);
  }
  return rows.map((row) =>
    deliveryView(
      row,
      types.get(row.eventId) ?? "unknown",
      maxAttemptsOf(rt.settings, row.maxAttempts),
      logs.get(row.id) ?? [],
    ),
  );
}
