import { describe, expect, test } from "bun:test";
import { json } from "../support/harness.ts";
import {
  appWithReceiver,
  cleanupsAfterEach,
  detectScan,
  seconds,
  signaturesIn,
  type startReceiver,
  verifySignature,
  type WebhookTestApp,
} from "./support.ts";

const cleanups = cleanupsAfterEach();
const setup = (behaviour?: Parameters<typeof startReceiver>[0]) => appWithReceiver(cleanups, {}, behaviour);
const detect = (t: WebhookTestApp) => detectScan(t, 45);

const deliveries = async (t: WebhookTestApp, endpointId: string, query = "") =>
  (
    await json(
      t.app.request("GET", `/api/v1/webhook_endpoints/${endpointId}/deliveries${query}`, { key: t.ws.key }),
    )
  ).data;

const patch = (t: WebhookTestApp, id: string, body: unknown) =>
  t.app.request("PATCH", `/api/v1/webhook_endpoints/${id}`, { key: t.ws.key, body });

describe("paused endpoints hold deliveries; nothing is dropped", () => {
  test("events recorded while paused are held, listed as pending, and sent once the endpoint is resumed", async () => {
    const { t, receiver } = setup();
    const endpoint = await t.endpoint({ url: receiver.url, status: "paused" });
    expect(endpoint.status).toBe("paused");
    const scans = [await detect(t), await detect(t)];
    t.clock.advance(3 * 24 * 3_600_000);
    expect(await t.dispatcher.runDue()).toBe(0);
    expect(receiver.received).toHaveLength(0);
    const held = await deliveries(t, endpoint.id, "?status=pending");
    expect(held).toHaveLength(2);
    expect(held.every((d: { attempts: number }) => d.attempts === 0)).toBe(true);

    const resumed = await patch(t, endpoint.id, { status: "active" });
    expect(await json(resumed)).toMatchObject({ status: "active" });
    expect(await t.dispatcher.runDue()).toBe(2);
    const sent = receiver.received.map((r) => JSON.parse(r.body).data.id).sort();
    expect(sent).toEqual(scans.map((s) => s.id).sort());
    expect(await deliveries(t, endpoint.id, "?status=succeeded")).toHaveLength(2);
  });

  test("pausing during the retry schedule holds the retry; resuming sends it", async () => {
    const { t, receiver } = setup((_r, i) => new Response(null, { status: i === 0 ? 503 : 200 }));
    const endpoint = await t.endpoint({ url: receiver.url });
    await detect(t);
    await t.dispatcher.runDue();
    await patch(t, endpoint.id, { status: "paused" });
    t.clock.advance(3_600_000);
    expect(await t.dispatcher.runDue()).toBe(0);
    await patch(t, endpoint.id, { status: "active" });
    expect(await t.dispatcher.runDue()).toBe(1);
    const [delivery] = await deliveries(t, endpoint.id);
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 2 });
  });
});

describe("webhook.test (spec 6.1)", () => {
  test("goes once to that endpoint, even paused and unsubscribed, as a sample completed ai_text scan with metadata.test", async () => {
    const { t, receiver } = setup();
    const endpoint = await t.endpoint({ url: receiver.url, events: ["scan.failed"], status: "paused" });
    const other = await t.endpoint({ url: receiver.url });
    const res = await t.app.request("POST", `/api/v1/webhook_endpoints/${endpoint.id}/test`, {
      key: t.ws.key,
    });
    expect(res.status).toBe(202);
    const queued = await json(res);
    expect(queued).toMatchObject({
      object: "webhook_delivery",
      endpoint_id: endpoint.id,
      event_type: "webhook.test",
      status: "pending",
      attempts: 0,
      max_attempts: 1,
    });
    expect(await t.dispatcher.runDue()).toBe(1);
    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0];
    if (!got) throw new Error("no test event");
    expect(got.headers["service-event"]).toBe("webhook.test");
    expect(
      verifySignature(got.headers["service-signature"], got.body, endpoint.secret, seconds(t.clock.now)),
    ).toBe(true);
    const event = JSON.parse(got.body);
    expect(event).toMatchObject({ object: "event", type: "webhook.test" });
    expect(event.id).toBe(queued.event_id);
    expect(event.data).toMatchObject({
      object: "scan",
      type: "ai_text",
      status: "completed",
      metadata: { test: "true" },
      error: null,
    });
    expect(event.data.id).toMatch(/^scn_[0-9a-f]{32}$/);
    expect(["human", "mixed", "ai"]).toContain(event.data.result.verdict);
    // The test went to that endpoint only.
    expect(await deliveries(t, other.id)).toEqual([]);
  });

  test("is attempted once, with no retries, when the receiver fails", async () => {
    const { t, receiver } = setup(() => new Response("nope", { status: 500 }));
    const endpoint = await t.endpoint({ url: receiver.url });
    await t.app.request("POST", `/api/v1/webhook_endpoints/${endpoint.id}/test`, { key: t.ws.key });
    await t.dispatcher.runDue();
    t.clock.advance(48 * 3_600_000);
    expect(await t.dispatcher.runDue()).toBe(0);
    expect(receiver.received).toHaveLength(1);
    const [delivery] = await deliveries(t, endpoint.id);
    expect(delivery).toMatchObject({ status: "failed", attempts: 1, max_attempts: 1, last_status_code: 500 });
  });
});

