import type { Logger } from "../context/log.ts";
import type { Signal } from "../context/signal.ts";
import type { SecretBox } from "../crypto/secret-box.ts";
import type { Db } from "../store/db.ts";
import type { Clock } from "../time.ts";
import type { WebhookSettings } from "./config.ts";
import { type GuardConfig, type Resolver, systemResolver } from "./url-guard.ts";

/**
 * What the webhook verbs and the dispatcher need besides the database: settings, the secret box, a clock, a
 * resolver and the outbox wake-up. One runtime per service context (src/context); tests configure theirs
 * (clock, allowed networks, schedule) with `configureWebhooks(ctx, ...)`.
 */
export interface WebhookRuntime {
  db: Db;
  settings: WebhookSettings;
  secrets: SecretBox;
  clock: Clock;
  resolve: Resolver;
  /** Wakes the dispatcher after new due deliveries are committed. */
  wake: Signal;
  logger: Logger;
}

export interface RuntimeOptions {
  settings?: Partial<WebhookSettings>;
  clock?: Clock;
  resolve?: Resolver;
  secrets?: SecretBox;
}

export function buildWebhookRuntime(parts: {
  db: Db;
  settings: WebhookSettings;
  secrets: SecretBox;
  clock: Clock;
  wake: Signal;
  logger: Logger;
  resolve?: Resolver;
}): WebhookRuntime {
  return { ...parts, resolve: parts.resolve ?? systemResolver };
}

export const guardOf = (runtime: WebhookRuntime): GuardConfig => ({
  allowNetworks: runtime.settings.allowNetworks,
  allowSetting: "TEXTSCAN_WEBHOOK_ALLOW_NETWORKS",
  resolve: runtime.resolve,
});
