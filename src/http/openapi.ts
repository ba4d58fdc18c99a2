import { toOpenAPISchema } from "@elysiajs/openapi";
import type { AnyElysia } from "elysia";
import { ERROR_CODES, type ErrorCode } from "../errors.ts";
import { AiTextResult, ErrorBody, PlagiarismResult, Scan, Usage } from "./schemas.ts";

/** Codes every authenticated route can answer, whatever it does. */
const AUTHENTICATED_ERRORS: ErrorCode[] = ["unauthorized", "rate_limited", "server_error"];
const POST_ERRORS: ErrorCode[] = [
  "invalid_idempotency_key",
  "idempotency_key_reused",
  "request_in_progress",
  "body_too_large",
];

/**
 * The error codes each operation can answer, by "METHOD /path" as Elysia names it. Routes added by other
 * modules register theirs with `registerOperationErrors`, so the document lists every code a client can meet.
 */
const OPERATION_ERRORS = new Map<string, ErrorCode[]>([
  [
    "post /api/v1/detect",
    ["invalid_body", "too_short", "too_long", "insufficient_credits", "unavailable", ...POST_ERRORS],
  ],
  [
    "post /api/v1/plagiarism",
    ["invalid_body", "too_short", "too_long", "insufficient_credits", "plan_required", ...POST_ERRORS],
  ],
  ["get /api/v1/scans/{id}", ["not_found"]],
  ["get /api/v1/usage", []],
  ["post /api/v1/image", ["not_available", "plan_required", "invalid_image", ...POST_ERRORS]],
]);

/** Operations that spend credits and so carry X-Credits-Remaining on success. */
const CREDIT_OPERATIONS = new Set(["post /api/v1/detect", "post /api/v1/plagiarism"]);

export function registerOperationErrors(operation: string, codes: ErrorCode[], spendsCredits = false): void {
  OPERATION_ERRORS.set(operation, codes);
  if (spendsCredits) CREDIT_OPERATIONS.add(operation);
}

const header = (description: string, type: "string" | "integer" = "integer") => ({
  description,
  schema: { type },
});

const HEADERS = {
  "X-Request-Id": header("Unique id of this request; equals `error.request_id` in error bodies.", "string"),
  "X-RateLimit-Limit": header("Requests allowed per minute for this key."),
  "X-RateLimit-Remaining": header("Requests left in the current minute."),
  "X-RateLimit-Reset": header("Seconds until the count resets."),
  "Retry-After": header("On 429: seconds to wait."),
  "X-Credits-Remaining": header("Workspace balance after the request (POST /detect, POST /plagiarism)."),
  "Idempotent-Replayed": header(
    "`true` when the response replays an earlier request with the same key.",
    "string",
  ),
};

const ref = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });

type Json = Record<string, unknown>;

export function buildOpenApiDocument(api: AnyElysia): Json {
  const generated = toOpenAPISchema(api, undefined, undefined, undefined, "3.1.0") as unknown as {
    paths: Record<string, Record<string, Json>>;
    components: Json;
  };
  const paths: Record<string, Record<string, Json>> = {};
  const named = new Map<string, Json>();
  for (const [path, operations] of Object.entries(generated.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const key = `${method} ${path}`;
      paths[path] ??= {};
      paths[path][method] = useComponentRefs(decorateOperation(key, method, operation), named);
    }
  }
  paths["/api/v1/openapi.json"] = {
    get: {
      tags: ["Meta"],
      summary: "This OpenAPI 3.1 description",
      operationId: "getOpenApi",
      security: [],
      responses: {
        "200": {
          description: "The OpenAPI document.",
          headers: { "X-Request-Id": ref("X-Request-Id") },
          content: { "application/json": { schema: { type: "object" } } },
        },
      },
    },
  };
  return {
    openapi: "3.1.0",
    info: {
      title: "textscan API",
      version: "1.0.0",
      description:
        "AI-text detection, plagiarism checks, usage and webhooks. Every request except this document needs " +
        "`Authorization: Bearer svc_live_...`. Errors use one envelope (see the `Error` schema).",
    },
    servers: [{ url: "/", description: "This server" }],
    tags: [
      { name: "Scans", description: "Create and retrieve scans." },
      { name: "Account", description: "Plan, credits and limits." },
      { name: "Documents", description: "The workspace library that plagiarism checks compare with." },
      { name: "Webhooks", description: "Endpoints that receive signed scan events, and their delivery log." },
      { name: "Meta" },
    ],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      ...generated.components,
      schemas: {
        ...Object.fromEntries(named),
        Scan,
        AiTextResult,
        PlagiarismResult,
        Usage,
        Error: ErrorBody,
      },
      headers: HEADERS,
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description: "An API key: `svc_live_` followed by 32 letters and digits.",
        },
      },
    },
  };
}

