import { ServiceError } from "../errors.ts";
import {
  createDispatcher,
  createEndpoint,
  type DeliveryView,
  deleteEndpoint,
  deliveryWorkspace,
  type EndpointView,
  endpointWorkspace,
  getDelivery,
  getEndpoint,
  listDeliveries,
  listEndpoints,
  retryDelivery,
  rotateSecret,
  sendTestEvent,
  updateEndpoint,
  type WebhookRuntime,
} from "../webhooks/index.ts";
import { type Command, type CommandInput, optionalInteger, requireString, UsageError } from "./command.ts";

const JSON_OPTION = { type: "boolean" as const, description: "Print JSON instead of text." };
const WORKSPACE_OPTION = {
  type: "string" as const,
  description: "Workspace id (required).",
  valueName: "ID",
};
/** How often `webhook test` looks again when a running server took the delivery first. */
const POLL_MS = 200;

const endpointLine = (e: EndpointView) =>
  `${e.id}  ${e.status.padEnd(6)}  ${e.events.join(",")}  ${e.url}${e.description ? `  (${e.description})` : ""}`;

const attemptLine = (d: DeliveryView) => {
  const last = d.log.at(-1);
  const result = last
    ? `${last.outcome}${last.status_code !== null ? ` HTTP ${last.status_code}` : ""}${last.duration_ms !== null ? ` in ${last.duration_ms} ms` : ""}${last.error ? `: ${last.error}` : ""}`
    : "no attempt yet";
  const next = d.next_attempt_at ? `, next attempt ${d.next_attempt_at}` : "";
  return `${d.id}  ${d.event_type}  ${d.status}  attempts ${d.attempts}/${d.max_attempts}  ${result}${next}`;
};

function endpointId(positionals: string[]): string {
  const id = positionals[0];
  if (!id) throw new UsageError("an endpoint ID is required (see textscan webhook list)");
  return id;
}

/** Resolves the store's webhook runtime and the workspace an endpoint belongs to: the operator names it by id. */
function forEndpoint({ context, positionals }: CommandInput): {
  rt: WebhookRuntime;
  workspaceId: string;
  id: string;
} {
  const id = endpointId(positionals);
  const rt = context().webhooks;
  return { rt, workspaceId: endpointWorkspace(rt.db, id), id };
}

function statusCommand(name: "pause" | "resume"): Command {
  const status = name === "pause" ? "paused" : "active";
  return {
    name: `webhook ${name}`,
    summary:
      name === "pause"
        ? "Pause an endpoint: its deliveries are held (none is dropped) until it is resumed."
        : "Resume an endpoint: deliveries held while it was paused go out now.",
    args: "ID",
    usesStore: true,
    options: { json: JSON_OPTION },
    async run(input) {
      const { rt, workspaceId, id } = forEndpoint(input);
      const endpoint = await updateEndpoint(rt, workspaceId, id, { status });
      input.out(
        input.values.json
          ? JSON.stringify(endpoint)
          : `${name === "pause" ? "paused" : "resumed"} ${endpointLine(endpoint)}`,
      );
    },
  };
}

/**
 * Sends a queued delivery from this process and reports its outcome. When a running server claimed it first
 * (the claim's lease keeps the two from both sending), waits for that server's outcome instead.
 */
async function deliverAndReport(
  rt: WebhookRuntime,
  workspaceId: string,
  queued: DeliveryView,
  input: CommandInput,
) {
  const dispatcher = createDispatcher(rt);
  await dispatcher.deliverNow(queued.id);
  let delivery = getDelivery(rt, workspaceId, queued.id);
  const endpoint = getEndpoint(rt, workspaceId, delivery.endpoint_id);
  const heldByPause = endpoint.status === "paused" && delivery.event_type !== "webhook.test";
  const deadline = rt.clock() + rt.settings.timeoutMs + 10_000;
  while (!heldByPause && !attemptFinished(delivery, queued.attempts) && rt.clock() < deadline) {
    await Bun.sleep(POLL_MS);
    delivery = getDelivery(rt, workspaceId, queued.id);
  }
  if (input.values.json) input.out(JSON.stringify(delivery));
  else if (heldByPause) input.out(`${delivery.id} queued: held until endpoint ${endpoint.id} is resumed`);
  else input.out(attemptLine(delivery));
  const last = delivery.log.at(-1);
  if (!heldByPause && last?.outcome !== "succeeded") {
    throw new ServiceError(
      "server_error",
      `the delivery did not succeed${last?.error ? `: ${last.error}` : ""}`,
    );
  }
}

const attemptFinished = (d: DeliveryView, attemptsBefore: number) =>
  d.attempts > attemptsBefore && d.log.at(-1)?.outcome !== "in_flight";

