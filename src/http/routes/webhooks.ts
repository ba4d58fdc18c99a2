import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import type { ServiceContext } from "../../context/index.ts";
import type { ErrorCode } from "../../errors.ts";
import { writeTransaction } from "../../store/db.ts";
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listDeliveries,
  listEndpoints,
  retryDelivery,
  rotateSecret,
  SUBSCRIBABLE_EVENTS,
  sendTestEvent,
  updateEndpoint,
} from "../../webhooks/index.ts";
import { principalOf } from "../context.ts";
import { committedResponse } from "../idempotent-response.ts";
import { registerOperationErrors } from "../openapi.ts";

const POST_ERRORS: ErrorCode[] = [
  "invalid_idempotency_key",
  "idempotency_key_reused",
  "request_in_progress",
  "body_too_large",
];
registerOperationErrors("post /api/v1/webhook_endpoints", ["invalid_body", ...POST_ERRORS]);
registerOperationErrors("get /api/v1/webhook_endpoints", []);
registerOperationErrors("get /api/v1/webhook_endpoints/{id}", ["not_found"]);
registerOperationErrors("patch /api/v1/webhook_endpoints/{id}", [
  "not_found",
  "invalid_body",
  "body_too_large",
]);
registerOperationErrors("delete /api/v1/webhook_endpoints/{id}", ["not_found"]);
registerOperationErrors("post /api/v1/webhook_endpoints/{id}/test", ["not_found", ...POST_ERRORS]);
registerOperationErrors("post /api/v1/webhook_endpoints/{id}/rotate_secret", ["not_found", ...POST_ERRORS]);
registerOperationErrors("get /api/v1/webhook_endpoints/{id}/deliveries", ["not_found", "invalid_body"]);
registerOperationErrors("post /api/v1/webhook_deliveries/{id}/retry", ["not_found", ...POST_ERRORS]);

// Checked by the service (one rule for the API and the CLI), so a wrong type gets a message naming the right ones.
const EventType = Type.String({
  description: `One of ${SUBSCRIBABLE_EVENTS.join(", ")}.`,
  examples: [...SUBSCRIBABLE_EVENTS],
});
const Status = Type.Union([Type.Literal("active"), Type.Literal("paused")]);
const Url = Type.String({
  description: "http(s) URL; private, loopback and metadata destinations are refused.",
  maxLength: 2048,
});
const Description = Type.Union([Type.String({ maxLength: 200 }), Type.Null()]);

const CreateEndpointBody = Type.Object({
  url: Url,
  events: Type.Optional(
    Type.Array(EventType, { minItems: 1, description: "Default: scan.completed and scan.failed." }),
  ),
  description: Type.Optional(Description),
  status: Type.Optional(Status),
});

const UpdateEndpointBody = Type.Object({
  url: Type.Optional(Url),
  events: Type.Optional(Type.Array(EventType, { minItems: 1 })),
  description: Type.Optional(Description),
  status: Type.Optional(
    Type.Union([Type.Literal("active"), Type.Literal("paused")], {
      description: "`paused` holds deliveries (none is dropped); `active` releases them.",
    }),
  ),
});

const endpointFields = {
  id: Type.String({ pattern: "^we_[0-9a-f]{32}$" }),
  object: Type.Literal("webhook_endpoint"),
  workspace_id: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  status: Status,
  description: Type.Union([Type.String(), Type.Null()]),
  previous_secret_expires_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()], {
    description: "Until then the previous secret signs too (a second `v1`).",
  }),
  created_at: Type.String({ format: "date-time" }),
  updated_at: Type.String({ format: "date-time" }),
};

const WebhookEndpoint = Type.Object(endpointFields, { $id: "WebhookEndpoint" });
const WebhookEndpointWithSecret = Type.Object(
  { ...endpointFields, secret: Type.String({ pattern: "^whsec_", description: "Shown only here, once." }) },
  { $id: "WebhookEndpointWithSecret" },
);

