import { dirname } from "node:path";
import { loadSecretKey, type SecretBox, secretBox } from "../crypto/secret-box.ts";
import type { Db } from "../store/db.ts";
import { type Clock, systemClock } from "../time.ts";
import { type WebhookSettings, webhookSettingsFromEnv } from "./config.ts";
import { type GuardConfig, type Resolver, systemResolver } from "./url-guard.ts";

/**
 * What the webhook verbs and the dispatcher need besides the database: settings, the secret box, a clock and
 * a resolver. One runtime per store; tests configure theirs (clock, allowed networks, schedule) without
 * touching process.env, and the HTTP routes, the CLI and the dispatcher of one store share it.
 */
export interface WebhookRuntime {
  db: Db;
  settings: WebhookSettings;
  secrets: SecretBox;
  clock: Clock;
  resolve: Resolver;
}

export interface RuntimeOptions {
  settings?: Partial<WebhookSettings>;
  clock?: Clock;
  resolve?: Resolver;
  secrets?: SecretBox;
  env?: Record<string, string | undefined>;
}

const runtimes = new WeakMap<Db, WebhookRuntime>();

/** The runtime of a store, built from the environment on first use. */
export function webhookRuntime(db: Db): WebhookRuntime {
  let runtime = runtimes.get(db);
  if (!runtime) {
    runtime = buildRuntime(db, {});
    runtimes.set(db, runtime);
  }
  return runtime;
}

/** Sets the runtime of a store (tests, the server at start); later callers of webhookRuntime(db) get it. */
export function configureWebhooks(db: Db, options: RuntimeOptions = {}): WebhookRuntime {
  const runtime = buildRuntime(db, options);
  runtimes.set(db, runtime);
  return runtime;
}

function buildRuntime(db: Db, options: RuntimeOptions): WebhookRuntime {
  const env = options.env ?? process.env;
  return {
    db,
    settings: { ...webhookSettingsFromEnv(env), ...options.settings },
    secrets: options.secrets ?? secretBox(loadSecretKey(dirname(db.$client.filename), env)),
    clock: options.clock ?? systemClock,
    resolve: options.resolve ?? systemResolver,
  };
}

export const guardOf = (runtime: WebhookRuntime): GuardConfig => ({
  allowNetworks: runtime.settings.allowNetworks,
  allowSetting: "TEXTSCAN_WEBHOOK_ALLOW_NETWORKS",
  resolve: runtime.resolve,
});
