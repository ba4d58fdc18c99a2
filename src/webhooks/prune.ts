import type { ScheduledTask } from "../scheduler/index.ts";
import type { WebhookRuntime } from "./runtime.ts";

/** Rows deleted per statement, so that pruning a large backlog never holds the write lock for long. */
const PRUNE_BATCH = 5_000;

export interface PruneCounts {
  attempts: number;
  deliveries: number;
  events: number;
}

/**
 * Deletes the delivery log older than the retention age: attempt rows, finished (succeeded or failed)
 * deliveries, and events no delivery refers to any more. Pending deliveries are never pruned, however old:
 * a paused endpoint's held deliveries wait for it.
 */
export function pruneWebhookLog(rt: WebhookRuntime): PruneCounts {
  const cutoff = rt.clock() - rt.settings.logRetentionMs;
  const sqlite = rt.db.$client;
  const drain = (sql: string): number => {
    let total = 0;
    for (;;) {
      const { changes } = sqlite.query(sql).run(cutoff, PRUNE_BATCH);
      total += changes;
      if (changes < PRUNE_BATCH) return total;
    }
  };
  return {
    attempts: drain(
      `DELETE FROM webhook_attempts WHERE id IN (SELECT id FROM webhook_attempts
       WHERE started_at < ?1 AND outcome != 'in_flight' LIMIT ?2)`,
    ),
    deliveries: drain(
      `DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM webhook_deliveries
       WHERE status IN ('succeeded', 'failed') AND updated_at < ?1 LIMIT ?2)`,
    ),
    events: drain(
      `DELETE FROM events WHERE id IN (SELECT e.id FROM events e WHERE e.created_at < ?1
       AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id) LIMIT ?2)`,
    ),
  };
}

/** The scheduler's share of webhook housekeeping: hourly pruning, also once at start. */
export function webhookTasks(rt: WebhookRuntime): ScheduledTask[] {
  return [
    {
      name: "webhook-log-pruning",
      pattern: "0 15 * * * *",
      run: () => {
        const pruned = pruneWebhookLog(rt);
        const total = pruned.attempts + pruned.deliveries + pruned.events;
        if (total > 0) rt.logger.info("webhook.log_pruned", { ...pruned });
      },
      atStart: true,
    },
  ];
}
