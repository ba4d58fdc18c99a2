import { Elysia } from "elysia";
import { getScan } from "../../scans/index.ts";
import type { Db } from "../../store/db.ts";
import { principalOf } from "../context.ts";
import { Scan, ScanIdParams } from "../schemas.ts";

export const scanRoutes = (db: Db) =>
  new Elysia({ name: "routes.scans" }).get(
    "/api/v1/scans/:id",
    ({ params, request }) => getScan(db, principalOf(request).workspaceId, params.id),
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
