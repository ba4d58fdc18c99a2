import { and, asc, eq, lt, lte, or } from "drizzle-orm";
import { scans } from "../../schema/index.ts";
import { credit } from "../credits/index.ts";
import { recordEvent } from "../events/outbox.ts";
import { type ScanRow, scanObject } from "../scans/view.ts";
import { type Db, type Tx, writeTransaction } from "../store/db.ts";
import type { Clock } from "../time.ts";
import { onJobsQueued } from "./signal.ts";

export { notifyJobsQueued } from "./signal.ts";

/** How long a claim holds before another worker may take the scan over (a worker that died holds it no longer). */
export const DEFAULT_LEASE_MS = 60_000;
/** Attempts before a scan fails for good, counting those whose worker died. */
export const DEFAULT_MAX_ATTEMPTS = 4;
/** How often an idle worker looks for due work when nothing woke it. */
const POLL_MS = 1_000;

/** A failure that may pass (a source that cannot be reached now): the scan is retried with backoff. */
export class RetryableJobError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "RetryableJobError";
  }
}

/** A failure that will not pass by retrying: the scan fails at once, with its credits refunded. */
export class PermanentJobError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "PermanentJobError";
  }
}

export interface JobDeps {
  db: Db;
  clock: Clock;
  /** Runs the check of one claimed scan and returns its result object. */
  run: (scan: ScanRow) => Promise<Record<string, unknown>> | Record<string, unknown>;
  leaseMs?: number;
  maxAttempts?: number;
  /** Delay before retry number `attempt` (1-based) after a retryable failure. */
  backoffMs?: (attempt: number) => number;
}

export const defaultBackoffMs = (attempt: number) => Math.min(60_000, 2_000 * 2 ** (attempt - 1));

interface Claim {
  scan: ScanRow;
  attempt: number;
}

/**
 * Claims the oldest due plagiarism scan: a queued one whose time has come, or a processing one whose lease
 * expired (its worker died). The claim moves it to `processing` with a fresh lease under the write lock, so two
 * workers, in one process or several, never take the same scan (DESIGN invariant 4). A scan whose attempts are
 * used up is failed and refunded here instead of being run again.
 */
export function claimNext(deps: JobDeps): Claim | null {
  const now = deps.clock();
  const maxAttempts = deps.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  for (;;) {
    const outcome = writeTransaction(deps.db, (tx) => {
      const row = tx
        .select()
        .from(scans)
        .where(
          and(
            eq(scans.type, "plagiarism"),
            or(
              and(eq(scans.status, "queued"), lte(scans.runAfter, now)),
              and(eq(scans.status, "processing"), lt(scans.leaseExpiresAt, now)),
            ),
          ),
        )
        .orderBy(asc(scans.runAfter))
        .limit(1)
        .get();
      if (!row) return { kind: "none" as const };
      if (row.attempts >= maxAttempts) {
        failInTransaction(
          tx,
          row,
          "processing_failed",
          `The check did not finish after ${row.attempts} attempts.`,
          now,
        );
        return { kind: "failed" as const };
      }
      const attempt = row.attempts + 1;
      const leaseExpiresAt = now + (deps.leaseMs ?? DEFAULT_LEASE_MS);
      tx.update(scans)
        .set({ status: "processing", attempts: attempt, leaseExpiresAt })
        .where(eq(scans.id, row.id))
        .run();
      return {
        kind: "claimed" as const,
        claim: {
          scan: { ...row, status: "processing" as const, attempts: attempt, leaseExpiresAt },
          attempt,
        },
      };
    });
    if (outcome.kind === "none") return null;
    if (outcome.kind === "claimed") return outcome.claim;
    // A scan was failed for good: look again for one to run.
  }
}

/** Only the holder of the current attempt may finish a scan: a worker whose lease was taken over is ignored. */
const heldBy = (claim: Claim) =>
  and(eq(scans.id, claim.scan.id), eq(scans.status, "processing"), eq(scans.attempts, claim.attempt));

