import { completeIdempotent } from "../idempotency/index.ts";
import type { ScanOutcome } from "../scans/detect.ts";
import type { Tx } from "../store/db.ts";
import { requestContext } from "./context.ts";
import { JSON_CONTENT_TYPE, jsonResponse } from "./envelope.ts";

/**
 * The response of a scan-creating route. Its body is rendered inside the scan's transaction and, with an
 * Idempotency-Key, stored for replay in that same transaction (DESIGN invariant 5): a crash can never leave a
 * charge whose response was not recorded.
 */
export function scanResponder(request: Request, status: 200 | 202) {
  const { idempotency } = requestContext(request);
  let body = "";
  const headersOf = (outcome: ScanOutcome) => ({ "x-credits-remaining": String(outcome.balance) });
  return {
    inTransaction(tx: Tx, outcome: ScanOutcome): void {
      body = JSON.stringify(outcome.scan);
      if (idempotency) {
        completeIdempotent(tx, idempotency, {
          status,
          headers: { "content-type": JSON_CONTENT_TYPE, ...headersOf(outcome) },
          body,
        });
      }
    },
    respond(outcome: ScanOutcome): Response {
      return jsonResponse(status, body, headersOf(outcome));
    },
  };
}
