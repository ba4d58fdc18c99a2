import { judgeDestination, parseWebhookUrl, pinnedTarget } from "../webhooks/url-guard.ts";
import type { WebFetchSettings } from "./settings.ts";

/**
 * One guarded GET of a web page: every hop (the URL and each redirect target) passes the webhooks room's URL
 * guard, so neither a user's URL list nor a search result can lead the server into its own networks; http
 * connections go to the address the guard approved, so DNS cannot change in between. One deadline covers the
 * whole fetch, the body is read up to a size limit, and only text media types are accepted.
 */

export type FetchFailure =
  | "bad_url"
  | "refused"
  | "unreachable"
  | "timeout"
  | "http_status"
  | "redirects"
  | "unsupported_type"
  | "too_large";

export class WebFetchError extends Error {
  constructor(
    readonly kind: FetchFailure,
    message: string,
  ) {
    super(message);
    this.name = "WebFetchError";
  }
}

export interface FetchedPage {
  /** The URL asked for. */
  requestedUrl: string;
  /** Where the page was found, after redirects. */
  url: string;
  /** The media type without parameters, e.g. `text/html`. */
  mediaType: string;
  body: string;
}

export type FetchLike = (input: string, init: BunFetchRequestInit) => Promise<Response>;

/** Media types whose text can be a source. */
export const TEXT_MEDIA_TYPES: ReadonlySet<string> = new Set([
  "text/html",
  "application/xhtml+xml",
  "text/plain",
  "text/markdown",
]);

const ACCEPT = "text/html,application/xhtml+xml;q=0.9,text/plain;q=0.8,*/*;q=0.1";

export async function fetchPage(
  rawUrl: string,
  settings: WebFetchSettings,
  fetchImpl: FetchLike = fetch,
): Promise<FetchedPage> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, settings.timeoutMs);
  const late = () =>
    new WebFetchError("timeout", `${rawUrl}: no complete answer within ${settings.timeoutMs} ms`);
  try {
    let current = rawUrl;
    for (let hop = 0; ; hop++) {
      const parsed = parseWebhookUrl(current);
      if ("problem" in parsed) throw new WebFetchError("bad_url", `${current}: the URL ${parsed.problem}`);
      const url = parsed.url;
      const destination = await judgeDestination(url, {
        allowNetworks: settings.allowNetworks,
        resolve: settings.resolve,
        allowSetting: "TEXTSCAN_WEB_ALLOW_NETWORKS",
      });
      if (timedOut) throw late();
      if (destination.kind === "refused") {
        throw new WebFetchError("refused", `${url.href}: refused, ${destination.reason}`);
      }
      if (destination.kind === "unresolved") {
        throw new WebFetchError("unreachable", `${url.href}: ${destination.reason}`);
      }
      const { target, host, serverName } = pinnedTarget(url, destination.addresses[0]);
      let response: Response;
      try {
        response = await fetchImpl(target, {
          method: "GET",
          headers: { "user-agent": settings.userAgent, accept: ACCEPT, ...(host && { host }) },
          redirect: "manual",
          signal: controller.signal,
          ...(serverName && { tls: { serverName } }),
        });
      } catch (error) {
        throw timedOut ? late() : new WebFetchError("unreachable", `${url.href}: ${describe(error)}`);
      }
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel().catch(() => {});
        if (hop >= settings.maxRedirects) {
          throw new WebFetchError("redirects", `${rawUrl}: more than ${settings.maxRedirects} redirects`);
        }
        current = new URL(location, url).href;
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => {});
        throw new WebFetchError("http_status", `${url.href}: HTTP ${response.status}`);
      }
      const contentType = response.headers.get("content-type") ?? "";
      const mediaType = (contentType.split(";")[0] ?? "").trim().toLowerCase();
      if (!TEXT_MEDIA_TYPES.has(mediaType)) {
        await response.body?.cancel().catch(() => {});
        throw new WebFetchError(
          "unsupported_type",
          `${url.href}: ${mediaType || "no content type"} is not a text page (expected HTML or plain text)`,
        );
      }
      const bytes = await readLimited(response, settings.maxBytes, url.href).catch((error) => {
        throw timedOut ? late() : error;
      });
      return {
        requestedUrl: rawUrl,
        url: url.href,
        mediaType,
        body: decodeText(bytes, contentType, mediaType),
      };
    }
  } finally {
    clearTimeout(timer);
  }
}

async function readLimited(response: Response, maxBytes: number, url: string): Promise<Uint8Array> {
  const tooLarge = () => new WebFetchError("too_large", `${url}: larger than ${maxBytes} bytes`);
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!response.body) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) throw tooLarge();
      chunks.push(value);
    }
  } catch (error) {
    reader.cancel().catch(() => {});
    if (error instanceof WebFetchError) throw error;
    throw new WebFetchError("unreachable", `${url}: the body was cut off (${describe(error)})`);
  }
  return Buffer.concat(chunks);
}

/** Decodes with the charset the server names, else (HTML) one a <meta> tag names, else UTF-8. */
export function decodeText(bytes: Uint8Array, contentType: string, mediaType: string): string {
  const declared =
    charsetOf(contentType) ?? (mediaType.includes("html") ? sniffMetaCharset(bytes) : undefined);
  try {
    // Any WHATWG label may arrive here; TextDecoder throws on one it does not know, and UTF-8 is used instead.
    return new TextDecoder((declared ?? "utf-8") as "utf-8").decode(bytes);
  } catch {
    return new TextDecoder("utf-8").decode(bytes);
  }
}

const charsetOf = (contentType: string): string | undefined =>
  /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1]?.toLowerCase();

/** HTML5's prescan, reduced: a charset named in the first 1024 bytes. */
function sniffMetaCharset(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 1024));
  return /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1]?.toLowerCase();
}

function describe(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  const text = message ?? String(error);
  return code && !text.includes(code) ? `${code}: ${text}` : text;
}
