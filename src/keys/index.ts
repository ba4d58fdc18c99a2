import { createHash } from "node:crypto";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { apiKeys, workspaces } from "../../schema/index.ts";
import { DEFAULT_RATE_LIMIT_PER_MINUTE } from "../config.ts";
import type { ServiceContext } from "../context/index.ts";
import { notFound, ServiceError } from "../errors.ts";
import { newId, randomAlphanumeric } from "../ids.ts";
import type { Db } from "../store/db.ts";

export const KEY_PREFIX = "svc_live_"; // spec 5.2
const KEY_PATTERN = /^svc_live_[A-Za-z0-9]{32}$/;
/** How much of a key stays readable in listings: the prefix and four characters, never enough to use it. */
const DISPLAY_LENGTH = KEY_PREFIX.length + 4;

export const hashKey = (key: string): string => createHash("sha256").update(key).digest("hex");

export interface KeyView {
  id: string;
  workspace_id: string;
  name: string;
  prefix: string;
  rate_limit: number;
  created_at: string;
  revoked_at: string | null;
}

type KeyRow = typeof apiKeys.$inferSelect;

const keyView = (row: KeyRow): KeyView => ({
  id: row.id,
  workspace_id: row.workspaceId,
  name: row.name,
  prefix: row.prefix,
  rate_limit: row.rateLimit,
  created_at: new Date(row.createdAt).toISOString(),
  revoked_at: row.revokedAt == null ? null : new Date(row.revokedAt).toISOString(),
});

/** Creates a key. The secret is returned once and only its SHA-256 hash is stored. */
export function createKey(
  ctx: ServiceContext,
  input: { workspaceId: string; name?: string; rateLimit?: number },
): { key: string; view: KeyView } {
  const { db } = ctx;
  const ws = db
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(eq(workspaces.id, input.workspaceId))
    .get();
  if (!ws) throw notFound("workspace", input.workspaceId);
  const rateLimit = input.rateLimit ?? DEFAULT_RATE_LIMIT_PER_MINUTE;
  if (!Number.isSafeInteger(rateLimit) || rateLimit < 1) {
    throw new ServiceError(
      "invalid_body",
      "The rate limit must be a whole number of requests per minute >= 1.",
    );
  }
  const key = KEY_PREFIX + randomAlphanumeric(32);
  const row: KeyRow = {
    id: newId("key_", 12),
    workspaceId: input.workspaceId,
    name: input.name?.trim() || "default",
    prefix: key.slice(0, DISPLAY_LENGTH),
    keyHash: hashKey(key),
    rateLimit,
    createdAt: ctx.clock(),
    revokedAt: null,
  };
  db.insert(apiKeys).values(row).run();
  return { key, view: keyView(row) };
}

export function listKeys(db: Db, workspaceId: string): KeyView[] {
  return db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.workspaceId, workspaceId))
    .orderBy(asc(apiKeys.createdAt))
    .all()
    .map(keyView);
}

export function revokeKey(ctx: ServiceContext, keyId: string): KeyView {
  const { db } = ctx;
  const now = ctx.clock();
  const row = db.select().from(apiKeys).where(eq(apiKeys.id, keyId)).get();
  if (!row) throw notFound("API key", keyId);
  if (row.revokedAt == null) {
    db.update(apiKeys).set({ revokedAt: now }).where(eq(apiKeys.id, keyId)).run();
    row.revokedAt = now;
  }
  return keyView(row);
}

export interface Principal {
  workspaceId: string;
  apiKeyId: string;
  rateLimit: number;
}

export type Verification =
  | { kind: "valid"; principal: Principal }
  | { kind: "malformed" }
  | { kind: "unknown" };

/**
 * Looks a presented key up by its hash on every request, so a key revoked by the CLI is refused by a running
 * server at once (no cache to go stale). A refused key is a normal outcome, not an exception.
 */
export function createKeyVerifier(db: Db): (presented: string) => Verification {
  const lookup = db
    .select({ id: apiKeys.id, workspaceId: apiKeys.workspaceId, rateLimit: apiKeys.rateLimit })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, sql.placeholder("hash")), isNull(apiKeys.revokedAt)))
    .prepare();
  return (presented) => {
    if (!KEY_PATTERN.test(presented)) return { kind: "malformed" };
    const row = lookup.get({ hash: hashKey(presented) });
    if (!row) return { kind: "unknown" };
    return {
      kind: "valid",
      principal: { workspaceId: row.workspaceId, apiKeyId: row.id, rateLimit: row.rateLimit },
    };
  };
}
