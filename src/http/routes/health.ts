import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import type { ServiceContext } from "../../context/index.ts";
import { errorMessage } from "../../context/log.ts";
import { pendingMigrations } from "../../store/migrate.ts";

export interface ReadinessReport {
  ready: boolean;
  checks: { store: string; migrations: string; detector: string };
}
export type Readiness = () => ReadinessReport;

/** What GET /readyz checks: the store answers, its migrations are applied, the detector has loaded its model. */
export function readinessOf(ctx: ServiceContext, detectorReady: () => boolean): Readiness {
  return () => {
    const checks = { store: "ok", migrations: "ok", detector: "ok" };
    try {
      ctx.store.sqlite.query("SELECT 1").get();
      const pending = pendingMigrations(ctx.store.sqlite);
      if (pending > 0) checks.migrations = `${pending} migration(s) not applied`;
    } catch (error) {
      checks.store = `the store does not answer: ${errorMessage(error)}`;
      checks.migrations = "unknown";
    }
    if (!detectorReady()) checks.detector = "the detection model is still loading";
    return { ready: Object.values(checks).every((check) => check === "ok"), checks };
  };
}

const Liveness = Type.Object({ status: Type.Literal("ok") }, { $id: "Liveness" });
const ReadinessBody = Type.Object(
  {
    status: Type.Union([Type.Literal("ready"), Type.Literal("not_ready")]),
    checks: Type.Object({
      store: Type.String({ description: "'ok', or why the store does not answer." }),
      migrations: Type.String({ description: "'ok', or how many migrations are not applied." }),
      detector: Type.String({ description: "'ok', or that the detection model is still loading." }),
    }),
  },
  { $id: "Readiness" },
);

/**
 * Probes for load balancers and supervisors, outside /api/v1 and without a key (they reveal nothing about any
 * workspace). Liveness answers while the process serves; readiness only when requests can succeed.
 */
export const healthRoutes = (readiness: Readiness) =>
  new Elysia({ name: "routes.health" })
    .get("/healthz", () => ({ status: "ok" as const }), {
      response: { 200: Liveness },
      detail: {
        tags: ["Health"],
        summary: "Liveness",
        description: "200 while the process serves requests. No key needed.",
        security: [],
      },
    })
    .get(
      "/readyz",
      ({ set }) => {
        const report = readiness();
        set.status = report.ready ? 200 : 503;
        return { status: report.ready ? ("ready" as const) : ("not_ready" as const), checks: report.checks };
      },
      {
        response: { 200: ReadinessBody, 503: ReadinessBody },
        detail: {
          tags: ["Health"],
          summary: "Readiness",
          description:
            "200 when the store answers, its migrations are applied and the detection model is loaded; 503 with " +
            "the reason otherwise. No key needed.",
          security: [],
        },
      },
    );
