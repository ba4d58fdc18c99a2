import { Elysia } from "elysia";
import type { ServiceContext } from "../../context/index.ts";
import type { Detector } from "../../detector/index.ts";
import { createAiTextScan } from "../../scans/index.ts";
import { principalOf } from "../context.ts";
import { scanResponder } from "../scan-response.ts";
import { DetectBody, Scan } from "../schemas.ts";

export const detectRoutes = (ctx: ServiceContext, detector: Detector) =>
  new Elysia({ name: "routes.detect" }).post(
    "/api/v1/detect",
    async ({ body, request }) => {
      const principal = principalOf(request);
      const responder = scanResponder(request, 200);
      const outcome = await createAiTextScan(
        ctx,
        detector,
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
        { inTransaction: responder.inTransaction },
      );
      return responder.respond(outcome);
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
