import { Cron } from "croner";
import { errorMessage } from "../context/log.ts";
import { newId } from "../ids.ts";
import { writeTransaction } from "../store/db.ts";
import { leaseMs, maxAttemptsOf } from "./config.ts";
import { signingSecrets } from "./endpoints.ts";
import type { WebhookRuntime } from "./runtime.ts";
import { guardOf } from "./runtime.ts";
import { type FetchLike, send, USER_AGENT } from "./sender.ts";
import { signatureHeader } from "./signing.ts";
import { judgeDestination } from "./url-guard.ts";

/**
 * The dispatcher reads the outbox and delivers it (DESIGN: dispatcher). Every attempt is claimed first: one
 * IMMEDIATE transaction picks due deliveries and puts a lease on them, so two processes on one store never send
 * the same attempt at once. The outcome is written by the lease holder only. A process that dies mid-attempt
 * leaves its lease to expire; the next claim marks that attempt `interrupted` and sends again (at-least-once).
 */
export interface Dispatcher {
  /** Delivers everything due now and waits for the outcomes (tests step this after moving their clock). */
  runDue(): Promise<number>;
  /** Claims one delivery if it is due and unclaimed, sends it and records the outcome; false if not claimed. */
  deliverNow(deliveryId: string): Promise<boolean>;
  /** Background mode: a croner job every second plus the immediate kick after each outbox write. */
  start(): void;
  /** Stops claiming, lets attempts in flight finish and records them. */
  stop(): Promise<void>;
}

interface Claim {
  deliveryId: string;
  attemptId: string;
  endpointId: string;
  eventType: string;
  payload: string;
  url: string;
  secrets: string[] | Error;
}

interface Outcome {
  claim: Claim;
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  excerpt: string | null;
  durationMs: number;
}

interface EndpointRow {
  id: string;
  workspace_id: string;
  status: "active" | "paused";
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: number | null;
  busy: number;
  workspace_busy: number;
}

interface CandidateRow {
  id: string;
  endpoint_id: string;
  attempts: number;
  max_attempts: number | null;
  lease_token: string | null;
  type: string;
  payload: string;
}

/**
 * Endpoints with due work, oldest due first, with how many of their deliveries are in flight anywhere (leased).
 * A paused endpoint counts only deliveries that bypass the pause (webhook.test). Every subquery is an index
 * probe, so a claim costs about the number of endpoints, whatever the backlog.
 */
const DUE_ENDPOINTS_SQL = `
SELECT x.id, x.workspace_id, x.status, x.url, x.secret, x.previous_secret, x.previous_secret_expires_at,
       (SELECT COUNT(*) FROM webhook_deliveries b WHERE b.endpoint_id = x.id AND b.lease_expires_at > ?1) AS busy,
       (SELECT COUNT(*) FROM webhook_deliveries w WHERE w.workspace_id = x.workspace_id
          AND w.lease_expires_at > ?1) AS workspace_busy
FROM (
  SELECT e.*, CASE WHEN e.status = 'active'
    THEN (SELECT MIN(d.next_attempt_at) FROM webhook_deliveries d
          WHERE d.endpoint_id = e.id AND d.status = 'pending')
    ELSE (SELECT MIN(d.next_attempt_at) FROM webhook_deliveries d
          WHERE d.endpoint_id = e.id AND d.status = 'pending' AND d.bypasses_pause = 1)
  END AS oldest
  FROM webhook_endpoints e
) x
WHERE x.oldest <= ?1
ORDER BY workspace_busy, x.oldest`;

const DUE_COLUMNS = `d.id, d.endpoint_id, d.attempts, d.max_attempts, d.lease_token, ev.type, ev.payload
FROM webhook_deliveries d JOIN events ev ON ev.id = d.event_id`;
const UNLEASED = "(d.lease_expires_at IS NULL OR d.lease_expires_at <= ?2)";

/** One endpoint's due, unleased deliveries, oldest first (the endpoint_due index, in its order). */
const DUE_OF_ACTIVE_SQL = `SELECT ${DUE_COLUMNS}
WHERE d.endpoint_id = ?1 AND d.status = 'pending' AND d.next_attempt_at <= ?2 AND ${UNLEASED}
ORDER BY d.next_attempt_at LIMIT ?3`;

