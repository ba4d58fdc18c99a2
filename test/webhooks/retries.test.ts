import { describe, expect, test } from "bun:test";
import { DEFAULT_RETRY_SCHEDULE_S } from "../../src/webhooks/index.ts";
import { json } from "../support/harness.ts";
import {
  appWithReceiver,
  cleanupsAfterEach,
  deadPort,
  detectScan,
  type Receiver,
  seconds,
  type startReceiver,
  verifySignature,
  type WebhookTestApp,
  type webhookTestApp,
} from "./support.ts";

const cleanups = cleanupsAfterEach();
const setup = (
  options: Parameters<typeof webhookTestApp>[0] = {},
  behaviour?: Parameters<typeof startReceiver>[0],
) => appWithReceiver(cleanups, options, behaviour);
const detect = (t: WebhookTestApp) => detectScan(t, 50);

const onlyDelivery = async (t: WebhookTestApp, endpointId: string) => {
  const page = await json(
    t.app.request("GET", `/api/v1/webhook_endpoints/${endpointId}/deliveries`, { key: t.ws.key }),
  );
  expect(page.data).toHaveLength(1);
  return page.data[0];
};

/** Moves the clock to one millisecond before the next attempt is due, checks nothing goes, then to the moment. */
async function stepTo(t: WebhookTestApp, receiver: Receiver, delayS: number): Promise<void> {
  const before = receiver.received.length;
  t.clock.advance(delayS * 1000 - 1);
  expect(await t.dispatcher.runDue()).toBe(0);
  expect(receiver.received.length).toBe(before);
  t.clock.advance(1);
  expect(await t.dispatcher.runDue()).toBe(1);
  expect(receiver.received.length).toBe(before + 1);
}

describe("retries (spec 6.4), on an injected clock", () => {
  test("the default schedule is 1 min, 5 min, 30 min, 2 h, 6 h, 15 h: seven attempts", () => {
    expect(DEFAULT_RETRY_SCHEDULE_S).toEqual([60, 300, 1_800, 7_200, 21_600, 54_000]);
  });

  test("a receiver that fails six times and then recovers gets the event at exactly the scheduled times", async () => {
    const { t, receiver } = setup(
      {},
      (_req, i) => new Response(i < 6 ? "down for maintenance" : "ok", { status: i < 6 ? 500 : 200 }),
    );
    const endpoint = await t.endpoint({ url: receiver.url });
    await detect(t);
    expect(await t.dispatcher.runDue()).toBe(1);
    for (const delayS of DEFAULT_RETRY_SCHEDULE_S) await stepTo(t, receiver, delayS);

    const times = receiver.received.map((r) => r.at);
    const gaps = times.slice(1).map((at, i) => (at - (times[i] ?? 0)) / 1000);
    expect(gaps).toEqual(DEFAULT_RETRY_SCHEDULE_S);
    // One event, seven attempts: the same body and event id every time, a new Service-Delivery id each time.
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    expect(new Set(receiver.received.map((r) => r.headers["service-delivery"])).size).toBe(7);
    // Each attempt is signed afresh: its t is the attempt's time, so the receiver's five-minute check passes.
    for (const r of receiver.received) {
      expect(verifySignature(r.headers["service-signature"], r.body, endpoint.secret, seconds(r.at))).toBe(
        true,
      );
    }

    const delivery = await onlyDelivery(t, endpoint.id);
    expect(delivery).toMatchObject({
      status: "succeeded",
      attempts: 7,
      last_status_code: 200,
      last_error: null,
    });
    expect(delivery.log.map((a: { outcome: string }) => a.outcome)).toEqual([
      ...Array(6).fill("failed"),
      "succeeded",
    ]);
    expect(delivery.log[0]).toMatchObject({
      status_code: 500,
      error: "HTTP 500",
      response_excerpt: "down for maintenance",
    });
    expect(delivery.log.map((a: { id: string }) => a.id)).toEqual(
      receiver.received.map((r) => r.headers["service-delivery"]),
    );
  });

  test("after the seventh failure the delivery is marked failed and nothing more is sent", async () => {
    const { t, receiver } = setup({}, () => new Response("no", { status: 500 }));
    const endpoint = await t.endpoint({ url: receiver.url });
    await detect(t);
    await t.dispatcher.runDue();
    for (const delayS of DEFAULT_RETRY_SCHEDULE_S) await stepTo(t, receiver, delayS);
    const delivery = await onlyDelivery(t, endpoint.id);
    expect(delivery).toMatchObject({ status: "failed", attempts: 7, max_attempts: 7, next_attempt_at: null });
    t.clock.advance(7 * 24 * 3600 * 1000);
    expect(await t.dispatcher.runDue()).toBe(0);
    expect(receiver.received).toHaveLength(7);
  });

  test("a receiver that is down (connection refused) is retried, and gets the event when it comes back", async () => {
    const { t } = setup();
    const port = deadPort();
    const endpoint = await t.endpoint({ url: `http://127.0.0.1:${port}/hook` });
    await detect(t);
    expect(await t.dispatcher.runDue()).toBe(1);
    let delivery = await onlyDelivery(t, endpoint.id);
    expect(delivery).toMatchObject({ status: "pending", attempts: 1, last_status_code: null });
    expect(delivery.last_error).toBeTruthy();
    expect(Date.parse(delivery.next_attempt_at)).toBe(t.clock.now + 60_000);

    const back = Bun.serve({ hostname: "127.0.0.1", port, fetch: () => new Response("back") });
    cleanups.push(() => back.stop(true));
    t.clock.advance(60_000);
    expect(await t.dispatcher.runDue()).toBe(1);
    delivery = await onlyDelivery(t, endpoint.id);
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 2, last_status_code: 200 });
  });

  test("a receiver that does not answer within the timeout is a failure, retried later", async () => {
    let release = () => {};
    const hanging = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { t, receiver } = setup({ settings: { timeoutMs: 300 } }, async () => {
      await hanging;
      return new Response("too late");
    });
    cleanups.push(() => release());
    const endpoint = await t.endpoint({ url: receiver.url });
    await detect(t);
    await t.dispatcher.runDue();
    const delivery = await onlyDelivery(t, endpoint.id);
    expect(delivery).toMatchObject({ status: "pending", attempts: 1, last_status_code: null });
    expect(delivery.last_error).toBe("no reply within 300 ms");
    expect(delivery.log[0].duration_ms).toBeGreaterThanOrEqual(300);
    expect(Date.parse(delivery.next_attempt_at)).toBe(t.clock.now + 60_000);
  });

  test("with the default 10-second limit, a receiver that hangs past 10 s fails the attempt at 10 s", async () => {
    let release = () => {};
    const hanging = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { t, receiver } = setup({}, async () => {
      await hanging;
      return new Response("too late");
    });
    cleanups.push(() => release());
    expect(t.rt.settings.timeoutMs).toBe(10_000);
    const endpoint = await t.endpoint({ url: receiver.url });
    await detect(t);
    await t.dispatcher.runDue();
    const delivery = await onlyDelivery(t, endpoint.id);
    expect(delivery.last_error).toBe("no reply within 10000 ms");
    expect(delivery.log[0].duration_ms).toBeGreaterThanOrEqual(10_000);
    expect(delivery.log[0].duration_ms).toBeLessThan(12_000);
  }, 20_000);

  test("a configured schedule (TEXTSCAN_WEBHOOK_RETRY_SCHEDULE) sets the delays and the number of attempts", async () => {
    const { t, receiver } = setup(
      { settings: { retryScheduleS: [2, 5] } },
      () => new Response(null, { status: 502 }),
    );
    const endpoint = await t.endpoint({ url: receiver.url });
    await detect(t);
    await t.dispatcher.runDue();
    await stepTo(t, receiver, 2);
    await stepTo(t, receiver, 5);
    t.clock.advance(3_600_000);
    expect(await t.dispatcher.runDue()).toBe(0);
    expect(await onlyDelivery(t, endpoint.id)).toMatchObject({
      status: "failed",
      attempts: 3,
      max_attempts: 3,
    });
  });
});

