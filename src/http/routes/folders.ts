import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import type { ServiceContext } from "../../context/index.ts";
import type { ErrorCode } from "../../errors.ts";
import {
  createFolder,
  deleteFolder,
  FOLDER_NAME_MAX,
  getFolder,
  listFolders,
  renameFolder,
} from "../../folders/index.ts";
import { principalOf } from "../context.ts";
import { committedResponse } from "../idempotent-response.ts";
import { registerOperationErrors } from "../openapi.ts";

const POST_ERRORS: ErrorCode[] = [
  "invalid_idempotency_key",
  "idempotency_key_reused",
  "request_in_progress",
  "body_too_large",
];
registerOperationErrors("post /api/v1/folders", ["invalid_body", ...POST_ERRORS]);
registerOperationErrors("get /api/v1/folders", []);
registerOperationErrors("get /api/v1/folders/{id}", ["not_found"]);
registerOperationErrors("patch /api/v1/folders/{id}", ["not_found", "invalid_body", "body_too_large"]);
registerOperationErrors("delete /api/v1/folders/{id}", ["not_found"]);

const Name = Type.String({
  minLength: 1,
  maxLength: FOLDER_NAME_MAX,
  description: `1 to ${FOLDER_NAME_MAX} characters.`,
});
const FolderBody = Type.Object({ name: Name });
const Folder = Type.Object(
  {
    id: Type.String({ pattern: "^fld_" }),
    object: Type.Literal("folder"),
    name: Type.String(),
    scan_count: Type.Integer(),
    created_at: Type.String({ format: "date-time" }),
  },
  { $id: "Folder" },
);
const IdParams = Type.Object({ id: Type.String() });
const TAGS = ["Folders"];

/** Folders (added endpoints within v1): the dashboard's groups of scans; `folder_id` on scans names one. */
export const folderRoutes = (ctx: ServiceContext) => {
  const workspaceOf = (request: Request) => principalOf(request).workspaceId;
  return new Elysia({ name: "routes.folders" })
    .post(
      "/api/v1/folders",
      ({ body, request }) => {
        const response = committedResponse(request, 201);
        createFolder(ctx, workspaceOf(request), body, (folder) => response.record(ctx.db, folder));
        return response.respond();
      },
      {
        parse: "json",
        body: FolderBody,
        response: { 201: Folder },
        detail: { tags: TAGS, summary: "Create a folder", description: "Free." },
      },
    )
    .get(
      "/api/v1/folders",
      ({ request }) => ({
        object: "list" as const,
        data: listFolders(ctx.db, workspaceOf(request)),
        has_more: false,
      }),
      {
        response: {
          200: Type.Object({
            object: Type.Literal("list"),
            data: Type.Array(Folder),
            has_more: Type.Boolean(),
          }),
        },
        detail: {
          tags: TAGS,
          summary: "List folders",
          description: "Every folder of the workspace, by name.",
        },
      },
    )
    .get("/api/v1/folders/:id", ({ params, request }) => getFolder(ctx.db, workspaceOf(request), params.id), {
      params: IdParams,
      response: { 200: Folder },
      detail: { tags: TAGS, summary: "Retrieve a folder" },
    })
    .patch(
      "/api/v1/folders/:id",
      ({ params, body, request }) => renameFolder(ctx, workspaceOf(request), params.id, body),
      {
        parse: "json",
        params: IdParams,
        body: FolderBody,
        response: { 200: Folder },
        detail: { tags: TAGS, summary: "Rename a folder" },
      },
    )
    .delete(
      "/api/v1/folders/:id",
      ({ params, request }) => deleteFolder(ctx, workspaceOf(request), params.id),
      {
        params: IdParams,
        response: {
          200: Type.Object({
            id: Type.String(),
            object: Type.Literal("folder"),
            deleted: Type.Literal(true),
          }),
        },
        detail: {
          tags: TAGS,
          summary: "Delete a folder",
          description: "Its scans stay and are moved out of any folder.",
        },
      },
    );
};
