/**
 * The one table of error codes (spec 7.2), with the type and HTTP status each one carries. Services throw
 * `ServiceError` with a code from here; the HTTP adapter renders the envelope, the CLI prints one line.
 */
export const ERROR_CODES = {
  invalid_body: { status: 400, type: "invalid_request_error", message: "The request body is not valid." },
  too_short: { status: 400, type: "invalid_request_error", message: "The text has fewer than 40 words." },
  too_long: { status: 400, type: "invalid_request_error", message: "The text has more than 25,000 words." },
  invalid_image: { status: 400, type: "invalid_request_error", message: "The image could not be read." },
  // Added within v1 (spec 7: "not shown"): an Idempotency-Key longer than 255 characters.
  invalid_idempotency_key: {
    status: 400,
    type: "invalid_request_error",
    message: "Idempotency-Key must be 1 to 255 printable ASCII characters.",
  },
  unauthorized: {
    status: 401,
    type: "authentication_error",
    message: "The API key is missing, revoked or mistyped.",
  },
  insufficient_credits: {
    status: 402,
    type: "billing_error",
    message: "The workspace does not have enough credits for this scan.",
  },
  plan_required: {
    status: 403,
    type: "permission_error",
    message: "The workspace plan does not include this check.",
  },
  not_found: { status: 404, type: "invalid_request_error", message: "No such resource in this workspace." },
  idempotency_key_reused: {
    status: 409,
    type: "invalid_request_error",
    message: "This Idempotency-Key was used with a different body or endpoint.",
  },
  request_in_progress: {
    status: 409,
    type: "invalid_request_error",
    message: "A request with this Idempotency-Key is still running; retry after a short pause.",
  },
  // Added within v1: a body larger than the service accepts (far above 25,000 words of text).
  body_too_large: { status: 413, type: "invalid_request_error", message: "The request body is too large." },
  rate_limited: {
    status: 429,
    type: "rate_limit_error",
    message: "Too many requests; retry after the given seconds.",
  },
  server_error: {
    status: 500,
    type: "api_error",
    message: "Something went wrong on our side; it is safe to retry with the same Idempotency-Key.",
  },
  not_available: { status: 501, type: "api_error", message: "This endpoint is not live yet." },
  unavailable: {
    status: 503,
    type: "api_error",
    message: "Detection is briefly unavailable; retry with backoff.",
  },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;
export type ErrorType = (typeof ERROR_CODES)[ErrorCode]["type"];

export interface Issue {
  path: string;
  message: string;
}

/** Extra fields some codes carry in the envelope (spec 7). */
export interface ErrorDetails {
  issues?: Issue[];
  cost?: number;
  balance?: number;
  retry_after?: number;
}

export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails;

  constructor(code: ErrorCode, message?: string, details: ErrorDetails = {}) {
    super(message ?? ERROR_CODES[code].message);
    this.name = "ServiceError";
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return ERROR_CODES[this.code].status;
  }

  get type(): ErrorType {
    return ERROR_CODES[this.code].type;
  }
}

export const invalidBody = (issues: Issue[], message = "The request body is not valid.") =>
  new ServiceError("invalid_body", message, { issues });

export const notFound = (what: string, id: string) =>
  new ServiceError("not_found", `No ${what} with id '${id}'.`);

/**
 * Another writer held the store past the busy timeout (a long CLI import, say): nothing of this request was
 * written and a retry will succeed, so it is a retryable 503, not a 500.
 */
export function isStoreBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_BUSY" || code === "SQLITE_BUSY_SNAPSHOT" || code === "SQLITE_LOCKED";
}

export const storeBusy = () =>
  new ServiceError("unavailable", "The store is busy with another write; retry in a moment.");
