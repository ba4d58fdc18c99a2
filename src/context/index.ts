import { type Config, defaultConfig } from "../config.ts";
import { loadSecretKey, type SecretBox, secretBox } from "../crypto/secret-box.ts";
import { type Db, openStore, type Store } from "../store/db.ts";
import { type Clock, systemClock } from "../time.ts";
import { buildWebhookRuntime, type RuntimeOptions, type WebhookRuntime } from "../webhooks/runtime.ts";
import { createLogger, type Logger } from "./log.ts";
import { newWakeups, type Wakeups } from "./signal.ts";

export type { Logger } from "./log.ts";
export { Signal, type Wakeups } from "./signal.ts";

/**
 * The composition root's product: everything a verb or a background loop needs besides its own arguments. It is
 * built once by `serve` (and once by each CLI command, and once per test with a manual clock) and handed down;
 * nothing below it reads the environment, the wall clock or a module-global registry.
 */
export interface ServiceContext {
  config: Config;
  store: Store;
  db: Db;
  /** The one source of "now" for every verb, loop and log line. */
  clock: Clock;
  /** Seals webhook secrets and stored idempotent responses (one key, loaded once). */
  secrets: SecretBox;
  /** Wake-ups for idle job workers and the webhook dispatcher. */
  wake: Wakeups;
  /** Settings, resolver and secrets of the webhook verbs and dispatcher. Tests may replace it. */
  webhooks: WebhookRuntime;
  logger: Logger;
}

export interface ContextOptions {
  config?: Config;
  clock?: Clock;
  logger?: Logger;
  /** An open store (a test's, a CLI command's); default: the config's data directory. */
  store?: Store;
  webhooks?: RuntimeOptions;
}

export function createContext(options: ContextOptions = {}): ServiceContext {
  const config = options.config ?? defaultConfig();
  const clock = options.clock ?? systemClock;
  const store = options.store ?? openStore(config.dataDir);
  const secrets = secretBox(loadSecretKey(store.dataDir, config.secretKey));
  const wake = newWakeups();
  const logger = options.logger ?? createLogger({ format: config.log.format, clock });
  const ctx: ServiceContext = {
    config,
    store,
    db: store.db,
    clock,
    secrets,
    wake,
    logger,
    webhooks: buildWebhookRuntime({
      db: store.db,
      settings: config.webhooks,
      secrets,
      clock,
      wake: wake.outbox,
      logger,
    }),
  };
  if (options.webhooks) configureWebhooks(ctx, options.webhooks);
  return ctx;
}

/** Replaces the context's webhook runtime with one that has these overrides (tests: clock, networks, schedule). */
export function configureWebhooks(ctx: ServiceContext, options: RuntimeOptions = {}): WebhookRuntime {
  ctx.webhooks = buildWebhookRuntime({
    db: ctx.db,
    settings: { ...ctx.config.webhooks, ...options.settings },
    secrets: options.secrets ?? ctx.secrets,
    clock: options.clock ?? ctx.clock,
    wake: ctx.wake.outbox,
    logger: ctx.logger,
    ...(options.resolve && { resolve: options.resolve }),
  });
  return ctx.webhooks;
}
