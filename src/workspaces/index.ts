import { asc, eq } from "drizzle-orm";
import { workspaces } from "../../schema/index.ts";
import { isPlan, type Plan } from "../config.ts";
import type { ServiceContext } from "../context/index.ts";
import { credit, periodGranted } from "../credits/index.ts";
import { notFound, ServiceError } from "../errors.ts";
import { newWorkspaceId } from "../ids.ts";
import { type Db, writeTransaction } from "../store/db.ts";
import { monthOf } from "../time.ts";

export interface WorkspaceView {
  id: string;
  name: string;
  plan: Plan;
  credits: { balance: number; monthly_allowance: number };
  created_at: string;
}

type WorkspaceRow = typeof workspaces.$inferSelect;

export function workspaceView(row: WorkspaceRow): WorkspaceView {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    credits: { balance: row.balance, monthly_allowance: row.monthlyAllowance },
    created_at: new Date(row.createdAt).toISOString(),
  };
}

/**
 * Creates a workspace with its starting balance as a ledger row. Without `credits` the start is the plan's
 * allowance, which counts as the creation month's grant; with `credits` the balance is exactly that and the
 * creation month is still marked as granted, so the allowance job does not add to it until next month.
 */
export function createWorkspace(
  ctx: ServiceContext,
  input: { name: string; plan?: string; credits?: number },
): WorkspaceView {
  const { db } = ctx;
  const name = input.name.trim();
  if (!name) throw new ServiceError("invalid_body", "A workspace needs a name.");
  const plan = input.plan ?? "free";
  if (!isPlan(plan))
    throw new ServiceError("invalid_body", `Unknown plan '${plan}': use free, essential, advanced or team.`);
  if (input.credits !== undefined && (!Number.isSafeInteger(input.credits) || input.credits < 0)) {
    throw new ServiceError("invalid_body", "Starting credits must be a whole number >= 0.");
  }
  const now = ctx.clock();
  const allowance = ctx.config.allowances[plan];
  const id = newWorkspaceId();
  return writeTransaction(db, (tx) => {
    tx.insert(workspaces)
      .values({ id, name, plan, monthlyAllowance: allowance, balance: 0, createdAt: now })
      .run();
    credit(tx, {
      workspaceId: id,
      amount: input.credits ?? allowance,
      reason: input.credits === undefined ? "monthly_allowance" : "initial",
      period: monthOf(now),
      now,
    });
    const row = tx.select().from(workspaces).where(eq(workspaces.id, id)).get();
    if (!row) throw new Error("workspace vanished inside its own transaction");
    return workspaceView(row);
  });
}

export function getWorkspace(db: Db, id: string): WorkspaceView {
  const row = db.select().from(workspaces).where(eq(workspaces.id, id)).get();
  if (!row) throw notFound("workspace", id);
  return workspaceView(row);
}

export function listWorkspaces(db: Db): WorkspaceView[] {
  return db.select().from(workspaces).orderBy(asc(workspaces.createdAt)).all().map(workspaceView);
}

export function addCredits(ctx: ServiceContext, workspaceId: string, amount: number): WorkspaceView {
  const { db } = ctx;
  const now = ctx.clock();
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw new ServiceError("invalid_body", "The amount must be a whole number > 0.");
  }
  return writeTransaction(db, (tx) => {
    credit(tx, { workspaceId, amount, reason: "admin_grant", now });
    const row = tx.select().from(workspaces).where(eq(workspaces.id, workspaceId)).get();
    if (!row) throw notFound("workspace", workspaceId);
    return workspaceView(row);
  });
}

/**
 * Grants each workspace its plan's allowance for the calendar month of `now`, once: the ledger's unique
 * (workspace, period) index makes a second grant for the same month impossible, across restarts and processes.
 * Returns how many workspaces were granted.
 */
export function grantMonthlyAllowances(ctx: ServiceContext): number {
  const { db } = ctx;
  const now = ctx.clock();
  const period = monthOf(now);
  let granted = 0;
  for (const ws of db.select({ id: workspaces.id }).from(workspaces).all()) {
    const done = writeTransaction(db, (tx) => {
      if (periodGranted(tx, ws.id, period)) return false;
      const row = tx.select().from(workspaces).where(eq(workspaces.id, ws.id)).get();
      if (!row) return false;
      credit(tx, {
        workspaceId: ws.id,
        amount: row.monthlyAllowance,
        reason: "monthly_allowance",
        period,
        now,
      });
      return true;
    });
    if (done) granted++;
  }
  return granted;
}
