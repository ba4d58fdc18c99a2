import { afterEach, describe, expect, test } from "bun:test";
import { configureWebhooks } from "../../src/context/index.ts";
import { recordEvent } from "../../src/events/outbox.ts";
import { openStore, writeTransaction } from "../../src/store/db.ts";
import { createDispatcher } from "../../src/webhooks/index.ts";
import { contextOver, json } from "../support/harness.ts";
import { LOOPBACK, startReceiver, webhookTestApp } from "./support.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("claims and leases", () => {
  test("two dispatchers on two connections to one store never send the same attempt twice", async () => {
    const t = webhookTestApp();
    const receiver = startReceiver(async () => {
      await Bun.sleep(1);
      return new Response("ok");
    });
    cleanups.push(
      () => t.close(),
      () => receiver.stop(),
    );
    await t.endpoint({ url: receiver.url });
    const count = 300;
    writeTransaction(t.app.service.store.db, (tx) => {
      for (let i = 0; i < count; i++) {
        recordEvent(tx, {
          workspaceId: t.ws.workspace.id,
          type: "scan.completed",
          data: { n: i },
          now: t.clock.now - 1,
        });
      }
    });
    // A second process would open its own connection: so does this dispatcher.
    const second = openStore(t.app.dataDir);
    cleanups.push(() => second.close());
    const otherRt = configureWebhooks(contextOver(second, t.clock.read), {
      clock: t.clock.read,
      settings: { allowNetworks: LOOPBACK, concurrency: 16, perEndpointConcurrency: count },
    });
    const a = createDispatcher({ ...t.rt, settings: { ...otherRt.settings } });
    const b = createDispatcher(otherRt);
    const [sentA, sentB] = await Promise.all([a.runDue(), b.runDue()]);
    expect(sentA + sentB).toBe(count);
    expect(sentA).toBeGreaterThan(0);
    expect(sentB).toBeGreaterThan(0);
    expect(receiver.received).toHaveLength(count);
    const eventIds = receiver.received.map((r) => JSON.parse(r.body).id);
    expect(new Set(eventIds).size).toBe(count);
  });

  test("a hanging endpoint holds at most its per-endpoint share of slots; other endpoints keep flowing", async () => {
    const t = webhookTestApp({ settings: { timeoutMs: 2_000, concurrency: 64, perEndpointConcurrency: 4 } });
    const hanging = startReceiver(() => new Promise<Response>(() => {}));
    const healthy = startReceiver();
    cleanups.push(
      () => t.close(),
      () => hanging.stop(),
      () => healthy.stop(),
    );
    await t.endpoint({ url: hanging.url });
    await t.endpoint({ url: healthy.url });
    writeTransaction(t.app.service.store.db, (tx) => {
      for (let i = 0; i < 10; i++) {
        recordEvent(tx, {
          workspaceId: t.ws.workspace.id,
          type: "scan.completed",
          data: { n: i },
          now: t.clock.now,
        });
      }
    });
    t.dispatcher.start();
    try {
      await healthy.waitFor(10, 1_500);
      expect(hanging.received.length).toBe(4);
    } finally {
      await t.dispatcher.stop();
    }
  });

  test("an attempt whose process died is marked interrupted when its lease expires, and the event is sent again", async () => {
    const t = webhookTestApp({ settings: { timeoutMs: 1_000 } });
    const receiver = startReceiver();
    cleanups.push(
      () => t.close(),
      () => receiver.stop(),
    );
    const endpoint = await t.endpoint({ url: receiver.url });
    writeTransaction(t.app.service.store.db, (tx) =>
      recordEvent(tx, {
        workspaceId: t.ws.workspace.id,
        type: "scan.completed",
        data: { n: 1 },
        now: t.clock.now,
      }),
    );
    // The "dead" process claims the delivery and never finishes its request.
    let finish = (_r: Response) => {};
    const dead = createDispatcher(t.rt, {
      fetch: () =>
        new Promise<Response>((resolve) => {
          finish = resolve;
        }),
    });
    const deadRun = dead.runDue();
    await Bun.sleep(10);
    expect(await t.dispatcher.runDue()).toBe(0); // leased: nobody else sends it
    t.clock.advance(1_000 + 5_000); // timeout + DNS bound + margin
    expect(await t.dispatcher.runDue()).toBe(1);
    expect(receiver.received).toHaveLength(1);
    const deliveries = async () =>
      (
        await json(
          t.app.request("GET", `/api/v1/webhook_endpoints/${endpoint.id}/deliveries`, { key: t.ws.key }),
        )
      ).data;
    const [delivery] = await deliveries();
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 2 });
    expect(delivery.log.map((a: { outcome: string }) => a.outcome)).toEqual(["interrupted", "succeeded"]);
    expect(delivery.log[0].error).toContain("lease expired");

    // The old holder finally hears back: its late outcome no longer decides the delivery.
    finish(new Response(null, { status: 500 }));
    await deadRun;
    const [after] = await deliveries();
    expect(after).toMatchObject({ status: "succeeded", attempts: 2, last_status_code: 200 });
  });

  test("a delivery whose last allowed attempt was interrupted ends visibly failed, and can be retried", async () => {
    const t = webhookTestApp({ settings: { timeoutMs: 1_000 } });
    const receiver = startReceiver();
    cleanups.push(
      () => t.close(),
      () => receiver.stop(),
    );
    const endpoint = await t.endpoint({ url: receiver.url });
    const queued = await json(
      t.app.request("POST", `/api/v1/webhook_endpoints/${endpoint.id}/test`, { key: t.ws.key }),
    );
    const dead = createDispatcher(t.rt, { fetch: () => new Promise<Response>(() => {}) });
    void dead.runDue();
    await Bun.sleep(10);
    t.clock.advance(6_000);
    expect(await t.dispatcher.runDue()).toBe(0);
    const listed = async () =>
      (
        await json(
          t.app.request("GET", `/api/v1/webhook_endpoints/${endpoint.id}/deliveries`, { key: t.ws.key }),
        )
      ).data[0];
    const failed = await listed();
    expect(failed).toMatchObject({ id: queued.id, status: "failed", attempts: 1 });
    expect(failed.last_error).toContain("interrupted");
    expect(failed.log[0].outcome).toBe("interrupted");
    await t.app.request("POST", `/api/v1/webhook_deliveries/${queued.id}/retry`, { key: t.ws.key });
    expect(await t.dispatcher.runDue()).toBe(1);
    expect(await listed()).toMatchObject({ status: "succeeded", attempts: 2 });
  });
});
