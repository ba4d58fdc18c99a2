import { createHmac } from "node:crypto";

/**
 * Spec 6.3: lowercase hex HMAC-SHA256, keyed with the endpoint's signing secret (the whole `whsec_...`
 * string, as UTF-8), over `<t>.<raw body>`. Pure: the caller passes the timestamp.
 */
export function signPayload(secret: string, timestamp: number, body: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
}

/**
 * The Service-Signature header: `t=<unix seconds>,v1=<hex>`, with one more `v1` per extra secret. During the
 * 24 hours after a rotation the old secret signs too, so a receiver that still has it keeps verifying;
 * verifiers accept the delivery when any `v1` matches (the convention of the widely used verifiers).
 */
export function signatureHeader(secrets: readonly string[], timestamp: number, body: string): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${signPayload(secret, timestamp, body)}`)].join(
    ",",
  );
}
