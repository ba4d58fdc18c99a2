import type { IpAddress } from "./cidr.ts";
import { pinnedTarget } from "./url-guard.ts";

/** The first bytes of a reply kept in the delivery log: enough to read an error page's gist. */
export const EXCERPT_BYTES = 1_024;
export const USER_AGENT = "textscan-webhooks/0.1 (+https://github.com/textscan)";

export interface SendRequest {
  url: URL;
  /** The address the guard approved; the request connects to it, so DNS cannot change in between. */
  address?: IpAddress;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

export interface SendResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  excerpt: string | null;
}

/** The HTTP client of deliveries (Bun's fetch, whose init carries `tls`); tests may wrap it. */
export type FetchLike = (input: string, init: BunFetchRequestInit) => Promise<Response>;

/**
 * One POST: success is a 2xx reply within the timeout (spec 6.4). Redirects are not followed (the target was
 * never checked by the guard, and a 3xx is not a 2xx). The reply's first bytes are read within the same deadline
 * for the log; a slow body after a 2xx status does not turn success into failure.
 */
export async function send(request: SendRequest, fetchImpl: FetchLike = fetch): Promise<SendResult> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, request.timeoutMs);
  try {
    const { target, host, serverName } = pinnedTarget(request.url, request.address);
    let response: Response;
    try {
      response = await fetchImpl(target, {
        method: "POST",
        headers: host ? { ...request.headers, host } : request.headers,
        body: request.body,
        redirect: "manual",
        signal: controller.signal,
        ...(serverName && { tls: { serverName } }),
      });
    } catch (error) {
      return {
        ok: false,
        statusCode: null,
        error: timedOut ? `no reply within ${request.timeoutMs} ms` : describeNetworkError(error),
        excerpt: null,
      };
    }
    const excerpt = await readExcerpt(response);
    const status = response.status;
    if (status >= 200 && status < 300) return { ok: true, statusCode: status, error: null, excerpt };
    const error =
      status >= 300 && status < 400
        ? `redirect (HTTP ${status}) not followed${response.headers.get("location") ? ` to ${response.headers.get("location")}` : ""}`
        : `HTTP ${status}`;
    return { ok: false, statusCode: status, error, excerpt };
  } finally {
    clearTimeout(timer);
  }
}

async function readExcerpt(response: Response): Promise<string | null> {
  if (!response.body) return null;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < EXCERPT_BYTES) {
      const { done, value } = await reader.read();
      if (done || !value) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // The deadline aborted the body, or the peer closed it: keep what arrived.
  } finally {
    reader.cancel().catch(() => {});
  }
  if (size === 0) return null;
  const bytes = Buffer.concat(chunks).subarray(0, EXCERPT_BYTES);
  return new TextDecoder("utf-8", { fatal: false }).decode(bytes);
}

function describeNetworkError(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  const text = message ?? String(error);
  return code && !text.includes(code) ? `${code}: ${text}` : text;
}
