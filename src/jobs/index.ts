import { and, asc, eq, lt, lte, or, sql } from "drizzle-orm";
import { scans } from "../../schema/index.ts";
import { errorMessage, type Logger, silentLogger } from "../context/log.ts";
import type { Signal } from "../context/signal.ts";
import { credit } from "../credits/index.ts";
import { recordEvent } from "../events/outbox.ts";
import { type ScanRow, scanObject } from "../scans/view.ts";
import { type Db, type Tx, writeTransaction } from "../store/db.ts";
import type { Clock } from "../time.ts";

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
  /** Woken after a scan's events are committed (the service's outbox wake-up). */
  outbox?: Signal;
  /** Job failures and retries are logged here. */
  logger?: Logger;
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
        // Fair share across workspaces: the workspace with the fewest checks running goes first, so one
        // workspace's burst of ten cannot make another's single check wait behind all of them.
        .orderBy(
          sql`(SELECT count(*) FROM scans AS running WHERE running.workspace_id = ${scans.workspaceId}
               AND running.type = 'plagiarism' AND running.status = 'processing')`,
          asc(scans.runAfter),
        )
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
  const done = writeTransaction(deps.db, (tx) => {
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
  if (done) deps.outbox?.notify();
  return done;
}

/** Failure: status, error, refund and `scan.failed` event in one transaction (invariant 2). */
export function failScan(deps: JobDeps, claim: Claim, code: string, message: string): boolean {
  const now = deps.clock();
  const done = writeTransaction(deps.db, (tx) => {
    const row = tx.select().from(scans).where(heldBy(claim)).get();
    if (!row) return false;
    failInTransaction(tx, row, code, message, now);
    return true;
  });
  if (done) {
    deps.outbox?.notify();
    (deps.logger ?? silentLogger).warn("job.failed", { scan: claim.scan.id, attempt: claim.attempt, code });
  }
  return done;
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
      const delayMs = (deps.backoffMs ?? defaultBackoffMs)(claim.attempt);
      (deps.logger ?? silentLogger).warn("job.retry", {
        scan: claim.scan.id,
        attempt: claim.attempt,
        code: error.code,
        retry_in_ms: delayMs,
      });
      requeue(deps, claim, delayMs);
    } else if (error instanceof RetryableJobError || error instanceof PermanentJobError) {
      failScan(deps, claim, error.code, error.message);
    } else {
      (deps.logger ?? silentLogger).error("job.error", { scan: claim.scan.id, error: errorMessage(error) });
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

/** `count` workers that run due scans until stopped; woken at once by `queued` (a new scan), else polling. */
export function startWorkers(deps: JobDeps, count: number, queued: Signal): { stop(): Promise<void> } {
  let stopped = false;
  const wakers = new Set<() => void>();
  const unsubscribe = queued.on(() => {
    for (const wake of wakers) wake();
  });
  const loop = async () => {
    while (!stopped) {
      let worked = false;
      try {
        worked = await runOnce(deps);
      } catch (error) {
        (deps.logger ?? silentLogger).error("job.worker_error", { error: errorMessage(error) });
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
