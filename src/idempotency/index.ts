import { createHash } from "node:crypto";
import { and, eq, lt } from "drizzle-orm";
import { idempotencyKeys } from "../../schema/index.ts";
import { IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENCY_REPLAY_MS } from "../config.ts";
import type { SecretBox } from "../crypto/secret-box.ts";
import { ServiceError } from "../errors.ts";
import { holderAlive } from "../instances/index.ts";
import { type Db, type DbOrTx, writeTransaction } from "../store/db.ts";

/** Identifies one claim on a key: `createdAt` tells our claim from a later takeover of a stale one. */
export interface IdempotencyClaim {
  workspaceId: string;
  key: string;
  createdAt: number;
  holder: string;
  /** Seals the stored response at rest: a replayed body can hold a secret (a webhook endpoint's whsec_). */
  box?: SecretBox;
}

const sealContext = (workspaceId: string, key: string) => `idempotency:${workspaceId}:${key}`;

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type IdempotencyStart =
  | { kind: "proceed"; claim: IdempotencyClaim }
  | { kind: "replay"; response: StoredResponse };

export const hashBody = (raw: string): string => createHash("sha256").update(raw).digest("hex");

/** Printable ASCII, 1..255 characters (spec 4.1 gives the length; the character set keeps headers safe). */
export function validateIdempotencyKey(key: string): void {
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    throw new ServiceError(
      "invalid_idempotency_key",
      `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters without spaces (got ${key.length}).`,
    );
  }
}

/**
 * Claims `key` for a request (DESIGN invariant 5). The first request inserts an in_progress row; a twin sent
 * while it runs gets `request_in_progress`; a finished 2xx is replayed; another body or endpoint is refused.
 * An in_progress row whose holder (a server process) is gone belongs to a request that died, and is taken
 * over; one whose holder is alive stays in progress however long it runs (liveness, not age, decides).
 */
export function beginIdempotent(
  db: Db,
  input: {
    workspaceId: string;
    key: string;
    endpoint: string;
    bodyHash: string;
    now: number;
    /** The instance id of this process: it holds the claim while the request runs. */
    holder: string;
    box?: SecretBox;
  },
): IdempotencyStart {
  return writeTransaction(db, (tx) => {
    const existing = tx
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.workspaceId, input.workspaceId), eq(idempotencyKeys.key, input.key)))
      .get();
    const live =
      existing &&
      existing.expiresAt > input.now &&
      (existing.state !== "in_progress" || holderAlive(tx, existing.holder, input.now, input.holder));
    if (existing && live) {
      if (existing.endpoint !== input.endpoint || existing.bodyHash !== input.bodyHash) {
        throw new ServiceError(
          "idempotency_key_reused",
          existing.endpoint !== input.endpoint
            ? `This Idempotency-Key was first used with ${existing.endpoint}.`
            : "This Idempotency-Key was first used with a different request body.",
        );
      }
      if (existing.state === "in_progress") throw new ServiceError("request_in_progress");
      const stored = existing.responseBody ?? "";
      return {
        kind: "replay",
        response: {
          status: existing.responseStatus ?? 200,
          headers: existing.responseHeaders ?? {},
          body: input.box ? input.box.open(stored, sealContext(input.workspaceId, input.key)) : stored,
        },
      };
    }
    const row = {
      workspaceId: input.workspaceId,
      key: input.key,
      endpoint: input.endpoint,
      bodyHash: input.bodyHash,
      state: "in_progress" as const,
      responseStatus: null,
      responseHeaders: null,
      responseBody: null,
      createdAt: input.now,
      expiresAt: input.now + IDEMPOTENCY_REPLAY_MS,
      holder: input.holder,
    };
    if (existing) {
      tx.update(idempotencyKeys)
        .set(row)
        .where(and(eq(idempotencyKeys.workspaceId, input.workspaceId), eq(idempotencyKeys.key, input.key)))
        .run();
    } else {
      tx.insert(idempotencyKeys).values(row).run();
    }
    const claim: IdempotencyClaim = {
      workspaceId: input.workspaceId,
      key: input.key,
      createdAt: input.now,
      holder: input.holder,
    };
    if (input.box) claim.box = input.box;
    return { kind: "proceed", claim };
  });
}

const ownClaim = (claim: IdempotencyClaim) =>
  and(
    eq(idempotencyKeys.workspaceId, claim.workspaceId),
    eq(idempotencyKeys.key, claim.key),
    eq(idempotencyKeys.createdAt, claim.createdAt),
    eq(idempotencyKeys.holder, claim.holder),
    eq(idempotencyKeys.state, "in_progress"),
  );

/**
 * Stores a 2xx response for replay. Verbs that spend credits call this inside their own transaction, so the
 * charge and the record of its response commit together; for other requests the HTTP layer calls it after.
 */
export function completeIdempotent(db: DbOrTx, claim: IdempotencyClaim, response: StoredResponse): void {
  db.update(idempotencyKeys)
    .set({
      state: "completed",
      holder: null,
      responseStatus: response.status,
      responseHeaders: response.headers,
      responseBody: claim.box
        ? claim.box.seal(response.body, sealContext(claim.workspaceId, claim.key))
        : response.body,
    })
    .where(ownClaim(claim))
    .run();
}

/** Frees the key after any non-2xx outcome, so that a retry with the same key runs again (spec 7: 500). */
export function releaseIdempotent(db: DbOrTx, claim: IdempotencyClaim): void {
  db.delete(idempotencyKeys).where(ownClaim(claim)).run();
}

/** Deletes records past their 24-hour replay window; run by the scheduler. */
export function expireIdempotencyKeys(db: Db, now: number): number {
  return db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.expiresAt, now))
    .returning({ key: idempotencyKeys.key })
    .all().length;
}
