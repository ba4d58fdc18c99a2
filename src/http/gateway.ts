import { randomBytes } from "node:crypto";
import { MAX_BODY_BYTES } from "../config.ts";
import type { SecretBox } from "../crypto/secret-box.ts";
import { ServiceError } from "../errors.ts";
import {
  beginIdempotent,
  completeIdempotent,
  hashBody,
  releaseIdempotent,
  validateIdempotencyKey,
} from "../idempotency/index.ts";
import type { Verification } from "../keys/index.ts";
import type { RateLimiter, RateState } from "../ratelimit/index.ts";
import type { Db } from "../store/db.ts";
import type { Clock } from "../time.ts";
import { attachContext, type RequestContext } from "./context.ts";
import { errorResponse, serverError } from "./envelope.ts";

export interface GatewayDeps {
  db: Db;
  verifyKey: (presented: string) => Verification;
  rateLimiter: RateLimiter;
  clock: Clock;
  /** Seals stored idempotent responses at rest. */
  box?: SecretBox;
  /** The router (Elysia's `app.handle`). */
  route: (request: Request) => Promise<Response>;
}

const API_PREFIX = "/api/v1/";
/** Paths under /api/v1 that need no key (spec 4.7). */
const PUBLIC_API_PATHS = new Set(["/api/v1/openapi.json"]);
/** POST /image takes JSON or multipart (spec 4.6); it answers 501 after auth, so its body is never read. */
const NON_JSON_PATHS = new Set(["/api/v1/image"]);
const METHODS_WITH_BODY = new Set(["POST", "PUT", "PATCH"]);
/** Response headers worth replaying with an idempotent response (spec 4.1: "the first response again"). */
const REPLAYED_HEADERS = ["content-type", "x-credits-remaining", "location"];

export const newRequestId = () => `req_${randomBytes(12).toString("hex")}`;

/**
 * Everything every request goes through before and after routing: request id, authentication, the rate
 * limit, the body (size, content type, raw bytes) and idempotency. Doing it here, around the router, keeps
 * these rules in one place and makes them hold for the framework's own errors too (DESIGN invariant 6).
 */
export function createGateway(deps: GatewayDeps): (request: Request) => Promise<Response> {
  return async (incoming) => {
    const context: RequestContext = { requestId: newRequestId() };
    let response: Response;
    try {
      response = await pass(incoming, context, deps);
    } catch (error) {
      response = failure(error, context);
    }
    return decorate(response, context);
  };
}

async function pass(incoming: Request, context: RequestContext, deps: GatewayDeps): Promise<Response> {
  const url = new URL(incoming.url);
  const needsKey = url.pathname.startsWith(API_PREFIX) && !PUBLIC_API_PATHS.has(url.pathname);
  if (needsKey) {
    authenticate(incoming, context, deps);
  }
  let request = incoming;
  if (METHODS_WITH_BODY.has(incoming.method) && !NON_JSON_PATHS.has(url.pathname)) {
    const raw = await readBody(incoming);
    context.rawBody = raw;
    request = new Request(incoming.url, { method: incoming.method, headers: incoming.headers, body: raw });
  }
  attachContext(request, context);

  const key = incoming.headers.get("idempotency-key");
  if (key === null || incoming.method !== "POST" || !context.principal) {
    return deps.route(request);
  }
  validateIdempotencyKey(key);
  const start = beginIdempotent(deps.db, {
    workspaceId: context.principal.workspaceId,
    key,
    endpoint: `POST ${url.pathname}`,
    bodyHash: hashBody(context.rawBody ?? ""),
    now: deps.clock(),
    ...(deps.box && { box: deps.box }),
  });
  if (start.kind === "replay") {
    const headers = new Headers(start.response.headers);
    headers.set("idempotent-replayed", "true");
    return new Response(start.response.body, { status: start.response.status, headers });
  }
  context.idempotency = start.claim;
  let response: Response;
  try {
    response = await deps.route(request);
  } catch (error) {
    releaseIdempotent(deps.db, start.claim);
    throw error;
  }
  if (response.status >= 200 && response.status < 300) {
    // Verbs that spend credits already stored their response in their own transaction; this is a no-op then.
    const body = await response.clone().text();
    completeIdempotent(deps.db, start.claim, {
      status: response.status,
      headers: replayable(response),
      body,
    });
  } else {
    releaseIdempotent(deps.db, start.claim);
  }
  return response;
}

function authenticate(request: Request, context: RequestContext, deps: GatewayDeps): void {
  const header = request.headers.get("authorization");
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  if (!match?.[1]) {
    throw new ServiceError(
      "unauthorized",
      header
        ? "The Authorization header must be 'Bearer <API_KEY>'."
        : "Missing Authorization: Bearer <API_KEY> header.",
    );
  }
  const verdict = deps.verifyKey(match[1]);
  if (verdict.kind !== "valid") {
    throw new ServiceError("unauthorized", "The API key is not valid: it is mistyped, unknown or revoked.");
  }
  context.principal = verdict.principal;
  const decision = deps.rateLimiter.take(verdict.principal.apiKeyId, verdict.principal.rateLimit);
  context.rate = decision.state;
  if (!decision.allowed) {
    throw new ServiceError(
      "rate_limited",
      `More than ${decision.state.limit} requests in a minute; retry in ${decision.retryAfter} seconds.`,
      { retry_after: decision.retryAfter },
    );
  }
}

const isJson = (contentType: string | null) =>
  contentType !== null && /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType.trim());

/** Reads the body as UTF-8 text, refusing oversized bodies before buffering them whole when it can. */
async function readBody(request: Request): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  if (!request.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body) {
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  if (size === 0) return "";
  if (!isJson(request.headers.get("content-type"))) {
    throw new ServiceError(
      "invalid_body",
      "The body must be JSON, sent with Content-Type: application/json.",
      {
        issues: [
          { path: "", message: `unsupported Content-Type '${request.headers.get("content-type") ?? ""}'` },
        ],
      },
    );
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new ServiceError("invalid_body", "The body is not valid UTF-8.", {
      issues: [{ path: "", message: "invalid UTF-8" }],
    });
  }
}

const tooLarge = () =>
  new ServiceError("body_too_large", `The request body exceeds ${MAX_BODY_BYTES / (1024 * 1024)} MB.`);

function failure(error: unknown, context: RequestContext): Response {
  if (error instanceof ServiceError) return errorResponse(error, context.requestId);
  console.error(`[${context.requestId}] unhandled error:`, error);
  return errorResponse(serverError(), context.requestId);
}

function replayable(response: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return headers;
}

/** Adds the headers every response carries (spec 1 and 8). */
function decorate(response: Response, context: RequestContext): Response {
  const headers = response.headers;
  headers.set("x-request-id", context.requestId);
  if (context.rate) setRateHeaders(headers, context.rate);
  return response;
}

export function setRateHeaders(headers: Headers, rate: RateState): void {
  headers.set("x-ratelimit-limit", String(rate.limit));
  headers.set("x-ratelimit-remaining", String(rate.remaining));
  headers.set("x-ratelimit-reset", String(rate.reset));
}
