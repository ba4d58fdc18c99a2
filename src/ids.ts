import { randomBytes, randomUUID } from "node:crypto";

/** Prefixed random ids: never SQLite row ids, which are reused after deletes. */
export function newId(prefix: string, bytes = 16): string {
  return `${prefix}${randomBytes(bytes).toString("hex")}`;
}

export const newScanId = () => newId("scn_"); // spec 2.1: scn_ + 32 hex
export const newEventId = () => newId("evt_");
export const newWorkspaceId = () => randomUUID(); // spec 2.5: UUID-shaped

export const SCAN_ID_PATTERN = /^scn_[0-9a-f]{32}$/;

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** Uniform random letters and digits: bytes >= 248 are rejected so that every character is equally likely. */
export function randomAlphanumeric(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= 248) continue;
      out += ALPHANUMERIC[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}
