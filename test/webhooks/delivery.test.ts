import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PermanentJobError, runOnce } from "../../src/jobs/index.ts";
import { essay, json } from "../support/harness.ts";
import {
  type Receiver,
  seconds,
  signaturesIn,
  startReceiver,
  verifySignature,
  type WebhookTestApp,
  webhookTestApp,
} from "./support.ts";

let t: WebhookTestApp;
let receiver: Receiver;
beforeAll(() => {
  t = webhookTestApp();
  receiver = startReceiver(() => new Response("ok"));
});
afterAll(async () => {
  receiver.stop();
  await t.close();
});

const detect = async (metadata: Record<string, string> = {}) => {
  const res = await t.app.request("POST", "/api/v1/detect", {
    key: t.ws.key,
    body: { text: essay(60), metadata },
  });
  expect(res.status).toBe(200);
  return json(res);
};

const deliveriesOf = async (endpointId: string) =>
  (await json(t.app.request("GET", `/api/v1/webhook_endpoints/${endpointId}/deliveries`, { key: t.ws.key })))
    .data;

describe("delivering scan.completed", () => {
  test("a detect scan is POSTed as the spec 2.6 event with the spec 6.2 headers and a verifiable signature", async () => {
    const endpoint = await t.endpoint({ url: receiver.url });
    const scan = await detect({ student: "42" });
    expect(await t.dispatcher.runDue()).toBe(1);

    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0];
    if (!got) throw new Error("nothing received");
    expect(got.method).toBe("POST");
    expect(got.path).toBe("/hooks/textscan");
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["service-event"]).toBe("scan.completed");
    expect(got.headers["service-delivery"]).toMatch(/^wha_[0-9a-f]{32}$/);
    expect(got.headers["user-agent"]).toStartWith("textscan-webhooks/");
    expect(got.headers["service-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);

    // Verified by the test's own implementation, over the raw bytes received.
    expect(
      verifySignature(got.headers["service-signature"], got.body, endpoint.secret, seconds(t.clock.now)),
    ).toBe(true);
    expect(
      verifySignature(
        got.headers["service-signature"],
        `${got.body} `,
        endpoint.secret,
        seconds(t.clock.now),
      ),
    ).toBe(false);
    expect(
      verifySignature(
        got.headers["service-signature"],
        got.body,
        `${endpoint.secret}x`,
        seconds(t.clock.now),
      ),
    ).toBe(false);
    // A delivery replayed more than five minutes later fails the receiver's age check.
    expect(
      verifySignature(
        got.headers["service-signature"],
        got.body,
        endpoint.secret,
        seconds(t.clock.now) + 301,
      ),
    ).toBe(false);

    const event = JSON.parse(got.body);
    expect(Object.keys(event).sort()).toEqual(["created_at", "data", "id", "object", "type"]);
    expect(event).toMatchObject({ object: "event", type: "scan.completed" });
    expect(event.id).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(event.created_at.endsWith("Z")).toBe(true);
    // data is the scan object as GET /scans/{id} shows it, metadata included.
    expect(event.data).toEqual(scan);
    expect(event.data.metadata).toEqual({ student: "42" });

    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({
      event_id: event.id,
      event_type: "scan.completed",
      status: "succeeded",
      attempts: 1,
      max_attempts: 7,
      next_attempt_at: null,
      last_status_code: 200,
      last_error: null,
    });
    expect(delivery.log).toHaveLength(1);
    expect(delivery.log[0]).toMatchObject({
      id: got.headers["service-delivery"],
      attempt: 1,
      outcome: "succeeded",
      status_code: 200,
      error: null,
      response_excerpt: "ok",
    });
    expect(delivery.log[0].duration_ms).toBeGreaterThanOrEqual(0);
    await t.app.request("DELETE", `/api/v1/webhook_endpoints/${endpoint.id}`, { key: t.ws.key });
  });

  test("a plagiarism scan that fails is delivered as scan.failed, with data.error, to scan.failed subscribers", async () => {
    receiver.received.length = 0;
    const failedOnly = await t.endpoint({ url: receiver.url, events: ["scan.failed"] });
    const res = await t.app.request("POST", "/api/v1/plagiarism", {
      key: t.ws.key,
      body: { text: essay(50) },
    });
    expect(res.status).toBe(202);
    const queued = await json(res);
    // The job loop, stepped by hand: the check fails for good, which fails the scan and records scan.failed.
    const ran = await runOnce({
      db: t.app.service.store.db,
      clock: t.clock.read,
      run: () => {
        throw new PermanentJobError("source_unavailable", "The sources could not be read.");
      },
    });
    expect(ran).toBe(true);
    expect(await t.dispatcher.runDue()).toBe(1);
    const got = receiver.received[0];
    if (!got) throw new Error("nothing received");
    expect(got.headers["service-event"]).toBe("scan.failed");
    expect(
      verifySignature(got.headers["service-signature"], got.body, failedOnly.secret, seconds(t.clock.now)),
    ).toBe(true);
    const event = JSON.parse(got.body);
    expect(event).toMatchObject({
      type: "scan.failed",
      data: {
        id: queued.id,
        type: "plagiarism",
        status: "failed",
        result: null,
        error: { code: "source_unavailable", message: "The sources could not be read." },
      },
    });
    await t.app.request("DELETE", `/api/v1/webhook_endpoints/${failedOnly.id}`, { key: t.ws.key });
  });

  test("only endpoints subscribed to the event type receive it", async () => {
    receiver.received.length = 0;
    const failedOnly = await t.endpoint({ url: receiver.url, events: ["scan.failed"] });
    await detect();
    expect(await t.dispatcher.runDue()).toBe(0);
    expect(receiver.received).toHaveLength(0);
    expect(await deliveriesOf(failedOnly.id)).toEqual([]);
    await t.app.request("DELETE", `/api/v1/webhook_endpoints/${failedOnly.id}`, { key: t.ws.key });
  });

  test("every 2xx is success; a 3xx is not followed and is retried; the reply's first 1 KiB is logged", async () => {
    const endpoint = await t.endpoint({ url: receiver.url });
    const replies = [
      () => new Response(null, { status: 204 }),
      () => new Response(null, { status: 302, headers: { location: "/elsewhere" } }),
      () => new Response("x".repeat(5_000), { status: 503 }),
    ];
    for (const reply of replies) {
      receiver.received.length = 0;
      receiver.behave(reply);
      await detect();
      await t.dispatcher.runDue();
      // The redirect target was never requested.
      expect(receiver.received.map((r) => r.path)).toEqual(["/hooks/textscan"]);
    }
    const [overloaded, redirected, noContent] = await deliveriesOf(endpoint.id);
    expect(noContent).toMatchObject({ status: "succeeded", last_status_code: 204 });
    expect(redirected).toMatchObject({ status: "pending", last_status_code: 302, attempts: 1 });
    expect(redirected.last_error).toContain("redirect");
    expect(overloaded).toMatchObject({ status: "pending", last_status_code: 503, last_error: "HTTP 503" });
    expect(overloaded.log[0].response_excerpt).toBe("x".repeat(1_024));
    receiver.behave(() => new Response("ok"));
    await t.app.request("DELETE", `/api/v1/webhook_endpoints/${endpoint.id}`, { key: t.ws.key });
  });

  test("with several endpoints, each gets the event signed with its own secret", async () => {
    receiver.received.length = 0;
    const other = startReceiver();
    try {
      const a = await t.endpoint({ url: receiver.url });
      const b = await t.endpoint({ url: other.url });
      await detect();
      expect(await t.dispatcher.runDue()).toBe(2);
      const [gotA] = receiver.received;
      const [gotB] = other.received;
      if (!gotA || !gotB) throw new Error("missing delivery");
      expect(gotA.body).toBe(gotB.body);
      expect(signaturesIn(gotA.headers["service-signature"])).toBe(1);
      expect(
        verifySignature(gotA.headers["service-signature"], gotA.body, a.secret, seconds(t.clock.now)),
      ).toBe(true);
      expect(
        verifySignature(gotB.headers["service-signature"], gotB.body, b.secret, seconds(t.clock.now)),
      ).toBe(true);
      expect(
        verifySignature(gotA.headers["service-signature"], gotA.body, b.secret, seconds(t.clock.now)),
      ).toBe(false);
      expect(gotA.headers["service-delivery"]).not.toBe(gotB.headers["service-delivery"]);
      for (const e of [a, b])
        await t.app.request("DELETE", `/api/v1/webhook_endpoints/${e.id}`, { key: t.ws.key });
    } finally {
      other.stop();
    }
  });

  test("in background mode the commit's kick delivers at once, without waiting for the next tick", async () => {
    receiver.received.length = 0;
    const endpoint = await t.endpoint({ url: receiver.url });
    t.dispatcher.start();
    try {
      const scan = await detect();
      await receiver.waitFor(1, 5_000);
      expect(JSON.parse(receiver.received[0]?.body ?? "{}").data.id).toBe(scan.id);
    } finally {
      await t.dispatcher.stop();
    }
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery.status).toBe("succeeded");
  });
});
