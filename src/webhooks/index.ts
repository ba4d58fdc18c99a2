// The webhooks room: endpoint management, delivery log, test events, the dispatcher and its housekeeping.
export {
  DEFAULT_RETRY_SCHEDULE_S,
  DEFAULT_TIMEOUT_MS,
  type WebhookSettings,
  webhookSettingsFromEnv,
} from "./config.ts";
export {
  type DeliveryPage,
  deliveryWorkspace,
  getDelivery,
  listDeliveries,
  retryDelivery,
  sendTestEvent,
} from "./deliveries.ts";
export { createDispatcher, type Dispatcher } from "./dispatcher.ts";
export {
  createEndpoint,
  deleteEndpoint,
  type EndpointInput,
  type EndpointPatch,
  endpointWorkspace,
  getEndpoint,
  listEndpoints,
  rotateSecret,
  SUBSCRIBABLE_EVENTS,
  updateEndpoint,
} from "./endpoints.ts";
export { type PruneCounts, pruneWebhookLog, webhookTasks } from "./prune.ts";
export { configureWebhooks, type RuntimeOptions, type WebhookRuntime, webhookRuntime } from "./runtime.ts";
export type { DeliveryView, EndpointView, EndpointWithSecret } from "./views.ts";

import type { Db } from "../store/db.ts";
import { createDispatcher, type Dispatcher } from "./dispatcher.ts";
import { webhookRuntime } from "./runtime.ts";

/** `textscan serve`: the dispatcher in background mode over the store's runtime (settings from the environment). */
export function startDispatcher(db: Db): Dispatcher {
  const dispatcher = createDispatcher(webhookRuntime(db));
  dispatcher.start();
  return dispatcher;
}
