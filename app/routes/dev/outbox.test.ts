import { describe, expect, it } from "vitest";
import type { Services } from "#server/services";
import { parseEnv } from "#server/env.server";
import { createRequestContext } from "#server/request-context.server";
import type { OutboxEntry } from "#server/notify/notifier.server";
import { loader } from "./outbox";

const message: OutboxEntry = {
  id: "m1",
  channel: "email",
  kind: "one-time-code",
  to: "mia@example.com",
  subject: "Your Glow Clinic code",
  body: "Your Glow Clinic code is 123456.",
  createdAt: "2026-11-22T03:00:00.000Z",
};

function load(options: { fromThisMachine: boolean; env?: Record<string, string> }) {
  const context = createRequestContext({
    services: { env: parseEnv(options.env ?? {}), notifier: { recent: async () => [message] } } as unknown as Services,
    fromThisMachine: options.fromThisMachine,
    nonce: "n",
    clientIp: "203.0.113.5",
  });
  return loader({
    request: new Request("http://shop.example/dev/outbox"),
    params: {},
    context,
  } as unknown as Parameters<typeof loader>[0]);
}

async function statusOf(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 200;
  } catch (error) {
    return (error as { init?: { status?: number } }).init?.status ?? 500;
  }
}

describe("the outbox page", () => {
  it("shows the messages to a request from this machine", async () => {
    const page = await load({ fromThisMachine: true });
    expect(page.messages).toEqual([message]);
    expect(page.openToEveryone).toBe(false);
  });
  it("is not found for a request from anywhere else, so nobody can read another's one-time code", async () => {
    expect(await statusOf(load({ fromThisMachine: false }))).toBe(404);
  });
  it("answers other machines only when DEV_OUTBOX_ALLOW_REMOTE is set, and says so", async () => {
    const page = await load({ fromThisMachine: false, env: { DEV_OUTBOX_ALLOW_REMOTE: "true" } });
    expect(page.messages).toEqual([message]);
    expect(page.openToEveryone).toBe(true);
  });
  it("is off when DEV_OUTBOX=false, even on this machine", async () => {
    expect(await statusOf(load({ fromThisMachine: true, env: { DEV_OUTBOX: "false" } }))).toBe(404);
  });
  it("never exists with a real back end", async () => {
    const real = {
      SPA_BASE_URL: "https://api.zenoti.com",
      SPA_API_KEY: "key",
      SPA_AVAILABILITY_GUEST_ID: "0b6c2f7e-1d2a-4c3b-9e8f-7a6b5c4d3e2f",
      SESSION_SECRETS: "x".repeat(32),
      SMTP_URL: "smtp://mail.example.com:587",
    };
    expect(await statusOf(load({ fromThisMachine: true, env: { ...real, DEV_OUTBOX_ALLOW_REMOTE: "true" } }))).toBe(
      404,
    );
    expect(() => parseEnv({ ...real, DEV_OUTBOX: "true" })).toThrow(/DEV_OUTBOX/);
  });
});