describe("manual retries and replays", () => {
  test("a failed delivery gets one more attempt; a succeeded one is replayed with a new delivery id and fresh signature", async () => {
    const { t, receiver } = setup(
      { settings: { retryScheduleS: [] } },
      () => new Response(null, { status: 500 }),
    );
    const endpoint = await t.endpoint({ url: receiver.url });
    await detect(t);
    await t.dispatcher.runDue();
    let delivery = await onlyDelivery(t, endpoint.id);
    expect(delivery).toMatchObject({ status: "failed", attempts: 1 });

    receiver.behave(() => new Response("ok"));
    t.clock.advance(3_600_000);
    const retried = await t.app.request("POST", `/api/v1/webhook_deliveries/${delivery.id}/retry`, {
      key: t.ws.key,
    });
    expect(retried.status).toBe(202);
    expect(await json(retried)).toMatchObject({
      id: delivery.id,
      status: "pending",
      attempts: 1,
      max_attempts: 2,
    });
    expect(await t.dispatcher.runDue()).toBe(1);
    delivery = await onlyDelivery(t, endpoint.id);
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 2, last_status_code: 200 });

    // Replay, a day later: same event, new Service-Delivery, a signature that is valid now.
    t.clock.advance(24 * 3_600_000);
    await t.app.request("POST", `/api/v1/webhook_deliveries/${delivery.id}/retry`, { key: t.ws.key });
    expect(await t.dispatcher.runDue()).toBe(1);
    const [, second, replay] = receiver.received;
    if (!second || !replay) throw new Error("missing attempts");
    expect(replay.body).toBe(second.body);
    expect(replay.headers["service-delivery"]).not.toBe(second.headers["service-delivery"]);
    expect(
      verifySignature(
        replay.headers["service-signature"],
        replay.body,
        endpoint.secret,
        seconds(t.clock.now),
      ),
    ).toBe(true);
    expect(await onlyDelivery(t, endpoint.id)).toMatchObject({
      status: "succeeded",
      attempts: 3,
      max_attempts: 3,
    });
    // A replay that fails is not retried on the schedule: it was one extra attempt.
  });

  test("retrying a pending delivery brings its next attempt forward to now", async () => {
    const { t, receiver } = setup({}, (_r, i) => new Response(null, { status: i === 0 ? 500 : 200 }));
    const endpoint = await t.endpoint({ url: receiver.url });
    await detect(t);
    await t.dispatcher.runDue();
    const pending = await onlyDelivery(t, endpoint.id);
    expect(pending.status).toBe("pending");
    expect(await t.dispatcher.runDue()).toBe(0);
    const res = await t.app.request("POST", `/api/v1/webhook_deliveries/${pending.id}/retry`, {
      key: t.ws.key,
    });
    expect(await json(res)).toMatchObject({
      status: "pending",
      max_attempts: 7,
      next_attempt_at: new Date(t.clock.now).toISOString(),
    });
    expect(await t.dispatcher.runDue()).toBe(1);
    expect(await onlyDelivery(t, endpoint.id)).toMatchObject({ status: "succeeded", attempts: 2 });
  });
});
