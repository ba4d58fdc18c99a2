import { type Cidr, parseCidrList } from "./cidr.ts";

/** Spec 6.4: retries 1 min, 5 min, 30 min, 2 h, 6 h and 15 h after a failure: seven attempts in all. */
export const DEFAULT_RETRY_SCHEDULE_S = [60, 300, 1_800, 7_200, 21_600, 54_000];
/** Spec 6.4 and 8: the receiver answers 2xx within 10 seconds. */
export const DEFAULT_TIMEOUT_MS = 10_000;
/** How long the delivery log (attempts, finished deliveries, delivered events) is kept. */
export const DEFAULT_LOG_RETENTION_DAYS = 30;
/** Requests in flight per process: enough for ~1,000 deliveries/s to a receiver answering in tens of ms. */
export const DEFAULT_CONCURRENCY = 64;
/** In flight per endpoint, so one slow or hanging receiver cannot take every slot from the others. */
export const DEFAULT_PER_ENDPOINT_CONCURRENCY = 16;
/** In flight per workspace: half the slots, so one workspace's slow endpoints always leave room for the others. */
export const DEFAULT_PER_WORKSPACE_CONCURRENCY = 32;

export interface WebhookSettings {
  /** Delays in seconds before attempt 2, 3, ...; its length + 1 is the number of attempts. */
  retryScheduleS: number[];
  timeoutMs: number;
  /** Networks the operator allows even though the guard would refuse them (TEXTSCAN_WEBHOOK_ALLOW_NETWORKS). */
  allowNetworks: Cidr[];
  logRetentionMs: number;
  concurrency: number;
  perEndpointConcurrency: number;
  perWorkspaceConcurrency: number;
}

type Env = Record<string, string | undefined>;

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = {
  retryScheduleS: DEFAULT_RETRY_SCHEDULE_S,
  timeoutMs: DEFAULT_TIMEOUT_MS,
  allowNetworks: [],
  logRetentionMs: DEFAULT_LOG_RETENTION_DAYS * 86_400_000,
  concurrency: DEFAULT_CONCURRENCY,
  perEndpointConcurrency: DEFAULT_PER_ENDPOINT_CONCURRENCY,
  perWorkspaceConcurrency: DEFAULT_PER_WORKSPACE_CONCURRENCY,
};

/** Reads the TEXTSCAN_WEBHOOK_* variables; a malformed value stops the start with a message naming it. */
export function webhookSettingsFromEnv(env: Env): WebhookSettings {
  const read = (name: string) => {
    const value = env[name]?.trim();
    return value === undefined || value === "" ? undefined : value;
  };
  const schedule = read("TEXTSCAN_WEBHOOK_RETRY_SCHEDULE");
  const timeout = read("TEXTSCAN_WEBHOOK_TIMEOUT_MS");
  const networks = read("TEXTSCAN_WEBHOOK_ALLOW_NETWORKS");
  const retention = read("TEXTSCAN_WEBHOOK_LOG_RETENTION_DAYS");
  const concurrency = read("TEXTSCAN_WEBHOOK_CONCURRENCY");
  return {
    retryScheduleS:
      schedule === undefined
        ? DEFAULT_RETRY_SCHEDULE_S
        : parseSchedule(schedule, "TEXTSCAN_WEBHOOK_RETRY_SCHEDULE"),
    timeoutMs:
      timeout === undefined ? DEFAULT_TIMEOUT_MS : positive(timeout, "TEXTSCAN_WEBHOOK_TIMEOUT_MS", true),
    allowNetworks: networks === undefined ? [] : parseCidrList(networks, "TEXTSCAN_WEBHOOK_ALLOW_NETWORKS"),
    logRetentionMs:
      (retention === undefined
        ? DEFAULT_LOG_RETENTION_DAYS
        : positive(retention, "TEXTSCAN_WEBHOOK_LOG_RETENTION_DAYS", false)) * 86_400_000,
    concurrency:
      concurrency === undefined
        ? DEFAULT_CONCURRENCY
        : positive(concurrency, "TEXTSCAN_WEBHOOK_CONCURRENCY", true),
    perEndpointConcurrency: DEFAULT_PER_ENDPOINT_CONCURRENCY,
    perWorkspaceConcurrency: DEFAULT_PER_WORKSPACE_CONCURRENCY,
  };
}

/** "60,300,1800": seconds, fractions allowed (tests use sub-second schedules), each >= 0. */
export function parseSchedule(text: string, what: string): number[] {
  return text.split(",").map((part) => {
    const value = Number(part.trim());
    if (part.trim() === "" || !Number.isFinite(value) || value < 0) {
      throw new Error(`${what}: '${part.trim()}' is not a number of seconds >= 0`);
    }
    return value;
  });
}

function positive(text: string, what: string, integer: boolean): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new Error(`${what} must be a ${integer ? "whole " : ""}number > 0, got '${text}'`);
  }
  return value;
}

/** Attempts a delivery may make: one first attempt plus one per scheduled retry, unless the row says otherwise. */
export const maxAttemptsOf = (settings: WebhookSettings, rowMax: number | null): number =>
  rowMax ?? settings.retryScheduleS.length + 1;

/**
 * How long a claimed delivery stays reserved for its claimant: the whole attempt (DNS, request, reading the
 * first bytes) is bounded by the timeout plus the DNS bound, so the lease outlives any attempt that is alive.
 */
export const DNS_TIMEOUT_MS = 2_000;
const LEASE_MARGIN_MS = 3_000;
export const leaseMs = (settings: WebhookSettings): number =>
  settings.timeoutMs + DNS_TIMEOUT_MS + LEASE_MARGIN_MS;
