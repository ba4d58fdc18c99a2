import { afterEach, expect } from "bun:test";
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Server } from "bun";
import { configureWebhooks } from "../../src/context/index.ts";
import type { DetectionResult } from "../../src/detection/index.ts";
import type { Detector } from "../../src/detector/index.ts";
import { parseCidrList } from "../../src/webhooks/cidr.ts";
import {
  createDispatcher,
  type Dispatcher,
  type WebhookRuntime,
  type WebhookSettings,
} from "../../src/webhooks/index.ts";
import type { Resolver } from "../../src/webhooks/url-guard.ts";
import { essay, type JsonBody, json, type TestApp, type TestWorkspace, testApp } from "../support/harness.ts";

/** Loopback receivers are refused by default; the tests open 127.0.0.0/8 through the runtime, not process.env. */
export const LOOPBACK = parseCidrList("127.0.0.0/8,::1/128", "test");

export interface Received {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  /** The injected clock's time when the request arrived. */
  at: number;
}

export type Behaviour = (request: Request, index: number) => Response | Promise<Response>;

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Changes how the next requests are answered. */
  behave(behaviour: Behaviour): void;
  /** Resolves once `count` requests arrived (real time: HTTP is real), or rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  stop(): void;
}

/** A real HTTP receiver on 127.0.0.1, port 0. Records every request exactly as received (raw body text). */
export function startReceiver(
  behaviour: Behaviour = () => new Response("ok"),
  clock: () => number = Date.now,
  port = 0,
): Receiver {
  let current = behaviour;
  const received: Received[] = [];
  const server: Server<undefined> = Bun.serve({
    hostname: "127.0.0.1",
    port,
    idleTimeout: 60,
    async fetch(request) {
      const body = await request.text();
      const index = received.length;
      received.push({
        method: request.method,
        path: new URL(request.url).pathname,
        headers: Object.fromEntries(request.headers),
        body,
        at: clock(),
      });
      return current(request, index);
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/hooks/textscan`,
    port: server.port ?? 0,
    received,
    behave(next) {
      current = next;
    },
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`receiver got ${received.length} of ${count} requests`);
        await Bun.sleep(5);
      }
    },
    stop() {
      server.stop(true);
    },
  };
}

/** A port nothing listens on: a server is started to get a free port, then stopped. */
export function deadPort(): number {
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = server.port ?? 0;
  server.stop(true);
  return port;
}

/**
 * Spec 6.3 verification written independently of the service (node:crypto only): HMAC-SHA256 keyed with the
 * secret over `<t>.<raw body>`, compared in constant time with every `v1`, timestamp within five minutes.
 */
export function verifySignature(
  header: string | undefined,
  rawBody: string,
  secret: string,
  nowSeconds: number,
): boolean {
  if (!header) return false;
  const parts = header.split(",").map((part) => part.split("=", 2) as [string, string]);
  const t = Number(parts.find(([k]) => k === "t")?.[1]);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > 300) return false;
  const expected = Buffer.from(createHmac("sha256", secret).update(`${t}.${rawBody}`).digest("hex"));
  return parts
    .filter(([k]) => k === "v1")
    .some(([, v]) => v.length === expected.length && timingSafeEqual(Buffer.from(v), expected));
}

export const signaturesIn = (header: string | undefined) =>
  (header ?? "").split(",").filter((part) => part.startsWith("v1=")).length;

/** A clock the test moves by hand. It starts ahead of the wall clock, so rows the scan path stamps with the real
 * time are already due when the dispatcher looks. */
export class ManualClock {
  now = Date.now() + 5_000;
  readonly read = () => this.now;
  advance(ms: number): void {
    this.now += ms;
  }
}

export interface WebhookTestApp {
  app: TestApp;
  rt: WebhookRuntime;
  clock: ManualClock;
  dispatcher: Dispatcher;
  ws: TestWorkspace;
  /** Creates an endpoint through the API; returns its JSON (with the secret). */
  endpoint(body: Record<string, unknown>, key?: string): Promise<EndpointJson>;
  close(): Promise<void>;
}

export interface EndpointJson {
  id: string;
  url: string;
  events: string[];
  status: string;
  secret: string;
  [field: string]: unknown;
}

/**
 * Scores every text the same: these tests are about what happens after a scan commits, so they do not depend on
 * the detection engine (its own tests cover it). The scan, its charge and its event are written for real.
 */
export const fixedDetector: Detector = {
  score: async (text, options): Promise<DetectionResult> => {
    const words = text.split(/\s+/).filter((w) => w !== "").length;
    return {
      human_score: 71,
      verdict: "human",
      ai_probability: 0.29,
      word_count: words,
      sentence_count: 1,
      readability: 60,
      language: "en",
      ...(options.sentences !== false && {
        sentences: [{ text, ai_probability: 0.29, verdict: "human" as const, start: 0, end: text.length }],
      }),
      model_version: "fixed-test",
    };
  },
  close: () => {},
};

/** The service without background work, a workspace with credits, and a dispatcher the test steps itself. */
export function webhookTestApp(
  options: { settings?: Partial<WebhookSettings>; resolve?: Resolver } = {},
): WebhookTestApp {
  const app = testApp({ detector: fixedDetector });
  const clock = new ManualClock();
  const rt = configureWebhooks(app.ctx, {
    clock: clock.read,
    settings: { allowNetworks: LOOPBACK, ...options.settings },
    ...(options.resolve && { resolve: options.resolve }),
  });
  const ws = app.workspace({ credits: 1_000_000 });
  return {
    app,
    rt,
    clock,
    dispatcher: createDispatcher(rt),
    ws,
    async endpoint(body, key = ws.key) {
      const res = await app.request("POST", "/api/v1/webhook_endpoints", { key, body });
      if (res.status !== 201) throw new Error(`endpoint not created: ${res.status} ${await res.text()}`);
      return (await res.json()) as EndpointJson;
    },
    close: () => app.close(),
  };
}

export const seconds = (ms: number) => Math.floor(ms / 1000);

/**
 * Per-test cleanups, run newest first after each test: the webhook test files that start an app and a
 * receiver per test share this instead of each carrying the same `afterEach`.
 */
export function cleanupsAfterEach(): (() => unknown)[] {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return cleanups;
}

/** A webhook test app and a real local receiver on its clock, both stopped by `cleanups` after the test. */
export function appWithReceiver(
  cleanups: (() => unknown)[],
  options: Parameters<typeof webhookTestApp>[0] = {},
  behaviour?: Parameters<typeof startReceiver>[0],
) {
  const t = webhookTestApp(options);
  const receiver = startReceiver(behaviour, t.clock.read);
  cleanups.push(
    () => t.close(),
    () => receiver.stop(),
  );
  return { t, receiver };
}

/** Creates one completed detect scan (so one scan.completed event) in the test app's workspace. */
export async function detectScan(t: WebhookTestApp, words: number): Promise<JsonBody> {
  const res = await t.app.request("POST", "/api/v1/detect", { key: t.ws.key, body: { text: essay(words) } });
  expect(res.status).toBe(200);
  return json(res);
}
