import { randomBytes } from "node:crypto";
import { MAX_BODY_BYTES } from "../config.ts";
import type { ServiceContext } from "../context/index.ts";
import { errorMessage } from "../context/log.ts";
import { isStoreBusy, ServiceError, storeBusy } from "../errors.ts";
import {
  beginIdempotent,
  completeIdempotent,
  hashBody,
  releaseIdempotent,
  validateIdempotencyKey,
} from "../idempotency/index.ts";
import type { Instance } from "../instances/index.ts";
import type { Verification } from "../keys/index.ts";
import type { RateLimiter, RateState } from "../ratelimit/index.ts";
import { attachContext, type RequestContext } from "./context.ts";
import { errorResponse, serverError } from "./envelope.ts";
import { jsonDepthExceeds } from "./json-depth.ts";
import type { RouteTable } from "./routes-table.ts";

export interface GatewayDeps {
  ctx: ServiceContext;
  verifyKey: (presented: string) => Verification;
  rateLimiter: RateLimiter;
  /** This process as the holder of idempotency claims. */
  instance: Instance;
  routes: RouteTable;
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
/** No body of this API nests deeper than 3; 32 leaves room and refuses nesting bombs before any parsing. */
export const MAX_JSON_DEPTH = 32;
/**
 * The host every request is routed under. The router is handed the path the gateway judged, on a fixed host, so
 * the gateway's notion of the path (auth, limits, idempotency) and the router's are the same whatever the Host
 * header says (a short host such as `x` once made them differ).
 */
const ROUTING_ORIGIN = "http://textscan.internal";

export const newRequestId = () => `req_${randomBytes(12).toString("hex")}`;

/**
 * Everything every request goes through before and after routing: request id, route lookup, authentication,
 * the rate limit, the body (size, content type, depth, raw bytes) and idempotency; and the access, slow-request
 * and error log lines. Doing it here, around the router, keeps these rules in one place and makes them hold for
 * the framework's own errors too (DESIGN invariant 6). Order matters for cost: nothing is read from the body of
 * a request to an unknown route or without a valid key.
 */
export function createGateway(deps: GatewayDeps): (request: Request) => Promise<Response> {
  const { ctx } = deps;
  return async (incoming) => {
    const started = performance.now();
    const context: RequestContext = { requestId: newRequestId() };
    let response: Response;
    let pathname = "";
    try {
      pathname = pathOf(incoming);
      response = await pass(incoming, pathname, context, deps);
    } catch (error) {
      response = failure(ctx, error, context);
    }
    decorate(response, context);
    const ms = Math.round(performance.now() - started);
    // Facts only: never the query string, headers, body or key (they may carry secrets or submitted text).
    const fields = {
      method: incoming.method,
      path: pathname,
      status: response.status,
      ms,
      request_id: context.requestId,
      workspace: context.principal?.workspaceId,
    };
    if (ctx.config.log.access) ctx.logger.info("request", fields);
    if (ms >= ctx.config.log.slowRequestMs) ctx.logger.warn("request.slow", fields);
    return response;
  };
}

/** The path of a request, or a clear 400 when the request line cannot be read as a URL (HTTP/1.0 without Host). */
function pathOf(request: Request): string {
  try {
    return new URL(request.url).pathname;
  } catch {
    throw new ServiceError(
      "invalid_body",
      "The request URL could not be read; send an absolute path and a Host.",
    );
  }
}

async function pass(
  incoming: Request,
  pathname: string,
  context: RequestContext,
  deps: GatewayDeps,
): Promise<Response> {
  const { ctx } = deps;
  const found = deps.routes.match(incoming.method, pathname);
  const needsKey = pathname.startsWith(API_PREFIX) && !PUBLIC_API_PATHS.has(pathname);
  // An API path needs a key before anything else is revealed (even whether the route exists, spec 4.7).
  if (needsKey) authenticate(incoming, context, deps);
  if (found !== "found") {
    throw new ServiceError("not_found", `No endpoint ${incoming.method} ${pathname}.`);
  }
  const search = incoming.url.includes("?") ? incoming.url.slice(incoming.url.indexOf("?")) : "";
  const url = `${ROUTING_ORIGIN}${pathname}${search}`;
  let request: Request;
  if (METHODS_WITH_BODY.has(incoming.method) && !NON_JSON_PATHS.has(pathname)) {
    const raw = await readBody(incoming);
    context.rawBody = raw;
    request = new Request(url, { method: incoming.method, headers: incoming.headers, body: raw });
  } else {
    request = new Request(url, { method: incoming.method, headers: incoming.headers });
  }
  attachContext(request, context);

  const key = incoming.headers.get("idempotency-key");
  if (key === null || incoming.method !== "POST" || !context.principal) {
    return deps.route(request);
  }
  validateIdempotencyKey(key);
  const start = beginIdempotent(ctx.db, {
    workspaceId: context.principal.workspaceId,
    key,
    endpoint: `POST ${pathname}`,
    bodyHash: hashBody(context.rawBody ?? ""),
    now: ctx.clock(),
    holder: deps.instance.id,
    box: ctx.secrets,
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
    releaseIdempotent(ctx.db, start.claim);
    throw error;
  }
  if (response.status >= 200 && response.status < 300) {
    // Verbs complete their claim in their own transaction (scans, documents, webhooks); this is a no-op then,
    // and a safety net for any verb that does not.
    const body = await response.clone().text();
    completeIdempotent(ctx.db, start.claim, {
      status: response.status,
      headers: replayable(response),
      body,
    });
  } else {
    releaseIdempotent(ctx.db, start.claim);
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

/** The client went away mid-upload: nobody will read the answer, and it is not worth a log line. */
class ClientAbort extends Error {}

/** Reads the body as UTF-8 text, refusing oversized bodies before buffering them whole when it can. */
async function readBody(request: Request): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  if (!request.body) return "";
  // The content type is known before the body: refuse a wrong one without reading it.
  const contentType = request.headers.get("content-type");
  if (declared > 0 && !isJson(contentType)) throw notJson(contentType);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of request.body) {
      size += chunk.byteLength;
      if (size > MAX_BODY_BYTES) throw tooLarge();
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    throw new ClientAbort("the request body stopped arriving");
  }
  if (size === 0) return "";
  if (!isJson(contentType)) throw notJson(contentType);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new ServiceError("invalid_body", "The body is not valid UTF-8.", {
      issues: [{ path: "", message: "invalid UTF-8" }],
    });
  }
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
    throw new ServiceError("invalid_body", `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels.`, {
      issues: [{ path: "", message: `nesting deeper than ${MAX_JSON_DEPTH} levels` }],
    });
  }
  return text;
}

