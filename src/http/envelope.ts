import { ERROR_CODES, type ErrorCode, type ErrorDetails, ServiceError } from "../errors.ts";

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

export interface ErrorEnvelope {
  error: {
    type: string;
    code: ErrorCode;
    message: string;
    request_id: string;
  } & ErrorDetails;
}

export function envelope(error: ServiceError, requestId: string): ErrorEnvelope {
  return {
    error: {
      type: error.type,
      code: error.code,
      message: error.message,
      request_id: requestId,
      ...error.details,
    },
  };
}

/** The spec 7 error response; 429s also carry Retry-After (spec 8). */
export function errorResponse(error: ServiceError, requestId: string): Response {
  const headers: Record<string, string> = { "content-type": JSON_CONTENT_TYPE, "x-request-id": requestId };
  if (error.details.retry_after !== undefined) headers["retry-after"] = String(error.details.retry_after);
  return new Response(JSON.stringify(envelope(error, requestId)), { status: error.status, headers });
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(typeof body === "string" ? body : JSON.stringify(body), {
    status,
    headers: { "content-type": JSON_CONTENT_TYPE, ...headers },
  });
}

export const serverError = () => new ServiceError("server_error", ERROR_CODES.server_error.message);
