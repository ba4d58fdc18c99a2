import { Type } from "@sinclair/typebox";
import { Elysia, t } from "elysia";
import type { ServiceContext } from "../../context/index.ts";
import { invalidBody } from "../../errors.ts";
import { getScan } from "../../scans/index.ts";
import { DEFAULT_SCAN_PAGE, listScans, MAX_SCAN_PAGE } from "../../scans/list.ts";
import { principalOf } from "../context.ts";
import { registerOperationErrors } from "../openapi.ts";
import { Scan, ScanIdParams } from "../schemas.ts";

registerOperationErrors("get /api/v1/scans", ["invalid_body"]);

const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));

const ListScansQuery = Type.Object({
  limit: Type.Optional(
    t.Integer({
      minimum: 1,
      maximum: MAX_SCAN_PAGE,
      description: `1-${MAX_SCAN_PAGE}, default ${DEFAULT_SCAN_PAGE}.`,
    }),
  ),
  starting_after: Type.Optional(
    Type.String({ description: "A scan id from the previous page: the page after it." }),
  ),
  type: Type.Optional(literals(["ai_text", "plagiarism", "ai_image"])),
  status: Type.Optional(literals(["queued", "processing", "completed", "failed"])),
  verdict: Type.Optional(literals(["human", "mixed", "ai"])),
  folder_id: Type.Optional(Type.String()),
  source: Type.Optional(literals(["api", "dashboard", "cli"])),
  created_after: Type.Optional(Type.String({ format: "date-time", description: "Inclusive, ISO 8601." })),
  created_before: Type.Optional(Type.String({ format: "date-time", description: "Exclusive, ISO 8601." })),
  title: Type.Optional(Type.String({ maxLength: 200, description: "Case-insensitive part of the title." })),
});

const ScanList = Type.Object({
  object: Type.Literal("list"),
  data: Type.Array(Scan),
  has_more: Type.Boolean(),
});

const instant = (value: string | undefined, path: string): number | undefined => {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) {
    throw invalidBody(
      [{ path, message: "Expected an ISO 8601 date-time" }],
      "The request query is not valid.",
    );
  }
  return ms;
};

export const scanRoutes = (ctx: ServiceContext) =>
  new Elysia({ name: "routes.scans" })
    .get(
      "/api/v1/scans",
      ({ query, request }) =>
        // Responded as JSON directly: the list is the scans' own objects, already in the Scan shape.
        Response.json(
          listScans(ctx.db, principalOf(request).workspaceId, {
            ...(query.limit !== undefined && { limit: Number(query.limit) }),
            ...(query.starting_after !== undefined && { startingAfter: query.starting_after }),
            ...(query.type !== undefined && { type: query.type }),
            ...(query.status !== undefined && { status: query.status }),
            ...(query.verdict !== undefined && { verdict: query.verdict }),
            ...(query.folder_id !== undefined && { folderId: query.folder_id }),
            ...(query.source !== undefined && { source: query.source }),
            ...(query.created_after !== undefined && {
              createdAfter: instant(query.created_after, "/created_after"),
            }),
            ...(query.created_before !== undefined && {
              createdBefore: instant(query.created_before, "/created_before"),
            }),
            ...(query.title !== undefined && { title: query.title }),
          }),
        ),
      {
        query: ListScansQuery,
        response: { 200: ScanList },
        detail: {
          tags: ["Scans"],
          summary: "List scans",
          description:
            "The workspace's scans from the API, the dashboard and the CLI, newest first. Page with `limit` and " +
            "`starting_after`; filters combine. Free. Added within v1.",
        },
      },
    )
    .get(
      "/api/v1/scans/:id",
      ({ params, request }) => getScan(ctx.db, principalOf(request).workspaceId, params.id),
      {
        params: ScanIdParams,
        response: { 200: Scan },
        detail: {
          tags: ["Scans"],
          summary: "Retrieve a scan",
          description:
            "Returns any scan of the key's workspace, whether created by the API, the dashboard or the CLI. Free.",
        },
      },
    );
