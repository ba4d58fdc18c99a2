import { Cron } from "croner";
import type { ServiceContext } from "../context/index.ts";
import { compactFingerprintsIfDue } from "../fingerprints/index.ts";
import { expireIdempotencyKeys } from "../idempotency/index.ts";
import { grantMonthlyAllowances } from "../workspaces/index.ts";

export interface ScheduledTask {
  name: string;
  /** Six-field croner pattern (with seconds). */
  pattern: string;
  run: () => void;
  /** Also run once at start, so a server that was down at the scheduled moment catches up. */
  atStart?: boolean;
}

/** The periodic housekeeping of one server (DESIGN: scheduler). Other rooms add their tasks to the list. */
export function coreTasks(ctx: ServiceContext): ScheduledTask[] {
  const { store, logger } = ctx;
  return [
    {
      // Hourly, and at start: a month's grant happens within an hour of the month starting, exactly once
      // (the ledger's unique (workspace, period) index), whatever restarts happen in between.
      name: "monthly-allowance",
      pattern: "0 0 * * * *",
      run: () => {
        const granted = grantMonthlyAllowances(ctx);
        if (granted > 0) logger.info("credits.monthly_allowance", { workspaces: granted });
      },
      atStart: true,
    },
    {
      // Fingerprints of documents added one at a time wait in a small table; moving them into the main one in
      // slices keeps lookups fast and each write lock short. Cheap when nothing is due.
      name: "fingerprint-compaction",
      pattern: "0 */5 * * * *",
      run: () => {
        compactFingerprintsIfDue(store);
      },
    },
    {
      name: "idempotency-expiry",
      pattern: "0 */10 * * * *",
      run: () => {
        expireIdempotencyKeys(ctx.db, ctx.clock());
      },
      atStart: true,
    },
  ];
}

export function startScheduler(
  tasks: ScheduledTask[],
  onError: (task: string, error: unknown) => void,
): { stop(): void } {
  const jobs = tasks.map((task) => {
    const guarded = () => {
      try {
        task.run();
      } catch (error) {
        onError(task.name, error);
      }
    };
    if (task.atStart) guarded();
    return new Cron(task.pattern, { name: task.name, protect: true, unref: true }, guarded);
  });
  return {
    stop: () => {
      for (const job of jobs) job.stop();
    },
  };
}
