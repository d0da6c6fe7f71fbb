import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { logger } from "../observability/logger.server";
import { createHttpLeadWebhooks, createLeadWebhooks, MAX_LEADS_IN_FLIGHT, type Lead } from "./lead-webhooks.server";

const lead: Lead = {
  kind: "booking",
  firstName: "Ana",
  lastName: "Lima",
  email: "ana@example.com",
  phone: "+17135550100",
  centerId: "c-1",
  guestId: "g-1",
  booking: { start: "2026-12-01T09:30:00", services: ["Signature Laser Facial"] },
};

type Receiver = { url: string; received: { path: string; body: unknown }[]; close(): Promise<void> };
const open: Receiver[] = [];

/** A webhook receiver: answers each post as `answer` says (a status, or "hang"). */
async function receiver(answer: number | "hang" = 200): Promise<Receiver> {
  const received: Receiver["received"] = [];
  const sockets = new Set<import("node:net").Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ path: req.url ?? "", body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
      if (answer !== "hang") res.writeHead(answer).end();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const result: Receiver = {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  open.push(result);
  return result;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
  vi.restoreAllMocks();
});

describe("lead webhooks", () => {
  it("posts a lead to both configured services in the background", async () => {
    const automation = await receiver();
    const hooks = await receiver();
    const webhooks = createLeadWebhooks({ LEAD_WEBHOOK_AUTOMATION_URL: `${automation.url}/lead`, LEAD_WEBHOOK_HOOKS_URL: `${hooks.url}/in`, LEAD_WEBHOOK_TIMEOUT_MS: 2_000 });
    expect(webhooks.kind).toBe("http");
    const returned = webhooks.send(lead);
    expect(returned).toBeUndefined();
    await webhooks.close(2_000);
    expect(automation.received).toEqual([{ path: "/lead", body: expect.objectContaining({ ...lead, source: "webstore", id: expect.any(String), occurredAt: expect.any(String) }) }]);
    expect(hooks.received.map((r) => r.path)).toEqual(["/in"]);
    expect(webhooks.stats()).toMatchObject({ sent: 2, failed: 0, inFlight: 0 });
  });

  it("sends nothing when no URL is configured", () => {
    const webhooks = createLeadWebhooks({ LEAD_WEBHOOK_TIMEOUT_MS: 5_000 });
    expect(webhooks.kind).toBe("off");
    expect(() => webhooks.send(lead)).not.toThrow();
  });

  it("only logs a service that refuses, hangs past the timeout or cannot be reached, without the lead", async () => {
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => {});
    const refusing = await receiver(500);
    const hanging = await receiver("hang");
    const gone = await receiver();
    await gone.close();
    const webhooks = createHttpLeadWebhooks({
      targets: [
        { name: "automation", url: refusing.url },
        { name: "hooks", url: hanging.url },
        { name: "other", url: gone.url },
      ],
      timeoutMs: 200,
    });
    expect(() => webhooks.send(lead)).not.toThrow();
    await webhooks.close(5_000);
    expect(webhooks.stats()).toMatchObject({ sent: 0, failed: 3, inFlight: 0 });
    const reasons = warn.mock.calls.map(([message, fields]) => ({ message, ...fields }));
    expect(reasons).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ message: "lead webhook refused", target: "automation", status: 500 }),
        expect.objectContaining({ message: "lead webhook failed", target: "hooks", reason: "timeout" }),
        expect.objectContaining({ message: "lead webhook failed", target: "other", reason: "unreachable" }),
      ]),
    );
    expect(JSON.stringify(warn.mock.calls)).not.toMatch(/ana@example.com|5550100|Lima/);
  });

  it("holds at most a bounded number of posts to a service that hangs, dropping and counting the rest", async () => {
    vi.spyOn(logger, "warn").mockImplementation(() => {});
    const hanging = await receiver("hang");
    const webhooks = createHttpLeadWebhooks({ targets: [{ name: "hooks", url: hanging.url }], timeoutMs: 60_000 });
    for (let i = 0; i < MAX_LEADS_IN_FLIGHT + 25; i++) webhooks.send(lead);
    expect(webhooks.stats()).toMatchObject({ inFlight: MAX_LEADS_IN_FLIGHT, dropped: 25 });
    // Shutdown waits no longer than it is given.
    const started = Date.now();
    await webhooks.close(100);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe("a lead that must arrive", () => {
  const reward: Lead = { ...lead, kind: "referral-reward", reward: { points: 5000, friendVisitId: "v-1", key: "referral:g-2" } };

  it("is sent only when every configured service accepted it", async () => {
    const automation = await receiver();
    const hooks = await receiver();
    const both = createHttpLeadWebhooks({ targets: [{ name: "automation", url: automation.url }, { name: "hooks", url: hooks.url }], timeoutMs: 1_000 });
    expect(await both.deliver(reward)).toBe("sent");
    expect(automation.received).toEqual([{ path: "/", body: expect.objectContaining({ kind: "referral-reward", reward: reward.reward }) }]);
    expect(hooks.received).toHaveLength(1);

    const refusing = await receiver(503);
    vi.spyOn(logger, "warn").mockImplementation(() => {});
    const oneRefuses = createHttpLeadWebhooks({ targets: [{ name: "automation", url: refusing.url }, { name: "hooks", url: hooks.url }], timeoutMs: 1_000 });
    expect(await oneRefuses.deliver(reward)).toBe("failed");
    const gone = createHttpLeadWebhooks({ targets: [{ name: "automation", url: "http://127.0.0.1:1" }], timeoutMs: 1_000 });
    expect(await gone.deliver(reward)).toBe("failed");
    const hanging = await receiver("hang");
    const slow = createHttpLeadWebhooks({ targets: [{ name: "automation", url: hanging.url }], timeoutMs: 200 });
    expect(await slow.deliver(reward)).toBe("failed");
  });

  it("says so when no service is configured", async () => {
    expect(await createLeadWebhooks({ LEAD_WEBHOOK_TIMEOUT_MS: 1_000 }).deliver(reward)).toBe("off");
  });
});
