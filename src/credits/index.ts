import { and, eq, gte, sql } from "drizzle-orm";
import { creditLedger, workspaces } from "../../schema/index.ts";
import { ServiceError } from "../errors.ts";
import { newId } from "../ids.ts";
import type { Tx } from "../store/db.ts";

export type LedgerReason = (typeof creditLedger.$inferInsert)["reason"];

/**
 * Takes `amount` credits from a workspace inside the caller's transaction, or throws `insufficient_credits`
 * (with cost and balance) and changes nothing. The conditional UPDATE is what keeps a balance from going below
 * zero under any concurrency; the ledger row written beside it keeps balance = sum of ledger rows (invariant 1).
 */
export function debit(tx: Tx, workspaceId: string, amount: number, scanId: string, now: number): number {
  const updated = tx
    .update(workspaces)
    .set({ balance: sql`${workspaces.balance} - ${amount}` })
    .where(and(eq(workspaces.id, workspaceId), gte(workspaces.balance, amount)))
    .returning({ balance: workspaces.balance })
    .get();
  if (!updated) {
    const balance = currentBalance(tx, workspaceId);
    throw new ServiceError(
      "insufficient_credits",
      `This scan costs ${amount} credits and the workspace has ${balance}.`,
      { cost: amount, balance },
    );
  }
  tx.insert(creditLedger)
    .values({
      id: newId("led_"),
      workspaceId,
      delta: -amount,
      balanceAfter: updated.balance,
      reason: "scan_charge",
      scanId,
      createdAt: now,
    })
    .run();
  return updated.balance;
}

/** Adds credits (grants, allowances, refunds) inside the caller's transaction; returns the new balance. */
export function credit(
  tx: Tx,
  input: {
    workspaceId: string;
    amount: number;
    reason: LedgerReason;
    scanId?: string;
    period?: string;
    now: number;
  },
): number {
  const updated = tx
    .update(workspaces)
    .set({ balance: sql`${workspaces.balance} + ${input.amount}` })
    .where(eq(workspaces.id, input.workspaceId))
    .returning({ balance: workspaces.balance })
    .get();
  if (!updated) throw new ServiceError("not_found", `No workspace with id '${input.workspaceId}'.`);
  tx.insert(creditLedger)
    .values({
      id: newId("led_"),
      workspaceId: input.workspaceId,
      delta: input.amount,
      balanceAfter: updated.balance,
      reason: input.reason,
      scanId: input.scanId ?? null,
      period: input.period ?? null,
      createdAt: input.now,
    })
    .run();
  return updated.balance;
}

export function currentBalance(tx: Tx, workspaceId: string): number {
  const row = tx
    .select({ balance: workspaces.balance })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .get();
  return row?.balance ?? 0;
}

/** Whether the month's allowance was already granted (the ledger's unique (workspace, period) index). */
export function periodGranted(tx: Tx, workspaceId: string, period: string): boolean {
  const row = tx
    .select({ id: creditLedger.id })
    .from(creditLedger)
    .where(and(eq(creditLedger.workspaceId, workspaceId), eq(creditLedger.period, period)))
    .get();
  return row !== undefined;
}
