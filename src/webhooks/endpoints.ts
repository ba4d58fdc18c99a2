import { and, asc, count, eq } from "drizzle-orm";
import { webhookEndpoints } from "../../schema/index.ts";
import { type Issue, invalidBody, notFound } from "../errors.ts";
import { newId, randomAlphanumeric } from "../ids.ts";
import { type DbOrTx, writeTransaction } from "../store/db.ts";
import { guardOf, type WebhookRuntime } from "./runtime.ts";
import { judgeDestination, parseWebhookUrl } from "./url-guard.ts";
import { type EndpointStatus, type EndpointView, type EndpointWithSecret, endpointView } from "./views.ts";

/** Event types an endpoint can subscribe to; webhook.test goes to an endpoint on request, whatever it chose. */
export const SUBSCRIBABLE_EVENTS = ["scan.completed", "scan.failed"] as const;
export const SECRET_PREFIX = "whsec_"; // spec 5.7
export const DESCRIPTION_MAX = 200;
/** Every event fans out to each subscribed endpoint: a bound keeps one scan from turning into hundreds of calls. */
export const MAX_ENDPOINTS_PER_WORKSPACE = 20;
/** After a rotation the previous secret keeps signing this long, so receivers can switch without a gap. */
export const PREVIOUS_SECRET_TTL_MS = 24 * 60 * 60 * 1000;
export const ENDPOINT_ID_PATTERN = /^we_[0-9a-f]{32}$/;
const ENDPOINT_STATUSES: readonly EndpointStatus[] = ["active", "paused"];

export interface EndpointInput {
  url: string;
  events?: string[];
  description?: string | null;
  status?: EndpointStatus;
}

export type EndpointPatch = Partial<EndpointInput>;

type EndpointRow = typeof webhookEndpoints.$inferSelect;

const newSecret = () => `${SECRET_PREFIX}${randomAlphanumeric(40)}`;

/** Creates an endpoint; its secret is returned here and at rotation only. */
export async function createEndpoint(
  rt: WebhookRuntime,
  workspaceId: string,
  input: EndpointInput,
  /** Runs inside the creating transaction with the response object (the idempotent response is stored there). */
  inTransaction?: (created: EndpointWithSecret) => void,
): Promise<EndpointWithSecret> {
  const issues: Issue[] = [];
  const events = checkEvents(input.events ?? [...SUBSCRIBABLE_EVENTS], issues);
  checkDescription(input.description, issues);
  checkStatus(input.status, issues);
  const url = await checkUrl(rt, input.url, issues);
  if (issues.length > 0 || url === undefined) throw refused(issues);
  const now = rt.clock();
  const id = newId("we_");
  const secret = newSecret();
  const row: EndpointRow = {
    id,
    workspaceId,
    url,
    events,
    status: input.status ?? "active",
    description: input.description ?? null,
    secret: rt.secrets.seal(secret, id),
    previousSecret: null,
    previousSecretExpiresAt: null,
    createdAt: now,
    updatedAt: now,
  };
  writeTransaction(rt.db, (tx) => {
    const existing = tx
      .select({ n: count() })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.workspaceId, workspaceId))
      .get();
    if ((existing?.n ?? 0) >= MAX_ENDPOINTS_PER_WORKSPACE) {
      throw invalidBody(
        [
          {
            path: "",
            message: `A workspace may have at most ${MAX_ENDPOINTS_PER_WORKSPACE} webhook endpoints.`,
          },
        ],
        "Too many webhook endpoints.",
      );
    }
    tx.insert(webhookEndpoints).values(row).run();
    inTransaction?.({ ...endpointView(row, now), secret });
  });
  return { ...endpointView(row, now), secret };
}

export function listEndpoints(rt: WebhookRuntime, workspaceId: string): EndpointView[] {
  const now = rt.clock();
  return rt.db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.workspaceId, workspaceId))
    .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id))
    .all()
    .map((row) => endpointView(row, now));
}

export function getEndpoint(rt: WebhookRuntime, workspaceId: string, id: string): EndpointView {
  return endpointView(endpointRow(rt.db, workspaceId, id), rt.clock());
}

/** Another workspace's endpoint is `not_found`, exactly like one that does not exist (DESIGN invariant 7). */
export function endpointRow(db: DbOrTx, workspaceId: string, id: string): EndpointRow {
  const row = ENDPOINT_ID_PATTERN.test(id)
    ? db
        .select()
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.workspaceId, workspaceId)))
        .get()
    : undefined;
  if (!row) throw notFound("webhook endpoint", id);
  return row;
}

/** The workspace an endpoint belongs to: the CLI acts for the operator, who names endpoints by id alone. */
export function endpointWorkspace(db: DbOrTx, id: string): string {
  const row = ENDPOINT_ID_PATTERN.test(id)
    ? db
        .select({ workspaceId: webhookEndpoints.workspaceId })
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.id, id))
        .get()
    : undefined;
  if (!row) throw notFound("webhook endpoint", id);
  return row.workspaceId;
}

/**
 * Changes URL, events, description or status. Resuming a paused endpoint releases the deliveries it held
 * (they were recorded while it was paused and go out now, oldest first).
 */
