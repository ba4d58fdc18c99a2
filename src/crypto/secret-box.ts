import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { linkSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Secrets at rest that a hash cannot replace: webhook signing secrets (HMAC needs the secret itself) and stored
 * idempotent responses (a replay must return the secret a create or rotate showed). They are sealed with
 * AES-256-GCM, bound to their row by the additional data (`context`), so a sealed value copied onto another row
 * does not open. The key comes from TEXTSCAN_SECRET_KEY or from a key file in the data directory.
 */
export interface SecretBox {
  seal(plain: string, context: string): string;
  open(sealed: string, context: string): string;
}

const FORMAT = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const KEY_FILE = "secret.key";
/** A passphrase shorter than this is too easy to guess to protect secrets. */
const MIN_PASSPHRASE = 32;

export class SecretKeyError extends Error {}

export function secretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new SecretKeyError("the secret key must be 32 bytes");
  return {
    seal(plain, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      cipher.setAAD(Buffer.from(context));
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return `${FORMAT}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
    },
    open(sealed, context) {
      const [format, data] = sealed.split(".", 2);
      if (format !== FORMAT || data === undefined) throw new SecretKeyError("unknown sealed-secret format");
      const raw = Buffer.from(data, "base64url");
      const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      try {
        return Buffer.concat([
          decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)),
          decipher.final(),
        ]).toString("utf8");
      } catch {
        // Never echo the sealed value or the key: the message says only what to check.
        throw new SecretKeyError(
          "a signing secret could not be decrypted: TEXTSCAN_SECRET_KEY or the data directory's secret.key changed",
        );
      }
    },
  };
}

/**
 * The key that seals signing secrets. TEXTSCAN_SECRET_KEY (any passphrase of 32+ characters, stretched with
 * HKDF-SHA256; passed in by the configuration) wins; otherwise `secret.key` in the data directory, created on
 * first use with mode 0600.
 */
export function loadSecretKey(dataDir: string, passphrase: string | null): Buffer {
  if (passphrase !== null && passphrase !== "") {
    if (passphrase.length < MIN_PASSPHRASE) {
      throw new SecretKeyError(`TEXTSCAN_SECRET_KEY must be at least ${MIN_PASSPHRASE} characters`);
    }
    return Buffer.from(hkdfSync("sha256", passphrase, "textscan", "webhook-signing-secrets", 32));
  }
  return keyFromFile(join(dataDir, KEY_FILE));
}

function keyFromFile(path: string): Buffer {
  const existing = readKeyFile(path);
  if (existing) return existing;
  // Write to a private temporary name, then link it into place: link fails if the file exists, so two
  // processes starting together on a fresh data directory agree on one key and nobody reads a half-written file.
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString("hex")}`;
  writeFileSync(temporary, `${randomBytes(32).toString("hex")}\n`, { mode: 0o600, flag: "wx" });
  try {
    linkSync(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    unlinkSync(temporary);
  }
  const key = readKeyFile(path);
  if (!key) throw new SecretKeyError(`${path} does not hold a 64-hex-digit key`);
  return key;
}

function readKeyFile(path: string): Buffer | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8").trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  if (!/^[0-9a-f]{64}$/i.test(text)) throw new SecretKeyError(`${path} does not hold a 64-hex-digit key`);
  return Buffer.from(text, "hex");
}
