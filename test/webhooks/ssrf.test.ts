import { afterEach, describe, expect, test } from "bun:test";
import { parseCidrList, parseIp } from "../../src/webhooks/cidr.ts";
import { createDispatcher } from "../../src/webhooks/index.ts";
import { parseWebhookUrl, refusalOf } from "../../src/webhooks/url-guard.ts";
import { essay, json, tempDataDir } from "../support/harness.ts";
import { OPENSSL, selfSignedCertificate } from "../support/tls.ts";
import { startReceiver, webhookTestApp } from "./support.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const judge = (ip: string, allow = "") => {
  const address = parseIp(ip);
  if (!address) throw new Error(`not an address: ${ip}`);
  return refusalOf(address, parseCidrList(allow, "test"));
};

describe("the address guard", () => {
  test.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "link-local"],
    ["100.100.100.200", "carrier-grade"],
    ["168.63.129.16", "metadata"],
    ["0.0.0.0", "this network"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "reserved"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["fd00:ec2::254", "unique local"],
    ["fc00::5", "unique local"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:a9fe:a9fe", "link-local"],
    ["64:ff9b::a9fe:a9fe", "link-local"],
    ["2002:7f00:1::", "loopback"],
    ["ff02::1", "multicast"],
  ])("%s is refused (%s)", (ip, words) => {
    expect(judge(ip)).toContain(words);
  });

  test.each([
    "8.8.8.8",
    "93.184.216.34",
    "172.32.0.1",
    "100.128.0.1",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
  ])("%s is allowed", (ip) => {
    expect(judge(ip)).toBeUndefined();
  });

  test("TEXTSCAN_WEBHOOK_ALLOW_NETWORKS opens exactly the listed networks", () => {
    expect(judge("10.1.2.3", "10.0.0.0/8")).toBeUndefined();
    expect(judge("11.0.0.1", "10.0.0.0/8")).toBeUndefined();
    expect(judge("192.168.1.1", "10.0.0.0/8")).toContain("private");
    expect(judge("::ffff:10.0.0.1", "10.0.0.0/8")).toBeUndefined();
    expect(judge("127.0.0.1", "127.0.0.1/32, ::1")).toBeUndefined();
    expect(judge("127.0.0.2", "127.0.0.1/32, ::1")).toContain("loopback");
    expect(judge("::1", "127.0.0.1/32, ::1")).toBeUndefined();
    expect(() => parseCidrList("10.0.0.0/33", "TEXTSCAN_WEBHOOK_ALLOW_NETWORKS")).toThrow("10.0.0.0/33");
    expect(() => parseCidrList("example.com", "TEXTSCAN_WEBHOOK_ALLOW_NETWORKS")).toThrow("example.com");
  });

  test("URLs must be absolute http(s) without credentials", () => {
    expect("url" in parseWebhookUrl("https://hooks.example.com/x?y=1")).toBe(true);
    for (const bad of [
      "ftp://example.com/",
      "file:///etc/passwd",
      "javascript:alert(1)",
      "example.com/hook",
      "",
      "https://user:pw@example.com/",
    ]) {
      expect("problem" in parseWebhookUrl(bad)).toBe(true);
    }
    expect("problem" in parseWebhookUrl(`https://example.com/${"a".repeat(2_100)}`)).toBe(true);
  });
});

describe("refusals at creation (API)", () => {
  const strict = () => {
    const t = webhookTestApp({
      settings: { allowNetworks: [] },
      resolve: async (host) => {
        const table: Record<string, string[]> = {
          "internal.example.test": ["10.0.0.5"],
          "mixed.example.test": ["93.184.216.34", "192.168.0.10"],
          "public.example.test": ["93.184.216.34"],
        };
        const found = table[host];
        if (!found) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
        return found;
      },
    });
    cleanups.push(() => t.close());
    return t;
  };

  test.each([
    ["http://127.0.0.1:9/hook", "loopback"],
    ["http://localhost:9/hook", "loopback"],
    ["http://[::1]/hook", "loopback"],
    ["http://2130706433/hook", "loopback"],
    ["http://0x7f.0.0.1/hook", "loopback"],
    ["http://169.254.169.254/latest/meta-data/", "link-local"],
    ["http://[::ffff:169.254.169.254]/", "link-local"],
    ["https://internal.example.test/hook", "private"],
    ["https://mixed.example.test/hook", "private"],
    ["gopher://example.com/", "http or https"],
    ["https://admin:secret@public.example.test/", "user name or password"],
    ["not a url", "absolute"],
  ])("%s is refused with invalid_body at /url", async (url, words) => {
    const t = strict();
    const res = await t.app.request("POST", "/api/v1/webhook_endpoints", { key: t.ws.key, body: { url } });
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body.error.code).toBe("invalid_body");
    expect(body.error.issues).toHaveLength(1);
    expect(body.error.issues[0].path).toBe("/url");
    expect(body.error.issues[0].message).toContain(words);
  });

  test("a public destination is accepted; a name that does not resolve yet is accepted and checked at every attempt", async () => {
    const t = strict();
    for (const url of [
      "https://public.example.test/hook",
      "https://not-yet.example.test/hook",
      "http://93.184.216.34/x",
    ]) {
      const res = await t.app.request("POST", "/api/v1/webhook_endpoints", { key: t.ws.key, body: { url } });
      expect(res.status).toBe(201);
    }
  });

  test("changing an endpoint's URL to a refused destination is refused the same way", async () => {
    const t = strict();
    const created = await t.endpoint({ url: "https://public.example.test/hook" });
    const res = await t.app.request("PATCH", `/api/v1/webhook_endpoints/${created.id}`, {
      key: t.ws.key,
      body: { url: "http://10.0.0.1/" },
    });
    expect(res.status).toBe(400);
    expect((await json(res)).error.issues[0]).toMatchObject({ path: "/url" });
  });
});

