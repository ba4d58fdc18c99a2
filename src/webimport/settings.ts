import { type Cidr, parseCidrList } from "../webhooks/cidr.ts";
import { type Resolver, systemResolver } from "../webhooks/url-guard.ts";

/**
 * Limits of every fetch the plagiarism side makes (imported URLs, pages found by live search). Named once here,
 * with the reason for each, and read from TEXTSCAN_WEB_* variables.
 */

/** A page that has not arrived in full after this long is dropped: a check must finish within its job lease. */
export const DEFAULT_FETCH_TIMEOUT_MS = 10_000;
/** Far above any article (the HTML of a long news page is ~0.5-2 MB); a larger body is not a page of text. */
export const DEFAULT_MAX_PAGE_BYTES = 5 * 1024 * 1024;
/** Redirect hops followed, each one checked by the URL guard again. */
export const MAX_REDIRECTS = 5;
export const USER_AGENT = "textscan-web/0.1 (+https://github.com/textscan; plagiarism source import)";

export interface WebFetchSettings {
  /** Networks the operator allows even though the guard would refuse them (TEXTSCAN_WEB_ALLOW_NETWORKS). */
  allowNetworks: readonly Cidr[];
  /** One deadline for the whole fetch: DNS, redirects, headers and body. */
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  resolve: Resolver;
  userAgent: string;
}

export const DEFAULT_WEB_FETCH_SETTINGS: WebFetchSettings = {
  allowNetworks: [],
  timeoutMs: DEFAULT_FETCH_TIMEOUT_MS,
  maxBytes: DEFAULT_MAX_PAGE_BYTES,
  maxRedirects: MAX_REDIRECTS,
  resolve: systemResolver,
  userAgent: USER_AGENT,
};

type Env = Record<string, string | undefined>;

export const readEnv = (env: Env, name: string): string | undefined => {
  const value = env[name]?.trim();
  return value === undefined || value === "" ? undefined : value;
};

/** A whole number > 0 from a variable; a malformed value stops the start with a message naming it. */
export function positiveInteger(env: Env, name: string, fallback: number): number {
  const raw = readEnv(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new Error(`${name} must be a whole number > 0, got '${raw}'`);
  }
  return value;
}

export function webFetchSettingsFromEnv(env: Env): WebFetchSettings {
  const networks = readEnv(env, "TEXTSCAN_WEB_ALLOW_NETWORKS");
  return {
    ...DEFAULT_WEB_FETCH_SETTINGS,
    allowNetworks: networks === undefined ? [] : parseCidrList(networks, "TEXTSCAN_WEB_ALLOW_NETWORKS"),
    timeoutMs: positiveInteger(env, "TEXTSCAN_WEB_FETCH_TIMEOUT_MS", DEFAULT_FETCH_TIMEOUT_MS),
    maxBytes: positiveInteger(env, "TEXTSCAN_WEB_MAX_PAGE_BYTES", DEFAULT_MAX_PAGE_BYTES),
  };
}
