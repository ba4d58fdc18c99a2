import type { Server } from "bun";
import { jobLeaseMs, MAX_BODY_BYTES, type ServeConfig } from "./config.ts";
import { loadSecretKey, secretBox } from "./crypto/secret-box.ts";
import { loadDetector } from "./detection/index.ts";
import { type Detector, inProcessDetector, workerPoolDetector } from "./detector/index.ts";
import { ServiceError } from "./errors.ts";
import { createApp } from "./http/app.ts";
import { errorResponse } from "./http/envelope.ts";
import { createGateway, newRequestId } from "./http/gateway.ts";
import { startWorkers } from "./jobs/index.ts";
import { checkThreads, plagiarismCheck } from "./jobs/plagiarism.ts";
import { createKeyVerifier } from "./keys/index.ts";
import { RateLimiter } from "./ratelimit/index.ts";
import { coreTasks, startScheduler } from "./scheduler/index.ts";
import { openStore, type Store } from "./store/db.ts";
import { type Clock, systemClock } from "./time.ts";
import { startDispatcher, webhookTasks } from "./webhooks/index.ts";

export interface Service {
  store: Store;
  /** Handles one request exactly as the network server would; tests call it without a socket. */
  fetch: (request: Request) => Promise<Response>;
  stop(): Promise<void>;
}

/** Builds the request pipeline over an open store, without listening or background work. */
export function createService(store: Store, options: { clock?: Clock; detector?: Detector } = {}): Service {
  const clock = options.clock ?? systemClock;
  const detector = options.detector ?? inProcessDetector();
  const app = createApp({ store, db: store.db, detector });
  const fetch = createGateway({
    db: store.db,
    verifyKey: createKeyVerifier(store.db),
    rateLimiter: new RateLimiter(clock),
    clock,
    box: secretBox(loadSecretKey(store.dataDir)),
    route: (request) => app.handle(request),
  });
  return {
    store,
    fetch,
    stop: async () => {
      detector.close();
      store.close();
    },
  };
}

export interface RunningServer extends Service {
  server: Server<undefined>;
  url: string;
}

/** `textscan serve`: opens the store, loads the model, listens, and starts the background work. */
export function startServer(config: ServeConfig): RunningServer {
  const store = openStore(config.dataDir);
  const loadStarted = performance.now();
  loadDetector();
  const loadMs = performance.now() - loadStarted;
  const service = createService(store, { detector: workerPoolDetector() });
  const scheduler = startScheduler([...coreTasks(store), ...webhookTasks(store.db)]);
  const dispatcher = startDispatcher(store.db);
  const threads = config.workers > 0 ? checkThreads(store.dataDir, config.workers) : null;
  const jobs = startWorkers(
    {
      db: store.db,
      clock: systemClock,
      run: plagiarismCheck(store, threads ? { align: threads.align } : {}),
      leaseMs: jobLeaseMs(),
    },
    config.workers,
  );
  const server = Bun.serve({
    hostname: config.host,
    port: config.port,
    // Above the app's own limit, so that the app's error envelope answers oversized bodies, not Bun's bare 413.
    maxRequestBodySize: MAX_BODY_BYTES * 4,
    fetch: service.fetch,
    // Last resort: the gateway already turns every failure into the envelope; this only runs if it threw.
    error: (error) => {
      const requestId = newRequestId();
      console.error(`[${requestId}] unhandled server error:`, error);
      return errorResponse(new ServiceError("server_error"), requestId);
    },
  });
  const url = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${server.port}`;
  console.log(`textscan listening on ${url} (data: ${store.path}, model loaded in ${loadMs.toFixed(0)} ms)`);
  return {
    ...service,
    server,
    url,
    stop: async () => {
      scheduler.stop();
      await server.stop();
      await jobs.stop();
      threads?.close();
      await dispatcher.stop();
      await service.stop();
    },
  };
}
