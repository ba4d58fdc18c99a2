/**
 * IP addresses and CIDR ranges as numbers, for the URL safety guard. Pure: no DNS, no I/O.
 * IPv4 addresses are 32-bit values; IPv6 addresses 128-bit values; both held as bigint.
 */
export type Family = 4 | 6;

export interface IpAddress {
  family: Family;
  value: bigint;
}

export interface Cidr {
  family: Family;
  base: bigint;
  prefix: number;
  /** The text it was parsed from, for messages. */
  text: string;
}

const BITS: Record<Family, number> = { 4: 32, 6: 128 };

export function parseIpv4(text: string): bigint | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const n = Number(part);
    if (n > 255) return undefined;
    value = (value << 8n) | BigInt(n);
  }
  return value;
}

export function parseIpv6(input: string): bigint | undefined {
  // A zone id (fe80::1%eth0) names an interface, not part of the address.
  const text = input.replace(/%.*$/, "");
  if (!/^[0-9a-fA-F:.]+$/.test(text)) return undefined;
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const groupsOf = (part: string): number[] | undefined => {
    if (part === "") return [];
    const groups: number[] = [];
    const pieces = part.split(":");
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i] ?? "";
      if (i === pieces.length - 1 && piece.includes(".")) {
        const v4 = parseIpv4(piece);
        if (v4 === undefined) return undefined;
        groups.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(piece)) return undefined;
        groups.push(Number.parseInt(piece, 16));
      }
    }
    return groups;
  };
  const head = groupsOf(halves[0] ?? "");
  const tail = halves.length === 2 ? groupsOf(halves[1] ?? "") : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  let value = 0n;
  for (const group of groups) value = (value << 16n) | BigInt(group);
  return value;
}

/** Parses an IPv4 or IPv6 literal (brackets allowed, as in URLs); undefined when it is neither. */
export function parseIp(text: string): IpAddress | undefined {
  const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const v4 = parseIpv4(bare);
  if (v4 !== undefined) return { family: 4, value: v4 };
  if (!bare.includes(":")) return undefined;
  const v6 = parseIpv6(bare);
  return v6 === undefined ? undefined : { family: 6, value: v6 };
}

export function parseCidr(text: string): Cidr | undefined {
  const trimmed = text.trim();
  const [addressText, prefixText, ...rest] = trimmed.split("/");
  if (rest.length > 0 || addressText === undefined) return undefined;
  const address = parseIp(addressText);
  if (!address) return undefined;
  const bits = BITS[address.family];
  let prefix = bits;
  if (prefixText !== undefined) {
    if (!/^\d{1,3}$/.test(prefixText)) return undefined;
    prefix = Number(prefixText);
    if (prefix > bits) return undefined;
  }
  return {
    family: address.family,
    base: address.value & mask(address.family, prefix),
    prefix,
    text: trimmed,
  };
}

/** Parses a comma- or whitespace-separated CIDR list; throws naming the first entry that is not one. */
export function parseCidrList(text: string, what: string): Cidr[] {
  const entries = text.split(/[\s,]+/).filter((entry) => entry !== "");
  return entries.map((entry) => {
    const cidr = parseCidr(entry);
    if (!cidr) throw new Error(`${what}: '${entry}' is not an IP address or CIDR range`);
    return cidr;
  });
}

function mask(family: Family, prefix: number): bigint {
  const bits = BITS[family];
  const all = (1n << BigInt(bits)) - 1n;
  return prefix === 0 ? 0n : (all >> BigInt(bits - prefix)) << BigInt(bits - prefix);
}

export function cidrContains(cidr: Cidr, address: IpAddress): boolean {
  return cidr.family === address.family && (address.value & mask(cidr.family, cidr.prefix)) === cidr.base;
}

export function formatIp(address: IpAddress): string {
  if (address.family === 4) {
    return [24n, 16n, 8n, 0n].map((shift) => String((address.value >> shift) & 0xffn)).join(".");
  }
  const groups: string[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n)
    groups.push(((address.value >> shift) & 0xffffn).toString(16));
  return groups.join(":");
}

/**
 * The IPv4 address an IPv6 address stands for, when it embeds one: IPv4-mapped (::ffff:a.b.c.d), NAT64
 * (64:ff9b::a.b.c.d) and 6to4 (2002:AABB:CCDD::). A guard that looked only at the IPv6 form would let
 * `[::ffff:127.0.0.1]` through.
 */
export function embeddedIpv4(address: IpAddress): IpAddress | undefined {
  if (address.family !== 6) return undefined;
  const v = address.value;
  const low32 = v & 0xffffffffn;
  if (v >> 32n === 0xffffn) return { family: 4, value: low32 };
  if (v >> 32n === 0x0064ff9b_00000000_00000000n) return { family: 4, value: low32 };
  if (v >> 112n === 0x2002n) return { family: 4, value: (v >> 80n) & 0xffffffffn };
  return undefined;
}
