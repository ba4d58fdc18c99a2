import { Elysia } from "elysia";
import type { Detector } from "../../detector/index.ts";
import { completeIdempotent } from "../../idempotency/index.ts";
import { createAiTextScan } from "../../scans/index.ts";
import type { Db } from "../../store/db.ts";
import { principalOf, requestContext } from "../context.ts";
import { JSON_CONTENT_TYPE, jsonResponse } from "../envelope.ts";
import { DetectBody, Scan } from "../schemas.ts";

export const detectRoutes = (deps: { db: Db; detector: Detector }) =>
  new Elysia({ name: "routes.detect" }).post(
    "/api/v1/detect",
    async ({ body, request }) => {
      const principal = principalOf(request);
      const { idempotency } = requestContext(request);
      let responseBody = "";
      const outcome = await createAiTextScan(
        deps,
        principal.workspaceId,
        {
          text: body.text,
          ...(body.language !== undefined && { language: body.language.toLowerCase() }),
          ...(body.title !== undefined && { title: body.title }),
          ...(body.author !== undefined && { author: body.author }),
          ...(body.folder_id !== undefined && { folderId: body.folder_id }),
          sentences: body.sentences ?? true,
          metadata: body.metadata ?? {},
          source: "api",
          apiKeyId: principal.apiKeyId,
        },
        {
          // The response is stored for replay in the same transaction as the charge (DESIGN invariant 5).
          inTransaction: (tx, out) => {
            responseBody = JSON.stringify(out.scan);
            if (idempotency) {
              completeIdempotent(tx, idempotency, {
                status: 200,
                headers: { "content-type": JSON_CONTENT_TYPE, "x-credits-remaining": String(out.balance) },
                body: responseBody,
              });
            }
          },
        },
      );
      return jsonResponse(200, responseBody, { "x-credits-remaining": String(outcome.balance) });
    },
    {
      parse: "json",
      body: DetectBody,
      response: { 200: Scan },
      detail: {
        tags: ["Scans"],
        summary: "Detect AI-written text",
        description:
          "Scores text for machine writing and returns a completed `ai_text` scan at once. Costs 1 credit per word, " +
          "charged atomically with the scan. The response carries `X-Credits-Remaining`.",
      },
    },
  );