/** Named wire schemas, shown once under components and referenced from operations. */
const COMPONENT_SCHEMAS = new Set(["Scan", "AiTextResult", "PlagiarismResult", "Usage", "Error"]);

/**
 * Replaces each inlined copy of a named schema by a `$ref` to its component: schemas named by a TypeBox `$id`
 * (collected into `found`), or by a `title` listed above. A `$id` must not appear twice in an OpenAPI 3.1
 * document, and Elysia inlines a route's schemas wherever they are used.
 */
function useComponentRefs<T>(value: T, found: Map<string, Json>): T {
  if (Array.isArray(value)) return value.map((v) => useComponentRefs(v, found)) as T;
  if (value === null || typeof value !== "object") return value;
  const { $id, ...rest } = value as Json;
  if (typeof $id === "string") {
    if (!found.has($id)) found.set($id, useComponentRefs(rest, found));
    return { $ref: `#/components/schemas/${$id}` } as T;
  }
  const title = rest.title;
  if (typeof title === "string" && COMPONENT_SCHEMAS.has(title))
    return { $ref: `#/components/schemas/${title}` } as T;
  return Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, useComponentRefs(v, found)])) as T;
}

function decorateOperation(key: string, method: string, operation: Json): Json {
  const codes = OPERATION_ERRORS.get(key) ?? [];
  const responses = { ...((operation.responses as Record<string, Json> | undefined) ?? {}) };
  const common = {
    "X-Request-Id": ref("X-Request-Id"),
    "X-RateLimit-Limit": ref("X-RateLimit-Limit"),
    "X-RateLimit-Remaining": ref("X-RateLimit-Remaining"),
    "X-RateLimit-Reset": ref("X-RateLimit-Reset"),
  };
  for (const [status, response] of Object.entries(responses)) {
    const headers: Json = { ...common };
    if (CREDIT_OPERATIONS.has(key)) headers["X-Credits-Remaining"] = ref("X-Credits-Remaining");
    if (method === "post") headers["Idempotent-Replayed"] = ref("Idempotent-Replayed");
    responses[status] = { description: "Success.", ...response, headers };
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...codes, ...AUTHENTICATED_ERRORS]) {
    const { status } = ERROR_CODES[code];
    const list = byStatus.get(status) ?? [];
    if (!list.includes(code)) list.push(code);
    byStatus.set(status, list);
  }
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const headers: Json = { ...common };
    if (status === 429) headers["Retry-After"] = ref("Retry-After");
    responses[String(status)] = {
      description: `Error codes: ${list.map((c) => `\`${c}\``).join(", ")}.`,
      headers,
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    };
  }
  const parameters = (operation.parameters as Json[] | undefined) ?? [];
  if (method === "post") {
    parameters.push({
      name: "Idempotency-Key",
      in: "header",
      required: false,
      description:
        "Up to 255 characters. Replays the first 2xx response for 24 hours without charging again.",
      schema: { type: "string", maxLength: 255 },
    });
  }
  return { ...operation, ...(parameters.length > 0 && { parameters }), responses };
}
