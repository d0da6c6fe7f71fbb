import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { logger } from "../observability/logger.server";
import {
  createHttpLeadWebhooks,
  createLeadWebhooks,
  type Lead,
  LEAD_WEBHOOK_TIMEOUT_MS,
  MAX_LEAD_WEBHOOK_TIMEOUT_MS,
  MAX_LEADS_IN_FLIGHT,
  MIN_LEAD_WEBHOOK_TIMEOUT_MS,
} from "./lead-webhooks.server";

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

// The timeouts are the setting's own: its default where a service answers, so a busy machine is
// slow, not wrong; its least where a service never answers, which times out however fast the
// machine; its most where a post must still be waiting when the test looks.
describe("lead webhooks", () => {
  it("posts a lead to both configured services in the background", async () => {
    const automation = await receiver();
    const hooks = await receiver();
    const webhooks = createLeadWebhooks({
      LEAD_WEBHOOK_AUTOMATION_URL: `${automation.url}/lead`,
      LEAD_WEBHOOK_HOOKS_URL: `${hooks.url}/in`,
      LEAD_WEBHOOK_TIMEOUT_MS,
    });
    expect(webhooks.kind).toBe("http");
    const returned = webhooks.send(lead);
    expect(returned).toBeUndefined();
    await webhooks.close(LEAD_WEBHOOK_TIMEOUT_MS);
    expect(automation.received).toEqual([
      {
        path: "/lead",
        body: expect.objectContaining({
          ...lead,
          source: "webstore",
          id: expect.any(String),
          occurredAt: expect.any(String),
        }),
      },
    ]);
    expect(hooks.received.map((r) => r.path)).toEqual(["/in"]);
    expect(webhooks.stats()).toMatchObject({ sent: 2, failed: 0, inFlight: 0 });
  });

  it("sends nothing when no URL is configured", () => {
    const webhooks = createLeadWebhooks({ LEAD_WEBHOOK_TIMEOUT_MS });
    expect(webhooks.kind).toBe("off");
    expect(() => webhooks.send(lead)).not.toThrow();
  });

  it("only logs a service that refuses, hangs past the timeout or cannot be reached, without the lead", async () => {
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => {});
    const refusing = await receiver(500);
    const hanging = await receiver("hang");
    const gone = await receiver();
    await gone.close();
    const answering = createHttpLeadWebhooks({
      targets: [
        { name: "automation", url: refusing.url },
        { name: "other", url: gone.url },
      ],
      timeoutMs: LEAD_WEBHOOK_TIMEOUT_MS,
    });
    const silent = createHttpLeadWebhooks({
      targets: [{ name: "hooks", url: hanging.url }],
      timeoutMs: MIN_LEAD_WEBHOOK_TIMEOUT_MS,
    });
    expect(() => answering.send(lead)).not.toThrow();
    expect(() => silent.send(lead)).not.toThrow();
    await Promise.all([answering.close(LEAD_WEBHOOK_TIMEOUT_MS), silent.close(LEAD_WEBHOOK_TIMEOUT_MS)]);
    expect(answering.stats()).toMatchObject({ sent: 0, failed: 2, inFlight: 0 });
    expect(silent.stats()).toMatchObject({ sent: 0, failed: 1, inFlight: 0 });
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
    const webhooks = createHttpLeadWebhooks({
      targets: [{ name: "hooks", url: hanging.url }],
      timeoutMs: MAX_LEAD_WEBHOOK_TIMEOUT_MS,
    });
    for (let i = 0; i < MAX_LEADS_IN_FLIGHT + 25; i++) webhooks.send(lead);
    expect(webhooks.stats()).toMatchObject({ inFlight: MAX_LEADS_IN_FLIGHT, dropped: 25 });
    // Shutdown waits no longer than it is given: it returns with every post still waiting.
    await webhooks.close(MIN_LEAD_WEBHOOK_TIMEOUT_MS);
    expect(webhooks.stats()).toMatchObject({ inFlight: MAX_LEADS_IN_FLIGHT, sent: 0, failed: 0 });
  });
});

describe("a lead that must arrive", () => {
  const reward: Lead = {
    ...lead,
    kind: "referral-reward",
    reward: { points: 5000, friendVisitId: "v-1", key: "referral:g-2" },
  };

  it("is sent only when every configured service accepted it", async () => {
    const automation = await receiver();
    const hooks = await receiver();
    const both = createHttpLeadWebhooks({
      targets: [
        { name: "automation", url: automation.url },
        { name: "hooks", url: hooks.url },
      ],
      timeoutMs: LEAD_WEBHOOK_TIMEOUT_MS,
    });
    expect(await both.deliver(reward)).toBe("sent");
    expect(automation.received).toEqual([
      { path: "/", body: expect.objectContaining({ kind: "referral-reward", reward: reward.reward }) },
    ]);
    expect(hooks.received).toHaveLength(1);

    const refusing = await receiver(503);
    vi.spyOn(logger, "warn").mockImplementation(() => {});
    const oneRefuses = createHttpLeadWebhooks({
      targets: [
        { name: "automation", url: refusing.url },
        { name: "hooks", url: hooks.url },
      ],
      timeoutMs: LEAD_WEBHOOK_TIMEOUT_MS,
    });
    expect(await oneRefuses.deliver(reward)).toBe("failed");
    const gone = createHttpLeadWebhooks({
      targets: [{ name: "automation", url: "http://127.0.0.1:1" }],
      timeoutMs: LEAD_WEBHOOK_TIMEOUT_MS,
    });
    expect(await gone.deliver(reward)).toBe("failed");
    const hanging = await receiver("hang");
    const slow = createHttpLeadWebhooks({
      targets: [{ name: "automation", url: hanging.url }],
      timeoutMs: MIN_LEAD_WEBHOOK_TIMEOUT_MS,
    });
    expect(await slow.deliver(reward)).toBe("failed");
  });

  it("says so when no service is configured", async () => {
    expect(await createLeadWebhooks({ LEAD_WEBHOOK_TIMEOUT_MS }).deliver(reward)).toBe("off");
  });
});