describe("refusals at delivery (DNS can change)", () => {
  test("a name that moved to a private address is refused before any connection; the attempt is logged and retried", async () => {
    let answer = ["93.184.216.34"];
    const t = webhookTestApp({ settings: { allowNetworks: [] }, resolve: async () => answer });
    cleanups.push(() => t.close());
    const endpoint = await t.endpoint({ url: "http://hooks.example.test/in" });
    answer = ["10.9.8.7"];
    const calls: string[] = [];
    const dispatcher = createDispatcher(t.rt, {
      fetch: async (input) => {
        calls.push(input);
        return new Response("should not be reached");
      },
    });
    await t.app.request("POST", "/api/v1/detect", { key: t.ws.key, body: { text: essay(40) } });
    expect(await dispatcher.runDue()).toBe(1);
    expect(calls).toEqual([]);
    const page = await json(
      t.app.request("GET", `/api/v1/webhook_endpoints/${endpoint.id}/deliveries`, { key: t.ws.key }),
    );
    expect(page.data[0]).toMatchObject({ status: "pending", attempts: 1, last_status_code: null });
    expect(page.data[0].last_error).toContain("10.9.8.7 is a private address");
  });

  test("an http delivery connects to the address the guard checked, sending the name in Host", async () => {
    const receiver = startReceiver();
    cleanups.push(() => receiver.stop());
    // The name exists only in the injected resolver: the request can reach the receiver only through the pinned address.
    const t = webhookTestApp({ resolve: async () => ["127.0.0.1"] });
    cleanups.push(() => t.close());
    await t.endpoint({ url: `http://receiver.example.test:${receiver.port}/hook` });
    await t.app.request("POST", "/api/v1/detect", { key: t.ws.key, body: { text: essay(40) } });
    expect(await t.dispatcher.runDue()).toBe(1);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]?.headers.host).toBe(`receiver.example.test:${receiver.port}`);
  });

  test.skipIf(!OPENSSL)(
    "an https delivery connects to the checked address and verifies the certificate against the name",
    async () => {
      const { dir, cleanup } = tempDataDir();
      cleanups.push(cleanup);
      const { cert, key, ca } = await selfSignedCertificate(dir, "hooks.example.test");
      const hosts: (string | null)[] = [];
      const server = Bun.serve({
        hostname: "127.0.0.1",
        port: 0,
        tls: { cert: Bun.file(cert), key: Bun.file(key) },
        fetch: (request) => {
          hosts.push(request.headers.get("host"));
          return new Response("ok");
        },
      });
      cleanups.push(() => server.stop(true));
      const t = webhookTestApp({ resolve: async () => ["127.0.0.1"] });
      cleanups.push(() => t.close());
      const good = await t.endpoint({ url: `https://hooks.example.test:${server.port}/in` });
      const wrongName = await t.endpoint({ url: `https://other.example.test:${server.port}/in` });
      // The test's CA is trusted through the fetch the dispatcher uses; everything else is the real path.
      const dispatcher = createDispatcher(t.rt, {
        fetch: (input, init) => fetch(input, { ...init, tls: { ...init.tls, ca } }),
      });
      await t.app.request("POST", "/api/v1/detect", { key: t.ws.key, body: { text: essay(40) } });
      expect(await dispatcher.runDue()).toBe(2);
      expect(hosts).toEqual([`hooks.example.test:${server.port}`]);
      const first = async (id: string) =>
        (await json(t.app.request("GET", `/api/v1/webhook_endpoints/${id}/deliveries`, { key: t.ws.key })))
          .data[0];
      expect(await first(good.id)).toMatchObject({ status: "succeeded", last_status_code: 200 });
      const refused = await first(wrongName.id);
      expect(refused).toMatchObject({ status: "pending", last_status_code: null });
      expect(refused.last_error).toContain("ALTNAME");
    },
  );
});
