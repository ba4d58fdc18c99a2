import { lookup } from "node:dns/promises";
import {
  type Cidr,
  cidrContains,
  embeddedIpv4,
  formatIp,
  type IpAddress,
  parseCidr,
  parseIp,
} from "./cidr.ts";
import { DNS_TIMEOUT_MS } from "./config.ts";

/**
 * The SSRF guard: a webhook URL must be http(s) and must not lead into the server's own networks (loopback,
 * private, link-local, cloud metadata). Checked when an endpoint is created or changed, and again before every
 * attempt, because what a name resolves to can change. The operator opens networks with allowNetworks.
 */
export type Resolver = (hostname: string) => Promise<string[]>;

export interface GuardConfig {
  allowNetworks: readonly Cidr[];
  resolve: Resolver;
  /** The setting that opens networks for this caller, named in refusals so the operator knows what to set. */
  allowSetting: string;
}

export const MAX_URL_LENGTH = 2_048;

const range = (text: string, label: string) => {
  const cidr = parseCidr(text);
  if (!cidr) throw new Error(`bad built-in range ${text}`);
  return { cidr, label };
};

/** Destinations refused unless allowed, with the words used to explain a refusal. */
const REFUSED_RANGES = [
  range("0.0.0.0/8", "a 'this network' address"),
  range("10.0.0.0/8", "a private address"),
  range("100.64.0.0/10", "a shared (carrier-grade NAT) address"),
  range("127.0.0.0/8", "a loopback address"),
  range("169.254.0.0/16", "a link-local address (where cloud metadata services live)"),
  range("172.16.0.0/12", "a private address"),
  range("192.0.0.0/24", "an IETF protocol address"),
  range("192.0.2.0/24", "a documentation address"),
  range("192.168.0.0/16", "a private address"),
  range("198.18.0.0/15", "a benchmarking address"),
  range("198.51.100.0/24", "a documentation address"),
  range("203.0.113.0/24", "a documentation address"),
  range("224.0.0.0/4", "a multicast address"),
  range("240.0.0.0/4", "a reserved address"),
  // Azure's platform endpoint (metadata and DNS for VMs) is a public-looking address.
  range("168.63.129.16/32", "a cloud metadata address"),
  range("::/128", "the unspecified address"),
  range("::1/128", "a loopback address"),
  range("::/96", "an IPv4-compatible address"),
  range("64:ff9b:1::/48", "a local NAT64 address"),
  range("100::/64", "a discard address"),
  range("2001:db8::/32", "a documentation address"),
  range("fc00::/7", "a private (unique local) address"),
  range("fe80::/10", "a link-local address"),
  range("fec0::/10", "a site-local address"),
  range("ff00::/8", "a multicast address"),
];

const LOOPBACK_NAMES: IpAddress[] = ["127.0.0.1", "::1"].map((ip) => {
  const address = parseIp(ip);
  if (!address) throw new Error(`bad built-in address ${ip}`);
  return address;
});

/** Why an address is refused, or undefined when it may be reached. */
export function refusalOf(address: IpAddress, allowNetworks: readonly Cidr[]): string | undefined {
  const candidates = [address];
  const embedded = embeddedIpv4(address);
  if (embedded) candidates.push(embedded);
  if (candidates.some((candidate) => allowNetworks.some((cidr) => cidrContains(cidr, candidate)))) {
    return undefined;
  }
  for (const candidate of candidates) {
    const hit = REFUSED_RANGES.find(({ cidr }) => cidrContains(cidr, candidate));
    if (hit) return `${formatIp(address)} is ${hit.label}`;
  }
  return undefined;
}

/** Checks the form of a webhook URL; returns the parsed URL or the problem in words. */
export function parseWebhookUrl(raw: string): { url: URL } | { problem: string } {
  if (raw.length > MAX_URL_LENGTH) return { problem: `must be at most ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { problem: "must be an absolute http:// or https:// URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { problem: `must use http or https, not ${url.protocol.replace(/:$/, "")}` };
  }
  if (url.username !== "" || url.password !== "") {
    // Credentials in a URL end up in listings and logs; deliveries are authenticated by their signature.
    return { problem: "must not contain a user name or password" };
  }
  if (url.hostname === "") return { problem: "must name a host" };
  return { url };
}

export type Destination =
  | { kind: "allowed"; addresses: IpAddress[] }
  | { kind: "refused"; reason: string }
  | { kind: "unresolved"; reason: string };

/**
 * Resolves a URL's host and judges every address it resolves to: one refused address refuses the URL, since
 * the connection could go to any of them.
 */
export async function judgeDestination(url: URL, config: GuardConfig): Promise<Destination> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const literal = parseIp(host);
  let addresses: IpAddress[];
  if (literal) {
    addresses = [literal];
  } else if (host === "localhost" || host.endsWith(".localhost")) {
    // RFC 6761: these names are loopback whatever a resolver says (or fails to say).
    addresses = LOOPBACK_NAMES;
  } else {
    let resolved: string[];
    try {
      resolved = await config.resolve(host);
    } catch (error) {
      return { kind: "unresolved", reason: `${host} does not resolve (${describeDnsError(error)})` };
    }
    addresses = resolved.map(parseIp).filter((a): a is IpAddress => a !== undefined);
    if (addresses.length === 0) return { kind: "unresolved", reason: `${host} has no addresses` };
  }
  for (const address of addresses) {
    const refusal = refusalOf(address, config.allowNetworks);
    if (refusal) {
      const via = literal ? "" : `${host} resolves to `;
      return {
        kind: "refused",
        reason: `${via}${refusal}; set ${config.allowSetting} to allow it`,
      };
    }
  }
  return { kind: "allowed", addresses };
}

/** The system resolver (what fetch would use), bounded so that a dead DNS server cannot hold an attempt. */
export const systemResolver: Resolver = async (hostname) => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`DNS lookup timed out after ${DNS_TIMEOUT_MS} ms`)),
      DNS_TIMEOUT_MS,
    );
  });
  try {
    const found = await Promise.race([lookup(hostname, { all: true }), timeout]);
    return found.map((entry) => entry.address);
  } finally {
    clearTimeout(timer);
  }
};

function describeDnsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  return code ?? (error as Error)?.message ?? "lookup failed";
}

/**
 * Where to connect: the address the guard approved, so a second DNS answer cannot send the request elsewhere
 * (DNS rebinding). The name still travels in Host and, for https, as the TLS server name, against which the
 * certificate is verified. Used by webhook deliveries and by every web fetch of the plagiarism side.
 */
export function pinnedTarget(
  url: URL,
  address: IpAddress | undefined,
): { target: string; host?: string; serverName?: string } {
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  if (!address || parseIp(hostname)) return { target: url.href };
  const literal = address.family === 6 ? `[${formatIp(address)}]` : formatIp(address);
  const pinned = new URL(url.href);
  pinned.hostname = literal;
  return { target: pinned.href, host: url.host, ...(url.protocol === "https:" && { serverName: hostname }) };
}