/**
 * The same for a paused endpoint: only what bypasses the pause. Without statistics SQLite would walk the
 * endpoint's whole held backlog through endpoint_due, so the partial index is named (INDEXED BY is SQLite's;
 * PostgreSQL picks a partial index by itself).
 */
const DUE_OF_PAUSED_SQL = `SELECT d.id, d.endpoint_id, d.attempts, d.max_attempts, d.lease_token, ev.type, ev.payload
FROM webhook_deliveries d INDEXED BY webhook_deliveries_bypassing_pause JOIN events ev ON ev.id = d.event_id
WHERE d.endpoint_id = ?1 AND d.status = 'pending' AND d.bypasses_pause = 1 AND d.next_attempt_at <= ?2 AND ${UNLEASED}
ORDER BY d.next_attempt_at LIMIT ?3`;

/** One named delivery, if it is due and unleased and its endpoint may receive it now (deliverNow). */
const DUE_BY_ID_SQL = `SELECT ${DUE_COLUMNS}
JOIN webhook_endpoints e ON e.id = d.endpoint_id
WHERE d.id = ?1 AND d.status = 'pending' AND d.next_attempt_at <= ?2 AND ${UNLEASED}
  AND (e.status = 'active' OR d.bypasses_pause = 1)`;

const INTERRUPTED =
  "no outcome was recorded before the lease expired (the server stopped during the attempt)";