const notJson = (contentType: string | null) =>
  new ServiceError("invalid_body", "The body must be JSON, sent with Content-Type: application/json.", {
    issues: [{ path: "", message: `unsupported Content-Type '${contentType ?? ""}'` }],
  });

const tooLarge = () =>
  new ServiceError("body_too_large", `The request body exceeds ${MAX_BODY_BYTES / (1024 * 1024)} MB.`);

function failure(ctx: ServiceContext, error: unknown, context: RequestContext): Response {
  if (error instanceof ServiceError) return errorResponse(error, context.requestId);
  if (error instanceof ClientAbort) {
    return errorResponse(new ServiceError("invalid_body", error.message), context.requestId);
  }
  if (isStoreBusy(error)) {
    ctx.logger.warn("request.store_busy", { request_id: context.requestId });
    return errorResponse(storeBusy(), context.requestId);
  }
  ctx.logger.error("request.error", { request_id: context.requestId, error: errorMessage(error) });
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
function decorate(response: Response, context: RequestContext): void {
  const headers = response.headers;
  headers.set("x-request-id", context.requestId);
  if (context.rate) setRateHeaders(headers, context.rate);
}

export function setRateHeaders(headers: Headers, rate: RateState): void {
  headers.set("x-ratelimit-limit", String(rate.limit));
  headers.set("x-ratelimit-remaining", String(rate.remaining));
  headers.set("x-ratelimit-reset", String(rate.reset));
}
