/**
 * Runtime configuration: flags win over TEXTSCAN_* environment variables, which win over defaults.
 * Every default is named here once, with the reason for it.
 */
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
/** An in_progress idempotency record older than this belongs to a request that died: a retry may run again. */
export const IDEMPOTENCY_STALE_MS = 2 * 60 * 1000;

/** How long a worker's claim on a plagiarism scan lasts before another worker may take it over. */
export function jobLeaseMs(env: Env = process.env): number {
  const raw = env.TEXTSCAN_JOB_LEASE_MS;
  return raw ? parseCount(raw, "TEXTSCAN_JOB_LEASE_MS") : 60_000;
}

export interface ServeConfig {
  host: string;
  port: number;
  dataDir: string;
  workers: number;
}

type Env = Record<string, string | undefined>;

export function planAllowance(plan: Plan, env: Env = process.env): number {
  const raw = env[`TEXTSCAN_ALLOWANCE_${plan.toUpperCase()}`];
  if (raw === undefined || raw === "") return DEFAULT_ALLOWANCES[plan];
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new Error(`TEXTSCAN_ALLOWANCE_${plan.toUpperCase()} must be a whole number >= 0, got '${raw}'`);
  }
  return value;
}

export function isPlan(value: string): value is Plan {
  return (PLANS as readonly string[]).includes(value);
}

export function defaultDataDir(env: Env = process.env): string {
  return env.TEXTSCAN_DATA_DIR || "./data";
}

export function parsePort(raw: string, what = "port"): number {
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`${what} must be 0-65535, got '${raw}'`);
  return port;
}

export function parseCount(raw: string, what: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${what} must be a whole number >= 0, got '${raw}'`);
  return n;
}

export function resolveServeConfig(
  flags: { host?: string; port?: string; dataDir?: string; workers?: string },
  env: Env = process.env,
): ServeConfig {
  return {
    host: flags.host ?? env.TEXTSCAN_HOST ?? "127.0.0.1",
    port: parsePort(flags.port ?? env.TEXTSCAN_PORT ?? "8080"),
    dataDir: flags.dataDir ?? defaultDataDir(env),
    workers: parseCount(flags.workers ?? env.TEXTSCAN_WORKERS ?? "2", "workers"),
  };
}