describe("secret rotation", () => {
  test("for 24 hours both secrets sign (two v1 values); then only the new one", async () => {
    const { t, receiver } = setup();
    const endpoint = await t.endpoint({ url: receiver.url });
    const res = await t.app.request("POST", `/api/v1/webhook_endpoints/${endpoint.id}/rotate_secret`, {
      key: t.ws.key,
    });
    expect(res.status).toBe(200);
    const rotated = await json(res);
    expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9]{40}$/);
    expect(rotated.secret).not.toBe(endpoint.secret);
    expect(rotated.previous_secret_expires_at).toBe(new Date(t.clock.now + 24 * 3_600_000).toISOString());

    await detect(t);
    await t.dispatcher.runDue();
    const during = receiver.received[0];
    if (!during) throw new Error("missing");
    expect(signaturesIn(during.headers["service-signature"])).toBe(2);
    const now = seconds(t.clock.now);
    expect(verifySignature(during.headers["service-signature"], during.body, endpoint.secret, now)).toBe(
      true,
    );
    expect(verifySignature(during.headers["service-signature"], during.body, rotated.secret, now)).toBe(true);

    t.clock.advance(24 * 3_600_000);
    await detect(t);
    await t.dispatcher.runDue();
    const after = receiver.received[1];
    if (!after) throw new Error("missing");
    const later = seconds(t.clock.now);
    expect(signaturesIn(after.headers["service-signature"])).toBe(1);
    expect(verifySignature(after.headers["service-signature"], after.body, rotated.secret, later)).toBe(true);
    expect(verifySignature(after.headers["service-signature"], after.body, endpoint.secret, later)).toBe(
      false,
    );
    const shown = await json(
      t.app.request("GET", `/api/v1/webhook_endpoints/${endpoint.id}`, { key: t.ws.key }),
    );
    expect(shown.previous_secret_expires_at).toBeNull();
    expect(shown.secret).toBeUndefined();
  });

  test("rotating twice within a day retires the oldest secret at once", async () => {
    const { t, receiver } = setup();
    const endpoint = await t.endpoint({ url: receiver.url });
    const rotate = async () =>
      json(
        t.app.request("POST", `/api/v1/webhook_endpoints/${endpoint.id}/rotate_secret`, { key: t.ws.key }),
      );
    const second = await rotate();
    const third = await rotate();
    await detect(t);
    await t.dispatcher.runDue();
    const got = receiver.received[0];
    if (!got) throw new Error("missing");
    const now = seconds(t.clock.now);
    expect(signaturesIn(got.headers["service-signature"])).toBe(2);
    expect(verifySignature(got.headers["service-signature"], got.body, third.secret, now)).toBe(true);
    expect(verifySignature(got.headers["service-signature"], got.body, second.secret, now)).toBe(true);
    expect(verifySignature(got.headers["service-signature"], got.body, endpoint.secret, now)).toBe(false);
  });
});
