import { afterEach, describe, expect, spyOn, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { configureWebhooks } from "../../src/context/index.ts";
import { KEY_FILE, loadSecretKey, secretBox } from "../../src/crypto/secret-box.ts";
import { recordEvent } from "../../src/events/outbox.ts";
import { writeTransaction } from "../../src/store/db.ts";
import {
  createDispatcher,
  DEFAULT_RETRY_SCHEDULE_S,
  DEFAULT_TIMEOUT_MS,
  pruneWebhookLog,
  webhookSettingsFromEnv,
} from "../../src/webhooks/index.ts";
import { json } from "../support/harness.ts";
import { LOOPBACK, startReceiver, webhookTestApp } from "./support.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const DAY = 24 * 3_600_000;

describe("delivery log pruning", () => {
  test("attempts, finished deliveries and their events older than the retention age go; pending deliveries stay", async () => {
    const t = webhookTestApp({ settings: { logRetentionMs: DAY, retryScheduleS: [] } });
    const receiver = startReceiver((request) =>
      request.headers.get("service-event") === "scan.failed"
        ? new Response(null, { status: 500 })
        : new Response("ok"),
    );
    cleanups.push(
      () => t.close(),
      () => receiver.stop(),
    );
    const active = await t.endpoint({ url: receiver.url });
    const paused = await t.endpoint({ url: receiver.url, status: "paused" });
    const record = (type: "scan.completed" | "scan.failed") =>
      writeTransaction(t.app.service.store.db, (tx) =>
        recordEvent(tx, { workspaceId: t.ws.workspace.id, type, data: {}, now: t.clock.now }),
      );
    record("scan.completed"); // succeeds at once (active), held (paused)
    record("scan.failed"); // fails for good at once (active), held (paused)
    await t.dispatcher.runDue();
    t.clock.advance(2 * DAY);
    record("scan.completed"); // recent: kept
    await t.dispatcher.runDue();

    const pruned = pruneWebhookLog(t.rt);
    expect(pruned).toEqual({ attempts: 2, deliveries: 2, events: 0 });
    const list = async (id: string) =>
      (await json(t.app.request("GET", `/api/v1/webhook_endpoints/${id}/deliveries`, { key: t.ws.key })))
        .data;
    const left = await list(active.id);
    expect(left).toHaveLength(1);
    expect(left[0].log).toHaveLength(1);
    const held = await list(paused.id);
    expect(held).toHaveLength(3);
    expect(held.every((d: { status: string }) => d.status === "pending")).toBe(true);

    // Once the held deliveries are gone too (the endpoint is deleted), their old events are pruned.
    await t.app.request("DELETE", `/api/v1/webhook_endpoints/${paused.id}`, { key: t.ws.key });
    expect(pruneWebhookLog(t.rt)).toEqual({ attempts: 0, deliveries: 0, events: 2 });
  });
});

describe("signing secrets at rest and in logs", () => {
  test("the store holds only sealed secrets; the key file is created with mode 0600", async () => {
    const t = webhookTestApp();
    cleanups.push(() => t.close());
    const endpoint = await t.endpoint({ url: "http://127.0.0.1:9/" });
    await t.app.request("POST", `/api/v1/webhook_endpoints/${endpoint.id}/rotate_secret`, { key: t.ws.key });
    t.app.service.store.sqlite.run("PRAGMA wal_checkpoint(TRUNCATE)");
    const bytes = readFileSync(t.app.service.store.path);
    expect(bytes.includes(Buffer.from(endpoint.secret))).toBe(false);
    expect(bytes.includes(Buffer.from("whsec_"))).toBe(false);
    const keyFile = join(t.app.dataDir, KEY_FILE);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
  });

  test("with TEXTSCAN_SECRET_KEY no key file is needed; a different key cannot open the secrets, and says so without leaking them", async () => {
    const t = webhookTestApp();
    cleanups.push(() => t.close());
    const keyed = configureWebhooks(t.app.ctx, {
      clock: t.clock.read,
      settings: { allowNetworks: LOOPBACK },
      secrets: secretBox(loadSecretKey(t.app.dataDir, "a-long-operator-passphrase-0123456789")),
    });
    const receiver = startReceiver();
    cleanups.push(() => receiver.stop());
    const endpoint = await t.endpoint({ url: receiver.url });
    expect(() => loadConfig({ TEXTSCAN_SECRET_KEY: "short" })).toThrow("at least 32");

    const logged: string[] = [];
    const spies = (["log", "error", "warn", "info", "debug"] as const).map((level) =>
      spyOn(console, level).mockImplementation((...args: unknown[]) => {
        logged.push(args.map(String).join(" "));
      }),
    );
    try {
      const wrongKey = configureWebhooks(t.app.ctx, {
        clock: t.clock.read,
        settings: { allowNetworks: LOOPBACK },
        secrets: secretBox(loadSecretKey(t.app.dataDir, "another-long-passphrase-9876543210-xyz")),
      });
      await t.app.request("POST", `/api/v1/webhook_endpoints/${endpoint.id}/test`, { key: t.ws.key });
      expect(await createDispatcher(wrongKey).runDue()).toBe(1);
      expect(receiver.received).toHaveLength(0);
      const [delivery] = (
        await json(
          t.app.request("GET", `/api/v1/webhook_endpoints/${endpoint.id}/deliveries`, { key: t.ws.key }),
        )
      ).data;
      expect(delivery.last_error).toContain("could not be decrypted");
      // The right key works again.
      configureWebhooks(t.app.ctx, keyed);
      await t.app.request("POST", `/api/v1/webhook_endpoints/${endpoint.id}/test`, { key: t.ws.key });
      expect(await createDispatcher(keyed).runDue()).toBe(1);
      expect(receiver.received).toHaveLength(1);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    for (const line of logged) expect(line).not.toContain(endpoint.secret);
  });
});

describe("configuration from the environment", () => {
  test("defaults are the spec's", () => {
    const settings = webhookSettingsFromEnv({});
    expect(settings.retryScheduleS).toEqual(DEFAULT_RETRY_SCHEDULE_S);
    expect(settings.timeoutMs).toBe(DEFAULT_TIMEOUT_MS);
    expect(DEFAULT_TIMEOUT_MS).toBe(10_000);
    expect(settings.allowNetworks).toEqual([]);
    expect(settings.logRetentionMs).toBe(30 * DAY);
  });

  test("TEXTSCAN_WEBHOOK_* values are read, and malformed ones are refused with their name", () => {
    const settings = webhookSettingsFromEnv({
      TEXTSCAN_WEBHOOK_RETRY_SCHEDULE: "1, 2.5,10",
      TEXTSCAN_WEBHOOK_TIMEOUT_MS: "1500",
      TEXTSCAN_WEBHOOK_ALLOW_NETWORKS: "127.0.0.0/8, 10.1.0.0/16 ::1",
      TEXTSCAN_WEBHOOK_LOG_RETENTION_DAYS: "7",
      TEXTSCAN_WEBHOOK_CONCURRENCY: "8",
    });
    expect(settings.retryScheduleS).toEqual([1, 2.5, 10]);
    expect(settings.timeoutMs).toBe(1_500);
    expect(settings.allowNetworks.map((c) => c.text)).toEqual(["127.0.0.0/8", "10.1.0.0/16", "::1"]);
    expect(settings.logRetentionMs).toBe(7 * DAY);
    expect(settings.concurrency).toBe(8);
    for (const [name, value] of [
      ["TEXTSCAN_WEBHOOK_RETRY_SCHEDULE", "60,,300"],
      ["TEXTSCAN_WEBHOOK_RETRY_SCHEDULE", "-1"],
      ["TEXTSCAN_WEBHOOK_TIMEOUT_MS", "0"],
      ["TEXTSCAN_WEBHOOK_TIMEOUT_MS", "1.5"],
      ["TEXTSCAN_WEBHOOK_ALLOW_NETWORKS", "10.0.0.0/40"],
      ["TEXTSCAN_WEBHOOK_LOG_RETENTION_DAYS", "never"],
    ] as const) {
      expect(() => webhookSettingsFromEnv({ [name]: value })).toThrow(name);
    }
  });
});
