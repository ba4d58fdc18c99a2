import type { IdempotencyClaim } from "../idempotency/index.ts";
import type { Principal } from "../keys/index.ts";
import type { RateState } from "../ratelimit/index.ts";

/** What the gateway learned about a request before routing; handlers read it with `requestContext`. */
export interface RequestContext {
  requestId: string;
  principal?: Principal;
  rate?: RateState;
  /** The raw body text, read once by the gateway (size limit, idempotency hash, JSON parse). */
  rawBody?: string;
  idempotency?: IdempotencyClaim;
}

const contexts = new WeakMap<Request, RequestContext>();

export function attachContext(request: Request, context: RequestContext): void {
  contexts.set(request, context);
}

export function requestContext(request: Request): RequestContext {
  const context = contexts.get(request);
  if (!context) throw new Error("request reached a handler without passing the gateway");
  return context;
}

export function maybeContext(request: Request): RequestContext | undefined {
  return contexts.get(request);
}

/** The authenticated principal of a request; routes under /api/v1 only run once the gateway set it. */
export function principalOf(request: Request): Principal {
  const principal = requestContext(request).principal;
  if (!principal) throw new Error("authenticated route reached without a principal");
  return principal;
}
