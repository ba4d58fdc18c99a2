import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import type { ServiceContext } from "../../context/index.ts";
import { createPlagiarismScan, MAX_EXCLUDE_URLS } from "../../scans/plagiarism.ts";
import { principalOf } from "../context.ts";
import { scanResponder } from "../scan-response.ts";
import { Author, FolderId, Metadata, Scan, ScanText, Title } from "../schemas.ts";

export const PlagiarismBody = Type.Object({
  text: ScanText,
  title: Type.Optional(Title),
  author: Type.Optional(Author),
  folder_id: Type.Optional(FolderId),
  exclude_urls: Type.Optional(
    Type.Array(Type.String(), {
      maxItems: MAX_EXCLUDE_URLS,
      description: `Sources to ignore; up to ${MAX_EXCLUDE_URLS} URLs.`,
    }),
  ),
  exclude_quotes: Type.Optional(
    Type.Boolean({ default: true, description: "Skip text inside quotation marks of every common style." }),
  ),
  metadata: Type.Optional(Metadata),
});

export const plagiarismRoutes = (ctx: ServiceContext) =>
  new Elysia({ name: "routes.plagiarism" }).post(
    "/api/v1/plagiarism",
    ({ body, request }) => {
      const principal = principalOf(request);
      const responder = scanResponder(request, 202);
      const outcome = createPlagiarismScan(
        ctx,
        principal.workspaceId,
        {
          text: body.text,
          ...(body.title !== undefined && { title: body.title }),
          ...(body.author !== undefined && { author: body.author }),
          ...(body.folder_id !== undefined && { folderId: body.folder_id }),
          ...(body.exclude_urls !== undefined && { excludeUrls: body.exclude_urls }),
          excludeQuotes: body.exclude_quotes ?? true,
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
      body: PlagiarismBody,
      response: { 202: Scan },
      detail: {
        tags: ["Scans"],
        summary: "Check text for plagiarism",
        description:
          "Compares text with web pages and the workspace library in the background. Answers 202 with a `queued` " +
          "scan; poll GET /api/v1/scans/{id} (every 5 seconds is recommended) or receive a webhook. Costs 2 credits " +
          "per word, charged on acceptance and refunded if the check fails. Plans Advanced and Team only; at most 10 " +
          "checks running per workspace.",
      },
    },
  );
