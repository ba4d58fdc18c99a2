import { eq } from "drizzle-orm";
import { events, webhookDeliveries, webhookEndpoints } from "../../schema/index.ts";
import { newEventId, newId } from "../ids.ts";
import type { Tx } from "../store/db.ts";
import { iso } from "../time.ts";

export type EventType = "scan.completed" | "scan.failed" | "webhook.test";

export interface EventObject<T = unknown> {
  id: string;
  object: "event";
  type: EventType;
  created_at: string;
  data: T;
}

/**
 * Writes an event and one pending delivery per endpoint of the workspace subscribed to its type, inside the
 * caller's transaction (DESIGN invariant 3: the transactional outbox). Paused endpoints get their delivery
 * too; the dispatcher holds it until the endpoint is resumed, so pausing never loses an event. The caller wakes
 * the dispatcher (`ctx.wake.outbox.notify()`) after its transaction; the dispatcher also polls, so a wake-up
 * from another process (a CLI command) is never needed for delivery, only for speed.
 */
export function recordEvent<T>(
  tx: Tx,
  input: { workspaceId: string; type: EventType; data: T; scanId?: string; now: number },
): EventObject<T> {
  const event: EventObject<T> = {
    id: newEventId(),
    object: "event",
    type: input.type,
    created_at: iso(input.now),
    data: input.data,
  };
  tx.insert(events)
    .values({
      id: event.id,
      workspaceId: input.workspaceId,
      type: input.type,
      scanId: input.scanId ?? null,
      payload: JSON.stringify(event),
      createdAt: input.now,
    })
    .run();
  const endpoints = tx
    .select({ id: webhookEndpoints.id, events: webhookEndpoints.events })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.workspaceId, input.workspaceId))
    .all();
  for (const endpoint of endpoints) {
    if (!endpoint.events.includes(input.type)) continue;
    tx.insert(webhookDeliveries)
      .values({
        id: newId("whd_"),
        eventId: event.id,
        endpointId: endpoint.id,
        workspaceId: input.workspaceId,
        status: "pending",
        attempts: 0,
        nextAttemptAt: input.now,
        createdAt: input.now,
        updatedAt: input.now,
      })
      .run();
  }
  return event;
}