export function createDispatcher(rt: WebhookRuntime, options: { fetch?: FetchLike } = {}): Dispatcher {
  const sqlite = rt.db.$client;
  const { settings } = rt;
  const fetchImpl = options.fetch ?? fetch;
  const inFlight = new Set<Promise<void>>();
  let outcomes: Outcome[] = [];
  let settleScheduled = false;
  let stopped = false;
  let cron: Cron | undefined;
  let unsubscribe: (() => void) | undefined;

  /**
   * Claims up to `limit` due deliveries in one IMMEDIATE transaction, at most `perEndpointConcurrency` in flight
   * per endpoint, so that a hanging receiver holds a bounded share of the slots and the others keep flowing.
   */
  function claim(limit: number, onlyId: string | null = null): Claim[] {
    if (limit <= 0) return [];
    // A read first: an idle tick (most of them) then never takes the write lock.
    if (
      onlyId === null &&
      sqlite.query<EndpointRow, [number]>(DUE_ENDPOINTS_SQL).all(rt.clock()).length === 0
    ) {
      return [];
    }
    return writeTransaction(rt.db, () => {
      const now = rt.clock();
      const claims: Claim[] = [];
      const endpoints = sqlite.query<EndpointRow, [number]>(DUE_ENDPOINTS_SQL).all(now);
      const byId = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint]));
      if (onlyId !== null) {
        const row = sqlite.query<CandidateRow, [string, number]>(DUE_BY_ID_SQL).get(onlyId, now);
        const endpoint = row ? (byId.get(row.endpoint_id) ?? endpointOf(row.endpoint_id)) : undefined;
        if (row && endpoint) take(row, endpoint, now, claims);
        return claims;
      }
      // Fair share: workspaces with the fewest deliveries in flight are served first (the query's order), and
      // no workspace holds more than its cap of the slots, so one workspace's slow receivers cannot delay
      // another's deliveries.
      const workspaceTaken = new Map<string, number>();
      for (const endpoint of endpoints) {
        const taken = workspaceTaken.get(endpoint.workspace_id) ?? 0;
        const room = Math.min(
          limit - claims.length,
          settings.perEndpointConcurrency - endpoint.busy,
          settings.perWorkspaceConcurrency - endpoint.workspace_busy - taken,
        );
        if (room <= 0) continue;
        const rows = sqlite
          .query<CandidateRow, [string, number, number]>(
            endpoint.status === "active" ? DUE_OF_ACTIVE_SQL : DUE_OF_PAUSED_SQL,
          )
          .all(endpoint.id, now, room);
        for (const row of rows) take(row, endpoint, now, claims);
        workspaceTaken.set(endpoint.workspace_id, taken + rows.length);
        if (claims.length >= limit) break;
      }
      return claims;
    });
  }

  function endpointOf(id: string): EndpointRow | undefined {
    return (
      sqlite
        .query<EndpointRow, [string]>(
          "SELECT id, workspace_id, status, url, secret, previous_secret, previous_secret_expires_at, 0 AS busy, 0 AS workspace_busy FROM webhook_endpoints WHERE id = ?1",
        )
        .get(id) ?? undefined
    );
  }

  /** Leases one candidate (inside the claim transaction) and starts its attempt row. */
  function take(row: CandidateRow, endpoint: EndpointRow, now: number, claims: Claim[]): void {
    if (row.lease_token !== null) {
      sqlite
        .query(
          "UPDATE webhook_attempts SET outcome = 'interrupted', error = ?1 WHERE id = ?2 AND outcome = 'in_flight'",
        )
        .run(INTERRUPTED, row.lease_token);
    }
    if (row.attempts >= maxAttemptsOf(settings, row.max_attempts)) {
      // Its last attempt was cut short: it ends visibly failed (a manual retry sends it again), never lost.
      sqlite
        .query(
          `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, lease_expires_at = NULL,
           lease_token = NULL, last_error = ?1, updated_at = ?2 WHERE id = ?3`,
        )
        .run(`last attempt interrupted: ${INTERRUPTED}`, now, row.id);
      return;
    }
    const attemptId = newId("wha_");
    const attempt = row.attempts + 1;
    sqlite
      .query(
        `UPDATE webhook_deliveries SET attempts = ?1, lease_token = ?2, lease_expires_at = ?3,
         last_attempt_at = ?4, updated_at = ?4 WHERE id = ?5`,
      )
      .run(attempt, attemptId, now + leaseMs(settings), now, row.id);
    sqlite
      .query(
        `INSERT INTO webhook_attempts (id, delivery_id, endpoint_id, workspace_id, attempt, outcome, started_at)
         SELECT ?1, id, endpoint_id, workspace_id, ?2, 'in_flight', ?3 FROM webhook_deliveries WHERE id = ?4`,
      )
      .run(attemptId, attempt, now, row.id);
    claims.push({
      deliveryId: row.id,
      attemptId,
      endpointId: row.endpoint_id,
      eventType: row.type,
      payload: row.payload,
      url: endpoint.url,
      secrets: openSecrets(endpoint, now),
    });
  }

  function openSecrets(row: EndpointRow, now: number): string[] | Error {
    try {
      return signingSecrets(
        rt,
        {
          id: row.id,
          secret: row.secret,
          previousSecret: row.previous_secret,
          previousSecretExpiresAt: row.previous_secret_expires_at,
        },
        now,
      );
    } catch (error) {
      return error instanceof Error ? error : new Error("the signing secret could not be read");
    }
  }

  async function attempt(claim: Claim): Promise<Outcome> {
    const started = performance.now();
    const finish = (result: Omit<Outcome, "claim" | "durationMs">): Outcome => ({
      claim,
      ...result,
      durationMs: Math.round(performance.now() - started),
    });
    if (claim.secrets instanceof Error) {
      return finish({ ok: false, statusCode: null, error: claim.secrets.message, excerpt: null });
    }
    const url = new URL(claim.url);
    // Checked again at every attempt: the name may resolve elsewhere than when the endpoint was created.
    const destination = await judgeDestination(url, guardOf(rt));
    if (destination.kind !== "allowed") {
      return finish({ ok: false, statusCode: null, error: destination.reason, excerpt: null });
    }
    const timestamp = Math.floor(rt.clock() / 1000);
    const result = await send(
      {
        url,
        ...(destination.addresses[0] && { address: destination.addresses[0] }),
        headers: {
          "content-type": "application/json",
          "user-agent": USER_AGENT,
          "service-signature": signatureHeader(claim.secrets, timestamp, claim.payload),
          "service-event": claim.eventType,
          "service-delivery": claim.attemptId,
        },
        body: claim.payload,
        timeoutMs: settings.timeoutMs,
      },
      fetchImpl,
    );
    return finish(result);
  }

  /** Writes buffered outcomes in one transaction; a delivery whose lease moved on is left to its new holder. */
  function record(batch: Outcome[]): void {
    if (batch.length === 0) return;
    const failures: Array<{ claim: Claim; attempt: number; status: string; outcome: Outcome }> = [];
    writeTransaction(rt.db, () => {
      const now = rt.clock();
      for (const outcome of batch) {
        const { claim } = outcome;
        sqlite
          .query(
            `UPDATE webhook_attempts SET outcome = ?1, duration_ms = ?2, status_code = ?3, error = ?4,
             response_excerpt = ?5 WHERE id = ?6`,
          )
          .run(
            outcome.ok ? "succeeded" : "failed",
            outcome.durationMs,
            outcome.statusCode,
            outcome.error,
            outcome.excerpt,
            claim.attemptId,
          );
        const delivery = sqlite
          .query<{ attempts: number; max_attempts: number | null; lease_token: string | null }, [string]>(
            "SELECT attempts, max_attempts, lease_token FROM webhook_deliveries WHERE id = ?1",
          )
          .get(claim.deliveryId);
        if (!delivery || delivery.lease_token !== claim.attemptId) continue;
        let status: "succeeded" | "failed" | "pending" = "succeeded";
        let next: number | null = null;
        if (!outcome.ok) {
          const delayS = settings.retryScheduleS[delivery.attempts - 1];
          const exhausted =
            delivery.attempts >= maxAttemptsOf(settings, delivery.max_attempts) || delayS === undefined;
          status = exhausted ? "failed" : "pending";
          next = exhausted ? null : now + Math.round(delayS * 1000);
        }
        sqlite
          .query(
            `UPDATE webhook_deliveries SET status = ?1, next_attempt_at = ?2, lease_expires_at = NULL,
             lease_token = NULL, last_status_code = ?3, last_error = ?4, updated_at = ?5 WHERE id = ?6`,
          )
          .run(status, next, outcome.statusCode, outcome.error, now, claim.deliveryId);
        if (!outcome.ok) failures.push({ claim, attempt: delivery.attempts, status, outcome });
      }
    });
    // Logged after the commit, once per failed attempt: the endpoint and delivery ids, never the URL's query
    // (it may carry a token) nor the payload (it carries submitted texts' results).
    for (const failure of failures) {
      rt.logger.warn(failure.status === "failed" ? "webhook.delivery_gave_up" : "webhook.delivery_failed", {
        delivery: failure.claim.deliveryId,
        endpoint: failure.claim.endpointId,
        event_type: failure.claim.eventType,
        attempt: failure.attempt,
        status_code: failure.outcome.statusCode,
        error: failure.outcome.error,
      });
    }
  }

  function flush(): void {
    const batch = outcomes;
    outcomes = [];
    try {
      record(batch);
    } catch (error) {
      // Kept for the next flush; if this process dies first, the leases expire and the attempts are redone.
      outcomes = batch.concat(outcomes);
      rt.logger.error("webhook.record_failed", { error: errorMessage(error) });
    }
  }

  function launch(claim: Claim): void {
    const task = attempt(claim)
      .then((outcome) => {
        outcomes.push(outcome);
      })
      .finally(() => {
        inFlight.delete(task);
        scheduleSettle();
      });
    inFlight.add(task);
  }

  /** Coalesces completions of one turn of the event loop into one outcome write and one refill. */
  function scheduleSettle(): void {
    if (settleScheduled) return;
    settleScheduled = true;
    setImmediate(() => {
      settleScheduled = false;
      flush();
      fill();
    });
  }

  /** Tops up the requests in flight to the concurrency limit. */
  function fill(): void {
    if (stopped) return;
    try {
      while (inFlight.size < settings.concurrency) {
        const wanted = settings.concurrency - inFlight.size;
        const claims = claim(wanted);
        for (const c of claims) launch(c);
        if (claims.length < wanted) return;
      }
    } catch (error) {
      rt.logger.error("webhook.claim_failed", { error: errorMessage(error) });
    }
  }

  return {
    async runDue() {
      let attempts = 0;
      for (;;) {
        const claims = claim(settings.concurrency);
        if (claims.length === 0) return attempts;
        attempts += claims.length;
        record(await Promise.all(claims.map(attempt)));
      }
    },
    async deliverNow(deliveryId) {
      const [claimed] = claim(1, deliveryId);
      if (!claimed) return false;
      record([await attempt(claimed)]);
      return true;
    },
    start() {
      if (cron) return;
      stopped = false;
      unsubscribe = rt.wake.on(fill);
      cron = new Cron("* * * * * *", { name: "webhook-dispatcher", protect: true, unref: true }, () => {
        flush();
        fill();
      });
      fill();
    },
    async stop() {
      stopped = true;
      cron?.stop();
      cron = undefined;
      unsubscribe?.();
      unsubscribe = undefined;
      await Promise.allSettled([...inFlight]);
      flush();
    },
  };
}
