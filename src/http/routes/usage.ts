import { Elysia } from "elysia";
import type { Db } from "../../store/db.ts";
import { getWorkspace } from "../../workspaces/index.ts";
import { principalOf, requestContext } from "../context.ts";
import { Usage } from "../schemas.ts";

export const usageRoutes = (db: Db) =>
  new Elysia({ name: "routes.usage" }).get(
    "/api/v1/usage",
    ({ request }) => {
      const workspace = getWorkspace(db, principalOf(request).workspaceId);
      const rate = requestContext(request).rate;
      return {
        object: "usage" as const,
        workspace_id: workspace.id,
        plan: workspace.plan,
        credits: workspace.credits,
        // The same values as this response's X-RateLimit-* headers (spec 2.5): both come from one count.
        rate_limit: { limit: rate?.limit ?? 0, remaining: rate?.remaining ?? 0, reset: rate?.reset ?? 0 },
      };
    },
    {
      response: { 200: Usage },
      detail: {
        tags: ["Account"],
        summary: "Plan, credits and rate-limit state",
        description: "Free. `rate_limit` equals the X-RateLimit-* headers of the same response.",
      },
    },
  );
