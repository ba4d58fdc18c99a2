import { completeIdempotent } from "../idempotency/index.ts";
import type { DbOrTx } from "../store/db.ts";
import { requestContext } from "./context.ts";
import { JSON_CONTENT_TYPE, jsonResponse } from "./envelope.ts";

/**
 * The response of a POST that creates or changes something without a charge (a document, an endpoint, a
 * rotated secret, a test or retried delivery). Its body is rendered inside the verb's transaction and, with an
 * Idempotency-Key, stored there too (DESIGN invariant 5), so a crash between the verb's commit and the storing
 * of its response cannot make a retry create the object twice.
 */
export function committedResponse(request: Request, status: number) {
  const { idempotency } = requestContext(request);
  let body = "";
  return {
    /** Call inside the verb's transaction, with the object the response carries. */
    record(db: DbOrTx, value: unknown): void {
      body = JSON.stringify(value);
      if (idempotency) {
        completeIdempotent(db, idempotency, { status, headers: { "content-type": JSON_CONTENT_TYPE }, body });
      }
    },
    respond(): Response {
      return jsonResponse(status, body);
    },
  };
}
