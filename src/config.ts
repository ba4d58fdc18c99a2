/**
 * Runtime configuration: flags win over TEXTSCAN_* environment variables, which win over defaults. This is the
 * only module that reads the environment: `loadConfig` parses and validates every setting once, at start-up
 * (of `serve` and of each CLI command), and a malformed value stops the start with a line naming the variable.
 * Every default is named here once, with the reason for it.
 */
import type { LogFormat } from "./context/log.ts";
import { type WebhookSettings, webhookSettingsFromEnv } from "./webhooks/config.ts";
import { type WebFetchSettings, webFetchSettingsFromEnv } from "./webimport/settings.ts";
import { type LiveSearchSettings, liveSearchSettingsFromEnv } from "./websearch/settings.ts";

export const PLANS = ["free", "essential", "advanced", "team"] as const;
export type Plan = (typeof PLANS)[number];

/** Credits each plan adds per calendar month (1 credit = 1 detected word). Override: TEXTSCAN_ALLOWANCE_<PLAN>. */
export const DEFAULT_ALLOWANCES: Record<Plan, number> = {
  free: 10_000,
  essential: 150_000,
  advanced: 500_000,
  team: 2_000_000,
};

/** Plans that may run plagiarism and image checks (spec 4.3, 5.6). */
export const PLANS_WITH_PLAGIARISM: ReadonlySet<Plan> = new Set(["advanced", "team"]);

export const DEFAULT_RATE_LIMIT_PER_MINUTE = 60; // spec 8
export const MIN_WORDS = 40; // spec 4.1
export const MAX_WORDS = 25_000; // spec 4.1
/**
 * The largest JSON body accepted. 25,000 words of ordinary text are ~150-250 KB; non-Latin scripts and JSON
 * escapes (\uXXXX is 6 bytes a character) can grow that several times, so the limit sits far above it.
 */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255; // spec 4.1
export const IDEMPOTENCY_REPLAY_MS = 24 * 60 * 60 * 1000; // spec 4.1: 24 hours
/**
 * How long an instance's claim on an idempotency key lasts without a heartbeat. The holder renews it every
 * third of this while it serves; a claim whose holder stopped renewing (a killed process) is free after this.
 */
export const DEFAULT_INSTANCE_LEASE_MS = 10_000;
/** A request slower than this is logged (with its method, path, status and request id). */
export const DEFAULT_SLOW_REQUEST_MS = 5_000;
/** How long a worker's claim on a plagiarism scan lasts before another worker may take it over. */
export const DEFAULT_JOB_LEASE_MS = 60_000;

export type Env = Record<string, string | undefined>;

/** A setting that cannot be used: the message names the variable or flag and what it must be. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** Background plagiarism job workers (0 runs none). */
  workers: number;
  /** Detection worker threads (default: one per core). */
  detectThreads: number | null;
  jobLeaseMs: number;
  instanceLeaseMs: number;
  allowances: Record<Plan, number>;
  /** TEXTSCAN_SECRET_KEY: a passphrase for the sealing key, or null for the data directory's key file. */
  secretKey: string | null;
  webhooks: WebhookSettings;
  webFetch: WebFetchSettings;
  /** Live web search for plagiarism checks; null when off. */
  liveSearch: LiveSearchSettings | null;
  log: { format: LogFormat; access: boolean; slowRequestMs: number };
  /** NO_COLOR is set: the CLI prints no colours. */
  noColor: boolean;
  /** The TEXTSCAN_* settings that differ from their defaults, for the start-up line (secrets masked). */
  changed: Record<string, string>;
}

export interface ConfigFlags {
  host?: string;
  port?: string;
  dataDir?: string;
  workers?: string;
}

/** Settings whose values are never printed, not even at start-up. */
const SECRET_SETTINGS = new Set(["TEXTSCAN_SECRET_KEY"]);

/**
 * Parses every setting once. `isTerminal` picks the log format when TEXTSCAN_LOG_FORMAT is unset (text for a
 * person at a terminal, JSON for a collector).
 */