export async function updateEndpoint(
  rt: WebhookRuntime,
  workspaceId: string,
  id: string,
  patch: EndpointPatch,
): Promise<EndpointView> {
  endpointRow(rt.db, workspaceId, id);
  const issues: Issue[] = [];
  const fields = Object.entries(patch).filter(([, value]) => value !== undefined);
  if (fields.length === 0) {
    issues.push({ path: "", message: "Give at least one of url, events, description, status." });
  }
  const events = patch.events === undefined ? undefined : checkEvents(patch.events, issues);
  checkDescription(patch.description, issues);
  checkStatus(patch.status, issues);
  const url = patch.url === undefined ? undefined : await checkUrl(rt, patch.url, issues);
  if (issues.length > 0) throw refused(issues);
  const now = rt.clock();
  const updated = writeTransaction(rt.db, (tx) => {
    const before = endpointRow(tx, workspaceId, id);
    const changes: Partial<EndpointRow> = { updatedAt: now };
    if (url !== undefined) changes.url = url;
    if (events !== undefined) changes.events = events;
    if (patch.description !== undefined) changes.description = patch.description;
    if (patch.status !== undefined) changes.status = patch.status;
    tx.update(webhookEndpoints).set(changes).where(eq(webhookEndpoints.id, id)).run();
    return { before, after: { ...before, ...changes } };
  });
  if (updated.before.status === "paused" && updated.after.status === "active") rt.wake.notify();
  return endpointView(updated.after, now);
}

/** Deletes the endpoint with its deliveries and log; held deliveries go with it (that is what deleting asks). */
export function deleteEndpoint(
  rt: WebhookRuntime,
  workspaceId: string,
  id: string,
): { id: string; object: "webhook_endpoint"; deleted: true } {
  writeTransaction(rt.db, (tx) => {
    endpointRow(tx, workspaceId, id);
    tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id)).run();
  });
  return { id, object: "webhook_endpoint", deleted: true };
}

/**
 * A new secret signs from now on; the current one becomes the previous secret and keeps signing for 24 hours
 * (both `v1` values are sent). Rotating again within those hours retires the older one at once.
 */
export function rotateSecret(rt: WebhookRuntime, workspaceId: string, id: string): EndpointWithSecret {
  const now = rt.clock();
  const secret = newSecret();
  const row = writeTransaction(rt.db, (tx) => {
    const before = endpointRow(tx, workspaceId, id);
    const changes = {
      secret: rt.secrets.seal(secret, id),
      previousSecret: before.secret,
      previousSecretExpiresAt: now + PREVIOUS_SECRET_TTL_MS,
      updatedAt: now,
    };
    tx.update(webhookEndpoints).set(changes).where(eq(webhookEndpoints.id, id)).run();
    return { ...before, ...changes };
  });
  return { ...endpointView(row, now), secret };
}

/** The secrets that sign a delivery now: the current one, then the previous one while it is valid. */
export function signingSecrets(
  rt: WebhookRuntime,
  row: Pick<EndpointRow, "id" | "secret" | "previousSecret" | "previousSecretExpiresAt">,
  now: number,
): string[] {
  const secrets = [rt.secrets.open(row.secret, row.id)];
  if (row.previousSecret && row.previousSecretExpiresAt != null && row.previousSecretExpiresAt > now) {
    secrets.push(rt.secrets.open(row.previousSecret, row.id));
  }
  return secrets;
}

/** With one problem, its words are the message too, so that the CLI's one-line error says what is wrong. */
const refused = (issues: Issue[]) =>
  invalidBody(
    issues,
    issues.length === 1 && issues[0] ? issues[0].message : "The request body is not valid.",
  );

async function checkUrl(rt: WebhookRuntime, raw: string, issues: Issue[]): Promise<string | undefined> {
  if (typeof raw !== "string") {
    issues.push({ path: "/url", message: "Expected a URL string" });
    return undefined;
  }
  const parsed = parseWebhookUrl(raw.trim());
  if ("problem" in parsed) {
    issues.push({ path: "/url", message: `The URL ${parsed.problem}.` });
    return undefined;
  }
  // A host that does not resolve now is accepted: it may not exist yet, and every attempt checks again.
  const destination = await judgeDestination(parsed.url, guardOf(rt));
  if (destination.kind === "refused") {
    issues.push({ path: "/url", message: `The URL is refused: ${destination.reason}.` });
    return undefined;
  }
  return parsed.url.href;
}

function checkEvents(events: unknown, issues: Issue[]): string[] {
  if (!Array.isArray(events) || events.length === 0) {
    issues.push({ path: "/events", message: `Choose one or more of ${SUBSCRIBABLE_EVENTS.join(", ")}.` });
    return [];
  }
  events.forEach((event, i) => {
    if (!(SUBSCRIBABLE_EVENTS as readonly unknown[]).includes(event)) {
      const hint =
        event === "webhook.test"
          ? "webhook.test is sent on request (the test action), not subscribed to"
          : "";
      issues.push({
        path: `/events/${i}`,
        message: hint || `Unknown event type '${String(event)}': use ${SUBSCRIBABLE_EVENTS.join(", ")}.`,
      });
    }
  });
  // Stored in one canonical order, without duplicates.
  return SUBSCRIBABLE_EVENTS.filter((type) => events.includes(type));
}

function checkDescription(description: unknown, issues: Issue[]): void {
  if (description == null) return;
  if (typeof description !== "string" || description.length > DESCRIPTION_MAX) {
    issues.push({
      path: "/description",
      message: `Expected a string of at most ${DESCRIPTION_MAX} characters`,
    });
  }
}

function checkStatus(status: unknown, issues: Issue[]): void {
  if (status !== undefined && !ENDPOINT_STATUSES.includes(status as EndpointStatus)) {
    issues.push({ path: "/status", message: "Expected active or paused" });
  }
}
