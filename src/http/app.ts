import { Elysia, type ValidationError } from "elysia";
import type { ServiceContext } from "../context/index.ts";
import { errorMessage } from "../context/log.ts";
import type { Detector } from "../detector/index.ts";
import { invalidBody, isStoreBusy, ServiceError, storeBusy } from "../errors.ts";
import { maybeContext } from "./context.ts";
import { errorResponse, serverError } from "./envelope.ts";
import { detectRoutes } from "./routes/detect.ts";
import { docsRoutes } from "./routes/docs.ts";
import { documentRoutes } from "./routes/documents.ts";
import { folderRoutes } from "./routes/folders.ts";
import { healthRoutes, type Readiness } from "./routes/health.ts";
import { imageRoutes } from "./routes/image.ts";
import { plagiarismRoutes } from "./routes/plagiarism.ts";
import { scanRoutes } from "./routes/scans.ts";
import { usageRoutes } from "./routes/usage.ts";
import { webhookRoutes } from "./routes/webhooks.ts";

/**
 * The router: Elysia owns routing, body validation and the OpenAPI schemas; everything around it (ids, auth,
 * limits, idempotency) is the gateway's. Every error leaves through `onError` in the spec's envelope.
 */
export function createApp(ctx: ServiceContext, detector: Detector, readiness: Readiness) {
  const api = new Elysia({ name: "api" })
    .onParse(({ request }) => parseJson(request))
    .onError(({ code, error, request }) => {
      const requestId = maybeContext(request)?.requestId ?? "req_unknown";
      return errorResponse(toServiceError(ctx, code, error, request, requestId), requestId);
    })
    .use(detectRoutes(ctx, detector))
    .use(plagiarismRoutes(ctx))
    .use(documentRoutes(ctx))
    .use(scanRoutes(ctx))
    .use(folderRoutes(ctx))
    .use(usageRoutes(ctx.db))
    .use(imageRoutes())
    .use(webhookRoutes(ctx))
    .use(healthRoutes(readiness));
  return api.use(docsRoutes(api));
}

export type App = ReturnType<typeof createApp>;

/**
 * Parses the raw body the gateway read. No body (or one the gateway leaves unread, such as POST /image's) is
 * `null`, never "unparsed", so that Elysia does not try a parser of its own and validation names what is missing.
 */
function parseJson(request: Request): unknown {
  const raw = maybeContext(request)?.rawBody;
  if (raw === undefined || raw.trim() === "") return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new ServiceError("invalid_body", "The body is not valid JSON.", {
      issues: [{ path: "", message: (error as Error).message }],
    });
  }
  checkMetadataShape(parsed);
  return parsed;
}

/** Keys that would change an object's prototype or shadow its methods once stored and read back. */
const RESERVED_KEYS = ["__proto__", "constructor", "prototype"];

/**
 * What the schema cannot see once the framework has normalised the body: an array given as `metadata` (it would
 * be stored as {"0": ...}) and a `__proto__` key (it would be dropped silently). Both are refused in words.
 */
function checkMetadataShape(body: unknown): void {
  if (body === null || typeof body !== "object" || !Object.hasOwn(body, "metadata")) return;
  const metadata = (body as { metadata: unknown }).metadata;
  if (Array.isArray(metadata)) {
    throw invalidBody([{ path: "/metadata", message: "Expected an object of string values, not an array" }]);
  }
  if (metadata === null || typeof metadata !== "object") return;
  const reserved = RESERVED_KEYS.filter((key) => Object.hasOwn(metadata, key));
  if (reserved.length > 0) {
    throw invalidBody(
      reserved.map((key) => ({ path: `/metadata/${key}`, message: `The key '${key}' is reserved` })),
    );
  }
}

function toServiceError(
  ctx: ServiceContext,
  code: string | number,
  error: unknown,
  request: Request,
  requestId: string,
): ServiceError {
  if (error instanceof ServiceError) return error;
  const cause = (error as { cause?: unknown })?.cause;
  if (cause instanceof ServiceError) return cause;
  switch (code) {
    case "VALIDATION":
      return validationError(error as ValidationError);
    case "NOT_FOUND": {
      const { pathname } = new URL(request.url);
      return new ServiceError("not_found", `No endpoint ${request.method} ${pathname}.`);
    }
    case "PARSE":
      return new ServiceError("invalid_body", "The body is not valid JSON.", {
        issues: [{ path: "", message: "malformed JSON" }],
      });
    default:
      if (isStoreBusy(error) || isStoreBusy(cause)) {
        ctx.logger.warn("request.store_busy", { request_id: requestId });
        return storeBusy();
      }
      ctx.logger.error("request.error", {
        request_id: requestId,
        code: String(code),
        error: errorMessage(error),
      });
      return serverError();
  }
}

function validationError(error: ValidationError): ServiceError {
  const issues = error.all.map((issue) => {
    const path = "path" in issue && typeof issue.path === "string" ? issue.path : "";
    const message = "message" in issue && typeof issue.message === "string" ? issue.message : "is not valid";
    return { path, message: humanise(message, issue) };
  });
  if (error.type !== "body") {
    return new ServiceError("invalid_body", `The request ${error.type} is not valid.`, { issues });
  }
  if (issues.length === 0 || (issues.length === 1 && issues[0]?.path === "" && !maybeBody(error))) {
    return new ServiceError("invalid_body", "A JSON body is required.", {
      issues: [{ path: "", message: "Expected a JSON object" }],
    });
  }
  return new ServiceError("invalid_body", "The request body is not valid.", { issues });
}

const maybeBody = (error: ValidationError) => error.value !== undefined && error.value !== null;

/** TypeBox's messages are exact but terse; a few common ones read better with the expected form. */
function humanise(message: string, issue: unknown): string {
  const schema = (issue as { schema?: { pattern?: string } }).schema;
  if (message.startsWith("Expected string to match") && schema?.pattern === "^[A-Za-z]{2}$") {
    return "Expected a two-letter ISO 639-1 language code";
  }
  return message;
}
