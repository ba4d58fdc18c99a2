import type { Server } from "bun";
import type { ServiceContext } from "./context/index.ts";
import { errorMessage } from "./context/log.ts";
import { loadDetector } from "./detection/index.ts";
import { type Detector, inProcessDetector, workerPoolDetector } from "./detector/index.ts";
import { ServiceError } from "./errors.ts";
import { createApp } from "./http/app.ts";
import { errorResponse } from "./http/envelope.ts";
import { createGateway, newRequestId } from "./http/gateway.ts";
import { type Readiness, readinessOf } from "./http/routes/health.ts";
import { routeTable } from "./http/routes-table.ts";
import {
  type Instance,
  registerInstance,
  releaseDeadInstances,
  renewInstance,
  retireInstance,
} from "./instances/index.ts";
import { startWorkers } from "./jobs/index.ts";
import { checkThreads, plagiarismCheck } from "./jobs/plagiarism.ts";
import { createKeyVerifier } from "./keys/index.ts";
import { RateLimiter } from "./ratelimit/index.ts";
import { coreTasks, startScheduler } from "./scheduler/index.ts";
import type { Store } from "./store/db.ts";
import { startDispatcher, webhookTasks } from "./webhooks/index.ts";

export interface Service {
  ctx: ServiceContext;
  /** Shorthand for `ctx.store`. */
  store: Store;
  /** This process as the holder of idempotency claims. */
  instance: Instance;
  /** Handles one request exactly as the network server would; tests call it without a socket. */
  fetch: (request: Request) => Promise<Response>;
  stop(): Promise<void>;
}

export interface ServiceOptions {
  detector?: Detector;
  /** Whether the detector has loaded its model (GET /readyz); default: ready. */
  detectorReady?: () => boolean;
}

/** Builds the request pipeline over a service context, without listening or background work. */
export function createService(ctx: ServiceContext, options: ServiceOptions = {}): Service {
  const detector = options.detector ?? inProcessDetector();
  const instance = registerInstance(ctx.db, ctx.clock, ctx.config.instanceLeaseMs);
  const readiness: Readiness = readinessOf(ctx, options.detectorReady ?? (() => true));
  const app = createApp(ctx, detector, readiness);
  const fetch = createGateway({
    ctx,
    verifyKey: createKeyVerifier(ctx.db),
    rateLimiter: new RateLimiter(ctx.clock),
    instance,
    routes: routeTable(app.routes),
    route: (request) => app.handle(request),
  });
  return {
    ctx,
    store: ctx.store,
    instance,
    fetch,
    stop: async () => {
      detector.close();
      retireInstance(ctx.db, instance);
      ctx.store.close();
    },
  };
}

export interface RunningServer extends Service {
  server: Server<undefined>;
  url: string;
}

/** Why `serve` could not start: printed as one line, exit status 1. */
export class StartError extends Error {
  override name = "StartError";
}

/**
 * `textscan serve`: loads the model, listens, and starts the background work over the context built by the
 * caller (the composition root in src/cli/serve.ts).
 */
export async function startServer(ctx: ServiceContext): Promise<RunningServer> {
  const { config, logger } = ctx;
  const loadStarted = performance.now();
  loadDetector();
  const loadMs = performance.now() - loadStarted;
  let detectorReady = false;
  const detector = workerPoolDetector(config.detectThreads ?? undefined);
  const service = createService(ctx, { detector, detectorReady: () => detectorReady });
  let server: Server<undefined>;
  try {
    server = Bun.serve({
      hostname: config.host,
      port: config.port,
      // Far above the app's own limit: the gateway answers oversized bodies in the envelope, reading no more
      // than its limit, so Bun's bare 413 never reaches a client.
      maxRequestBodySize: Number.MAX_SAFE_INTEGER,
      fetch: service.fetch,
      // Last resort: the gateway already turns every failure into the envelope; this only runs if it threw.
      error: (error) => {
        const requestId = newRequestId();
        logger.error("request.error", { request_id: requestId, error: errorMessage(error) });
        return errorResponse(new ServiceError("server_error"), requestId);
      },
    });
  } catch (error) {
    await service.stop();
    const code = (error as NodeJS.ErrnoException).code;
    throw new StartError(
      code === "EADDRINUSE"
        ? `cannot listen on ${config.host}:${config.port}: the port is in use (choose another with --port or TEXTSCAN_PORT)`
        : `cannot listen on ${config.host}:${config.port}: ${errorMessage(error)} (check --host/--port, TEXTSCAN_HOST/TEXTSCAN_PORT)`,
    );
  }
  // Warm every detection thread once: /readyz says ready only when the model answers on them.
  void detector
    .score("The model is warming up before the first request. ".repeat(8), { sentences: false })
    .then(() => {
      detectorReady = true;
    })
    .catch((error) => logger.error("detection.warmup_failed", { error: errorMessage(error) }));
  const scheduler = startScheduler([...coreTasks(ctx), ...webhookTasks(ctx.webhooks)], (task, error) =>
    logger.error("scheduler.task_failed", { task, error: errorMessage(error) }),
  );
  const dispatcher = startDispatcher(ctx.webhooks);
  const threads = config.workers > 0 ? checkThreads(ctx.store.dataDir, config.workers) : null;
  const jobs = startWorkers(
    {
      db: ctx.db,
      clock: ctx.clock,
      run: plagiarismCheck(ctx, threads ? { align: threads.align } : {}),
      leaseMs: config.jobLeaseMs,
      outbox: ctx.wake.outbox,
      logger,
    },
    config.workers,
    ctx.wake.jobs,
  );
  // The instance's heartbeat, and the sweep that frees claims of instances that stopped beating.
  const heartbeat = setInterval(
    () => {
      try {
        renewInstance(ctx.db, ctx.clock, service.instance);
        const freed = releaseDeadInstances(ctx.db, ctx.clock(), service.instance.id);
        if (freed > 0) logger.warn("idempotency.claims_freed", { claims: freed });
      } catch (error) {
        logger.error("instance.heartbeat_failed", { error: errorMessage(error) });
      }
    },
    Math.max(250, Math.floor(config.instanceLeaseMs / 3)),
  );
  heartbeat.unref();
  const url = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${server.port}`;
  logger.info("server.started", {
    version: VERSION,
    address: url,
    data_dir: ctx.store.dataDir,
    model_load_ms: Math.round(loadMs),
    workers: config.workers,
    settings: Object.entries(config.changed)
      .map(([name, value]) => `${name}=${value}`)
      .join(" "),
  });
  return {
    ...service,
    server,
    url,
    stop: async () => {
      clearInterval(heartbeat);
      scheduler.stop();
      await server.stop();
      await jobs.stop();
      threads?.close();
      await dispatcher.stop();
      await service.stop();
    },
  };
}

export const VERSION = "0.1.0";