/** Completion, its result and its `scan.completed` event in one transaction (invariant 2). */
export function completeScan(deps: JobDeps, claim: Claim, result: Record<string, unknown>): boolean {
  const now = deps.clock();
  return writeTransaction(deps.db, (tx) => {
    const updated = tx
      .update(scans)
      .set({ status: "completed", result, completedAt: now, leaseExpiresAt: null })
      .where(heldBy(claim))
      .returning()
      .get();
    if (!updated) return false;
    recordEvent(tx, {
      workspaceId: updated.workspaceId,
      type: "scan.completed",
      data: scanObject(updated),
      scanId: updated.id,
      now,
    });
    return true;
  });
}

/** Failure: status, error, refund and `scan.failed` event in one transaction (invariant 2). */
export function failScan(deps: JobDeps, claim: Claim, code: string, message: string): boolean {
  const now = deps.clock();
  return writeTransaction(deps.db, (tx) => {
    const row = tx.select().from(scans).where(heldBy(claim)).get();
    if (!row) return false;
    failInTransaction(tx, row, code, message, now);
    return true;
  });
}

function failInTransaction(tx: Tx, row: ScanRow, code: string, message: string, now: number): void {
  const updated = tx
    .update(scans)
    .set({ status: "failed", errorCode: code, errorMessage: message, completedAt: now, leaseExpiresAt: null })
    .where(eq(scans.id, row.id))
    .returning()
    .get();
  if (!updated) return;
  if (row.creditsUsed > 0) {
    credit(tx, {
      workspaceId: row.workspaceId,
      amount: row.creditsUsed,
      reason: "scan_refund",
      scanId: row.id,
      now,
    });
  }
  recordEvent(tx, {
    workspaceId: row.workspaceId,
    type: "scan.failed",
    data: scanObject(updated),
    scanId: row.id,
    now,
  });
}

/** Puts a scan back in the queue after a retryable failure, due again after the backoff. */
function requeue(deps: JobDeps, claim: Claim, delayMs: number): void {
  deps.db
    .update(scans)
    .set({ status: "queued", runAfter: deps.clock() + delayMs, leaseExpiresAt: null })
    .where(heldBy(claim))
    .run();
}

/**
 * Claims and runs one due scan. Returns false when there was nothing to do. Tests step the queue with this,
 * deterministically, with an injected clock and no sleeps.
 */
export async function runOnce(deps: JobDeps): Promise<boolean> {
  const claim = claimNext(deps);
  if (!claim) return false;
  const maxAttempts = deps.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  try {
    const result = await deps.run(claim.scan);
    completeScan(deps, claim, result);
  } catch (error) {
    if (error instanceof RetryableJobError && claim.attempt < maxAttempts) {
      requeue(deps, claim, (deps.backoffMs ?? defaultBackoffMs)(claim.attempt));
    } else if (error instanceof RetryableJobError || error instanceof PermanentJobError) {
      failScan(deps, claim, error.code, error.message);
    } else {
      console.error(`plagiarism scan ${claim.scan.id} failed:`, error);
      failScan(
        deps,
        claim,
        "processing_failed",
        "The check failed on the service side; the credits were refunded.",
      );
    }
  }
  return true;
}

/** `count` workers that run due scans until stopped; woken at once by `notifyJobsQueued`, else polling. */
export function startWorkers(deps: JobDeps, count: number): { stop(): Promise<void> } {
  let stopped = false;
  const wakers = new Set<() => void>();
  const unsubscribe = onJobsQueued(() => {
    for (const wake of wakers) wake();
  });
  const loop = async () => {
    while (!stopped) {
      let worked = false;
      try {
        worked = await runOnce(deps);
      } catch (error) {
        console.error("job worker error:", error);
      }
      if (worked || stopped) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, POLL_MS);
        function done() {
          clearTimeout(timer);
          wakers.delete(done);
          resolve();
        }
        wakers.add(done);
      });
    }
  };
  const loops = Array.from({ length: count }, loop);
  return {
    async stop() {
      stopped = true;
      unsubscribe();
      for (const wake of [...wakers]) wake();
      await Promise.all(loops);
    },
  };
}
