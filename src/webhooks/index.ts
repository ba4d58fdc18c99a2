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
export { buildWebhookRuntime, type RuntimeOptions, type WebhookRuntime } from "./runtime.ts";
export type { DeliveryView, EndpointView, EndpointWithSecret } from "./views.ts";

import { createDispatcher, type Dispatcher } from "./dispatcher.ts";
import type { WebhookRuntime } from "./runtime.ts";

/** `textscan serve`: the dispatcher in background mode over the service context's webhook runtime. */
export function startDispatcher(rt: WebhookRuntime): Dispatcher {
  const dispatcher = createDispatcher(rt);
  dispatcher.start();
  return dispatcher;
}
