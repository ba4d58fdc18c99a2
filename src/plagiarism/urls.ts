/**
 * One spelling per web address, so that `exclude_urls` and the web index agree on what "the same page" is:
 * scheme and host lower-cased, default ports, fragments and user info dropped, a trailing slash of the path
 * removed. The query string is kept (it can select a different page). Only http and https addresses qualify.
 */
export function normalizeUrl(input: string): string | null {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  // WHATWG URL parsing already lower-cases scheme and host, drops default ports and percent-encodes the path.
  const path = url.pathname.replace(/\/+$/, "");
  return `${url.protocol}//${url.host}${path}${url.search}`;
}