const Attempt = Type.Object({
  id: Type.String({ description: "The Service-Delivery header of this attempt." }),
  attempt: Type.Integer(),
  outcome: Type.Union([
    Type.Literal("in_flight"),
    Type.Literal("succeeded"),
    Type.Literal("failed"),
    Type.Literal("interrupted"),
  ]),
  started_at: Type.String({ format: "date-time" }),
  duration_ms: Type.Union([Type.Integer(), Type.Null()]),
  status_code: Type.Union([Type.Integer(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  response_excerpt: Type.Union([Type.String(), Type.Null()], { description: "First bytes of the reply." }),
});

const WebhookDelivery = Type.Object(
  {
    id: Type.String({ pattern: "^whd_[0-9a-f]{32}$" }),
    object: Type.Literal("webhook_delivery"),
    endpoint_id: Type.String(),
    event_id: Type.String(),
    event_type: Type.String(),
    status: Type.Union([Type.Literal("pending"), Type.Literal("succeeded"), Type.Literal("failed")]),
    attempts: Type.Integer(),
    max_attempts: Type.Integer(),
    next_attempt_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
    last_attempt_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
    last_status_code: Type.Union([Type.Integer(), Type.Null()]),
    last_error: Type.Union([Type.String(), Type.Null()]),
    created_at: Type.String({ format: "date-time" }),
    updated_at: Type.String({ format: "date-time" }),
    log: Type.Array(Attempt),
  },
  { $id: "WebhookDelivery" },
);

const IdParams = Type.Object({ id: Type.String() });
const DeliveriesQuery = Type.Object({
  // A query string carries text: the digits are checked here, the range (1-100) by the service.
  limit: Type.Optional(Type.String({ pattern: "^[0-9]{1,6}$", description: "1-100, default 20." })),
  status: Type.Optional(
    Type.Union([Type.Literal("pending"), Type.Literal("succeeded"), Type.Literal("failed")]),
  ),
  starting_after: Type.Optional(Type.String({ description: "A delivery id: the page after it." })),
});

const TAGS = ["Webhooks"];

/** Webhook endpoint management and the delivery log (spec 6; added endpoints within v1). */
export const webhookRoutes = (ctx: ServiceContext) => {
  // Read at each request: tests may replace the context's runtime (configureWebhooks) after the app is built.
  const rt = () => ctx.webhooks;
  const workspaceOf = (request: Request) => principalOf(request).workspaceId;
  return new Elysia({ name: "routes.webhooks" })
    .post(
      "/api/v1/webhook_endpoints",
      async ({ body, request }) => {
        const response = committedResponse(request, 201);
        await createEndpoint(rt(), workspaceOf(request), body, (created) => response.record(ctx.db, created));
        return response.respond();
      },
      {
        parse: "json",
        body: CreateEndpointBody,
        response: { 201: WebhookEndpointWithSecret },
        detail: {
          tags: TAGS,
          summary: "Create a webhook endpoint",
          description:
            "Registers a URL for scan events. The response carries the signing secret (`whsec_...`), shown only " +
            "here and at rotation. Destinations that resolve to loopback, private, link-local or metadata " +
            "addresses are refused (`invalid_body`, issue at `/url`).",
        },
      },
    )
    .get(
      "/api/v1/webhook_endpoints",
      ({ request }) => ({
        object: "list" as const,
        data: listEndpoints(rt(), workspaceOf(request)),
        has_more: false,
      }),
      {
        response: {
          200: Type.Object({
            object: Type.Literal("list"),
            data: Type.Array(WebhookEndpoint),
            has_more: Type.Boolean(),
          }),
        },
        detail: {
          tags: TAGS,
          summary: "List webhook endpoints",
          description: "All endpoints of the workspace (at most 20).",
        },
      },
    )
    .get(
      "/api/v1/webhook_endpoints/:id",
      ({ params, request }) => getEndpoint(rt(), workspaceOf(request), params.id),
      {
        params: IdParams,
        response: { 200: WebhookEndpoint },
        detail: {
          tags: TAGS,
          summary: "Retrieve a webhook endpoint",
          description: "The secret is not shown (rotate to get a new one).",
        },
      },
    )
    .patch(
      "/api/v1/webhook_endpoints/:id",
      ({ params, body, request }) => updateEndpoint(rt(), workspaceOf(request), params.id, body),
      {
        parse: "json",
        params: IdParams,
        body: UpdateEndpointBody,
        response: { 200: WebhookEndpoint },
        detail: {
          tags: TAGS,
          summary: "Update a webhook endpoint",
          description:
            "Changes URL, events, description or status. Pausing holds new and pending deliveries; resuming " +
            "sends them. Nothing is dropped while paused.",
        },
      },
    )
    .delete(
      "/api/v1/webhook_endpoints/:id",
      ({ params, request }) => deleteEndpoint(rt(), workspaceOf(request), params.id),
      {
        params: IdParams,
        response: {
          200: Type.Object({
            id: Type.String(),
            object: Type.Literal("webhook_endpoint"),
            deleted: Type.Literal(true),
          }),
        },
        detail: {
          tags: TAGS,
          summary: "Delete a webhook endpoint",
          description: "Deletes it with its deliveries and log.",
        },
      },
    )
    .post(
      "/api/v1/webhook_endpoints/:id/test",
      ({ params, request }) => {
        // One transaction for the queued delivery and the stored response (the verb's own joins it).
        const response = committedResponse(request, 202);
        writeTransaction(ctx.db, (tx) =>
          response.record(tx, sendTestEvent(rt(), workspaceOf(request), params.id)),
        );
        return response.respond();
      },
      {
        params: IdParams,
        response: { 202: WebhookDelivery },
        detail: {
          tags: TAGS,
          summary: "Send a test event",
          description:
            'Queues one `webhook.test` event (a sample completed `ai_text` scan with `metadata.test` = "true") ' +
            "to this endpoint: one attempt, no retries, whatever its subscriptions, even when paused. Follow " +
            "its outcome in the deliveries list.",
        },
      },
    )
    .post(
      "/api/v1/webhook_endpoints/:id/rotate_secret",
      ({ params, request }) => {
        const response = committedResponse(request, 200);
        writeTransaction(ctx.db, (tx) =>
          response.record(tx, rotateSecret(rt(), workspaceOf(request), params.id)),
        );
        return response.respond();
      },
      {
        params: IdParams,
        response: { 200: WebhookEndpointWithSecret },
        detail: {
          tags: TAGS,
          summary: "Rotate the signing secret",
          description:
            "Returns a new secret. For 24 hours deliveries carry two `v1` signatures, by the new and the previous " +
            "secret, so receivers can switch without a gap.",
        },
      },
    )
    .get(
      "/api/v1/webhook_endpoints/:id/deliveries",
      ({ params, query, request }) =>
        listDeliveries(rt(), workspaceOf(request), params.id, {
          ...(query.limit !== undefined && { limit: Number(query.limit) }),
          ...(query.status !== undefined && { status: query.status }),
          ...(query.starting_after !== undefined && { startingAfter: query.starting_after }),
        }),
      {
        params: IdParams,
        query: DeliveriesQuery,
        response: {
          200: Type.Object({
            object: Type.Literal("list"),
            data: Type.Array(WebhookDelivery),
            has_more: Type.Boolean(),
          }),
        },
        detail: {
          tags: TAGS,
          summary: "List an endpoint's deliveries",
          description:
            "Newest first, each with its attempt log (time, status code, duration, error, first bytes of the reply).",
        },
      },
    )
    .post(
      "/api/v1/webhook_deliveries/:id/retry",
      ({ params, request }) => {
        const response = committedResponse(request, 202);
        writeTransaction(ctx.db, (tx) =>
          response.record(tx, retryDelivery(rt(), workspaceOf(request), params.id)),
        );
        return response.respond();
      },
      {
        params: IdParams,
        response: { 202: WebhookDelivery },
        detail: {
          tags: TAGS,
          summary: "Retry a delivery",
          description:
            "Sends the delivery again now: a pending one is brought forward; a succeeded or failed one gets one " +
            "more attempt (same event id, new Service-Delivery id).",
        },
      },
    );
};