export const webhookCommands: Command[] = [
  {
    name: "webhook create",
    summary: "Create a webhook endpoint; prints its signing secret once.",
    usesStore: true,
    options: {
      workspace: WORKSPACE_OPTION,
      url: { type: "string", description: "http(s) URL to deliver to (required).", valueName: "URL" },
      events: {
        type: "string",
        description: "Comma-separated event types (default scan.completed,scan.failed).",
        valueName: "LIST",
      },
      description: {
        type: "string",
        description: "A note for people (up to 200 characters).",
        valueName: "TEXT",
      },
      paused: { type: "boolean", description: "Create it paused (deliveries are held until resumed)." },
      json: { type: "boolean", description: 'Print {"id","url","events","status","secret"}.' },
    },
    async run({ values, context, out }) {
      const rt = context().webhooks;
      const events =
        typeof values.events === "string"
          ? values.events
              .split(",")
              .map((e) => e.trim())
              .filter((e) => e !== "")
          : undefined;
      const created = await createEndpoint(rt, requireString(values, "workspace"), {
        url: requireString(values, "url"),
        ...(events !== undefined && { events }),
        ...(typeof values.description === "string" && { description: values.description }),
        ...(values.paused === true && { status: "paused" as const }),
      });
      if (values.json) {
        const { id, url, events: subscribed, status, secret } = created;
        out(JSON.stringify({ id, url, events: subscribed, status, secret }));
      } else {
        out(`created ${endpointLine(created)}`);
        out(`signing secret: ${created.secret}`);
        out("Store it now: it is shown only this once (rotate-secret gives a new one).");
      }
    },
  },
  {
    name: "webhook list",
    summary: "List a workspace's webhook endpoints.",
    usesStore: true,
    options: { workspace: WORKSPACE_OPTION, json: JSON_OPTION },
    run({ values, context, out }) {
      const endpoints = listEndpoints(context().webhooks, requireString(values, "workspace"));
      if (values.json) out(JSON.stringify(endpoints));
      else if (endpoints.length === 0)
        out("no webhook endpoints: textscan webhook create --workspace ID --url URL");
      else for (const e of endpoints) out(endpointLine(e));
    },
  },
  {
    name: "webhook show",
    summary: "Show one endpoint (its secret is never shown again).",
    args: "ID",
    usesStore: true,
    options: { json: JSON_OPTION },
    run(input) {
      const { rt, workspaceId, id } = forEndpoint(input);
      const endpoint = getEndpoint(rt, workspaceId, id);
      if (input.values.json) input.out(JSON.stringify(endpoint));
      else {
        input.out(endpointLine(endpoint));
        input.out(
          `workspace ${endpoint.workspace_id}, created ${endpoint.created_at}, updated ${endpoint.updated_at}`,
        );
        if (endpoint.previous_secret_expires_at) {
          input.out(`previous secret also signs until ${endpoint.previous_secret_expires_at}`);
        }
      }
    },
  },
  statusCommand("pause"),
  statusCommand("resume"),
  {
    name: "webhook delete",
    summary: "Delete an endpoint with its deliveries and log.",
    args: "ID",
    usesStore: true,
    options: { json: JSON_OPTION },
    run(input) {
      const { rt, workspaceId, id } = forEndpoint(input);
      const deleted = deleteEndpoint(rt, workspaceId, id);
      input.out(input.values.json ? JSON.stringify(deleted) : `deleted ${id}`);
    },
  },
  {
    name: "webhook test",
    summary: "Send a webhook.test event to an endpoint now (even paused) and print the outcome.",
    args: "ID",
    usesStore: true,
    options: { json: JSON_OPTION },
    async run(input) {
      const { rt, workspaceId, id } = forEndpoint(input);
      await deliverAndReport(rt, workspaceId, sendTestEvent(rt, workspaceId, id), input);
    },
  },
  {
    name: "webhook rotate-secret",
    summary: "Give an endpoint a new signing secret; the previous one keeps signing for 24 hours.",
    args: "ID",
    usesStore: true,
    options: { json: JSON_OPTION },
    run(input) {
      const { rt, workspaceId, id } = forEndpoint(input);
      const rotated = rotateSecret(rt, workspaceId, id);
      if (input.values.json) input.out(JSON.stringify(rotated));
      else {
        input.out(`new signing secret for ${id}: ${rotated.secret}`);
        input.out(`the previous secret also signs until ${rotated.previous_secret_expires_at}`);
      }
    },
  },
  {
    name: "webhook deliveries",
    summary: "An endpoint's deliveries, newest first, with their attempt log.",
    args: "ID",
    usesStore: true,
    options: {
      limit: { type: "string", description: "How many (1-100, default 20).", valueName: "N" },
      status: { type: "string", description: "Only pending, succeeded or failed.", valueName: "S" },
      json: JSON_OPTION,
    },
    run(input) {
      const { rt, workspaceId, id } = forEndpoint(input);
      const limit = optionalInteger(input.values, "limit");
      const status = input.values.status;
      if (status !== undefined && status !== "pending" && status !== "succeeded" && status !== "failed") {
        throw new UsageError("--status must be pending, succeeded or failed");
      }
      const page = listDeliveries(rt, workspaceId, id, {
        ...(limit !== undefined && { limit }),
        ...(status !== undefined && { status }),
      });
      if (input.values.json) {
        input.out(JSON.stringify(page));
        return;
      }
      if (page.data.length === 0) input.out("no deliveries yet");
      for (const delivery of page.data) {
        input.out(attemptLine(delivery));
        for (const a of delivery.log) {
          input.out(
            `    #${a.attempt} ${a.id} ${a.started_at} ${a.outcome}${a.status_code !== null ? ` HTTP ${a.status_code}` : ""}${a.duration_ms !== null ? ` ${a.duration_ms} ms` : ""}${a.error ? ` ${a.error}` : ""}`,
          );
        }
      }
      if (page.has_more) input.out(`(more: --limit up to 100, or the API's starting_after)`);
    },
  },
  {
    name: "webhook retry",
    summary:
      "Send a delivery again now (one more attempt for a failed or succeeded one) and print the outcome.",
    args: "DELIVERY_ID",
    usesStore: true,
    options: { json: JSON_OPTION },
    async run(input) {
      const id = input.positionals[0];
      if (!id) throw new UsageError("a DELIVERY_ID is required (see textscan webhook deliveries)");
      const rt = input.context().webhooks;
      const workspaceId = deliveryWorkspace(rt, id);
      await deliverAndReport(rt, workspaceId, retryDelivery(rt, workspaceId, id), input);
    },
  },
];