export function loadConfig(env: Env, flags: ConfigFlags = {}, isTerminal = false): Config {
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === "" ? undefined : value;
  };
  const wrap = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (error) {
      if (error instanceof ConfigError) throw error;
      throw new ConfigError((error as Error).message);
    }
  };
  const logFormat = read("TEXTSCAN_LOG_FORMAT");
  if (logFormat !== undefined && logFormat !== "json" && logFormat !== "text") {
    throw new ConfigError(`TEXTSCAN_LOG_FORMAT must be 'json' or 'text', got '${logFormat}'`);
  }
  const access = read("TEXTSCAN_ACCESS_LOG");
  if (access !== undefined && !["0", "1", "true", "false"].includes(access)) {
    throw new ConfigError(`TEXTSCAN_ACCESS_LOG must be 1 or 0, got '${access}'`);
  }
  const threads = read("TEXTSCAN_DETECT_THREADS");
  const secretKey = read("TEXTSCAN_SECRET_KEY") ?? null;
  if (secretKey !== null && secretKey.length < MIN_SECRET_PASSPHRASE) {
    throw new ConfigError(`TEXTSCAN_SECRET_KEY must be at least ${MIN_SECRET_PASSPHRASE} characters`);
  }
  const allowances = {} as Record<Plan, number>;
  for (const plan of PLANS) {
    const name = `TEXTSCAN_ALLOWANCE_${plan.toUpperCase()}`;
    const raw = read(name);
    allowances[plan] = raw === undefined ? DEFAULT_ALLOWANCES[plan] : parseCount(raw, name);
  }
  const changed: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith("TEXTSCAN_") || value === undefined || value.trim() === "") continue;
    changed[name] = SECRET_SETTINGS.has(name) ? "(set)" : value.trim();
  }
  return {
    host: flags.host ?? read("TEXTSCAN_HOST") ?? "127.0.0.1",
    port: wrap(() =>
      parsePort(flags.port ?? read("TEXTSCAN_PORT") ?? "8080", flags.port ? "--port" : "TEXTSCAN_PORT"),
    ),
    dataDir: flags.dataDir ?? read("TEXTSCAN_DATA_DIR") ?? "./data",
    workers: parseCount(
      flags.workers ?? read("TEXTSCAN_WORKERS") ?? "2",
      flags.workers ? "--workers" : "TEXTSCAN_WORKERS",
    ),
    detectThreads: threads === undefined ? null : positive(threads, "TEXTSCAN_DETECT_THREADS"),
    jobLeaseMs: positive(
      read("TEXTSCAN_JOB_LEASE_MS") ?? String(DEFAULT_JOB_LEASE_MS),
      "TEXTSCAN_JOB_LEASE_MS",
    ),
    instanceLeaseMs: positive(
      read("TEXTSCAN_INSTANCE_LEASE_MS") ?? String(DEFAULT_INSTANCE_LEASE_MS),
      "TEXTSCAN_INSTANCE_LEASE_MS",
    ),
    allowances,
    secretKey,
    webhooks: wrap(() => webhookSettingsFromEnv(env)),
    webFetch: wrap(() => webFetchSettingsFromEnv(env)),
    liveSearch: wrap(() => liveSearchSettingsFromEnv(env)),
    log: {
      format: (logFormat as LogFormat | undefined) ?? (isTerminal ? "text" : "json"),
      access: access === "1" || access === "true",
      slowRequestMs: positive(
        read("TEXTSCAN_SLOW_REQUEST_MS") ?? String(DEFAULT_SLOW_REQUEST_MS),
        "TEXTSCAN_SLOW_REQUEST_MS",
      ),
    },
    noColor: env.NO_COLOR !== undefined && env.NO_COLOR !== "",
    changed,
  };
}

/** The configuration of `textscan` with every default: for tests and scripts that set nothing. */
export const defaultConfig = (overrides: Partial<Config> = {}): Config => ({
  ...loadConfig({}),
  ...overrides,
});

/** Configuration from this process's environment: the one place `process.env` is read. */
export const configFromProcess = (flags: ConfigFlags = {}): Config =>
  loadConfig(process.env, flags, process.stderr.isTTY === true);

export const MIN_SECRET_PASSPHRASE = 32;

export function isPlan(value: string): value is Plan {
  return (PLANS as readonly string[]).includes(value);
}

export function parsePort(raw: string, what = "port"): number {
  const port = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`${what} must be 0-65535, got '${raw}'`);
  return port;
}

export function parseCount(raw: string, what: string): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < 0)
    throw new ConfigError(`${what} must be a whole number >= 0, got '${raw}'`);
  return n;
}

function positive(raw: string, what: string): number {
  const n = parseCount(raw, what);
  if (n === 0) throw new ConfigError(`${what} must be a whole number > 0, got '${raw}'`);
  return n;
}
