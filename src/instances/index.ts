import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { and, eq, inArray, lt, ne } from "drizzle-orm";
import { idempotencyKeys, instances } from "../../schema/index.ts";
import { type Db, type DbOrTx, writeTransaction } from "../store/db.ts";
import type { Clock } from "../time.ts";

/**
 * This process as a holder of claims on the store (idempotency keys in progress). It renews a lease while it
 * runs; when it dies the lease runs out, and a process that starts on the same host frees at once the claims of
 * local instances whose process is gone. Liveness of the holder, not the age of a claim, decides a takeover:
 * a request that waits long behind a busy detector keeps its key, a request whose process died frees it.
 */
export interface Instance {
  id: string;
  leaseMs: number;
}

export const newInstanceId = () => `ins_${randomBytes(12).toString("hex")}`;

/** Registers this process and frees the claims of every instance that is known to be gone. */
export function registerInstance(db: Db, clock: Clock, leaseMs: number): Instance {
  const instance: Instance = { id: newInstanceId(), leaseMs };
  const now = clock();
  writeTransaction(db, (tx) => {
    tx.insert(instances)
      .values({
        id: instance.id,
        hostname: hostname(),
        pid: process.pid,
        startedAt: now,
        leaseExpiresAt: now + leaseMs,
      })
      .run();
  });
  releaseDeadInstances(db, now, instance.id);
  return instance;
}

/** Extends this instance's lease; run every third of the lease while the process serves. */
export function renewInstance(db: Db, clock: Clock, instance: Instance): void {
  const now = clock();
  db.update(instances)
    .set({ leaseExpiresAt: now + instance.leaseMs })
    .where(eq(instances.id, instance.id))
    .run();
}

/** On a clean stop: nothing of ours is in progress any more, so the row and any leftover claim go. */
export function retireInstance(db: Db, instance: Instance): void {
  writeTransaction(db, (tx) => {
    tx.delete(idempotencyKeys)
      .where(and(eq(idempotencyKeys.holder, instance.id), eq(idempotencyKeys.state, "in_progress")))
      .run();
    tx.delete(instances).where(eq(instances.id, instance.id)).run();
  });
}

/**
 * Frees the claims of instances that are gone: those whose lease ran out, and those on this host whose process
 * no longer exists (or whose pid is now ours: a container restarts its server as the same pid). Returns how
 * many claims were freed.
 */
export function releaseDeadInstances(db: Db, now: number, self: string): number {
  const host = hostname();
  return writeTransaction(db, (tx) => {
    const rows = tx.select().from(instances).where(ne(instances.id, self)).all();
    const dead = rows
      .filter((row) => row.leaseExpiresAt < now || (row.hostname === host && !processAlive(row.pid)))
      .map((row) => row.id);
    if (dead.length === 0) return 0;
    const freed = tx
      .delete(idempotencyKeys)
      .where(and(inArray(idempotencyKeys.holder, dead), eq(idempotencyKeys.state, "in_progress")))
      .returning({ key: idempotencyKeys.key })
      .all().length;
    tx.delete(instances).where(inArray(instances.id, dead)).run();
    return freed;
  });
}

/** Whether the holder of a claim is alive: our own process, or an instance whose lease has not run out. */
export function holderAlive(db: DbOrTx, holder: string | null, now: number, self: string): boolean {
  if (holder === null) return false;
  if (holder === self) return true;
  const row = db
    .select({ lease: instances.leaseExpiresAt })
    .from(instances)
    .where(eq(instances.id, holder))
    .get();
  return row !== undefined && row.lease >= now;
}

/** Instances whose lease ran out (for the periodic sweep); exported for the scheduler's count. */
export function expiredInstances(db: Db, now: number): number {
  return db.select({ id: instances.id }).from(instances).where(lt(instances.leaseExpiresAt, now)).all()
    .length;
}

function processAlive(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
