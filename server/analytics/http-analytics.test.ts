import { afterEach, describe, expect, it, vi } from "vitest";
import { logger } from "../observability/logger.server";
import { type Answer, eventually, startCollector } from "./collector.test-support";
import type { AnalyticsEvent } from "./analytics.server";
import { DEFAULT_CLOSE_TIMEOUT_MS } from "./batcher.server";
import {
  batchBody,
  CHUNK_BYTES,
  chunkBody,
  type CollectorRequest,
  createHttpAnalytics,
  MAX_BATCH_BYTES,
  MAX_BATCH_EVENTS,
  MAX_RETRY_DELAY_MS,
  retryDelayMs,
  TIMEOUT_MS,
} from "./http-analytics.server";

const viewed = (serviceCount: number, extra: Partial<AnalyticsEvent["properties"]> = {}): AnalyticsEvent => ({
  name: "page_viewed",
  properties: { path: "/locations", serviceCount, ...extra },
});

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

async function collector(answer?: (index: number) => Answer) {
  const started = await startCollector(answer);
  cleanups.push(() => started.close());
  return started;
}

function analyticsFor(options: Parameters<typeof createHttpAnalytics>[0]) {
  const analytics = createHttpAnalytics(options);
  cleanups.push(() => analytics.close(50));
  return analytics;
}

describe("the spec's limits", () => {
  it("are the defaults", () => {
    expect(MAX_BATCH_EVENTS).toBe(10);
    expect(MAX_BATCH_BYTES).toBe(450 * 1024);
    expect(CHUNK_BYTES).toBe(64 * 1024);
    expect(TIMEOUT_MS).toBe(5000);
    expect(MAX_RETRY_DELAY_MS).toBe(5000);
  });

  it("back off by doubling and never wait more than 5 s", () => {
    expect([1, 2, 3, 4, 5].map((attempt) => retryDelayMs(attempt))).toEqual([1000, 2000, 4000, 5000, 5000]);
    for (let attempt = 1; attempt <= 60; attempt += 1) expect(retryDelayMs(attempt)).toBeLessThanOrEqual(5000);
    expect(retryDelayMs(3, 10, 25)).toBe(25);
  });

  it("by default abort a request after 5 s and retry after 1, 2 and 4 s, then drop the batch", async () => {
    vi.useFakeTimers();
    const calls: { at: number; signal: AbortSignal }[] = [];
    const request: CollectorRequest = ({ signal }) => {
      calls.push({ at: Date.now(), signal });
      return new Promise((_, reject) => signal.addEventListener("abort", () => reject(new Error("aborted"))));
    };
    const analytics = createHttpAnalytics({ url: "http://collector.invalid/batch", includeContact: false, request });
    const start = Date.now();
    analytics.record(viewed(1));
    await vi.advanceTimersByTimeAsync(1000); // the interval for a batch that is not full
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(4999);
    expect(calls[0].signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls[0].signal.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(calls.map((call) => call.at - start)).toEqual([1000, 7000, 14_000, 23_000]);
    expect(calls.every((call) => call.signal.aborted)).toBe(true);
    expect(analytics.stats()).toEqual({ queued: 0, sent: 0, dropped: 1, failedBatches: 1 });
  });
});

describe("batches", () => {
  it("hold at most 10 events: 25 events go as 10, 10 and 5, in order, with the headers and shape the collector expects", async () => {
    const server = await collector();
    const analytics = analyticsFor({ url: server.url, writeKey: "wk_test_123", includeContact: false });
    for (let i = 0; i < 25; i += 1) analytics.record(viewed(i));
    await analytics.flush();
    expect(server.received.map((request) => request.json.batch.length)).toEqual([10, 10, 5]);
    expect(server.accepted().map((event) => event.properties.serviceCount)).toEqual([...Array(25).keys()]);
    expect(new Set(server.accepted().map((event) => event.messageId)).size).toBe(25);
    for (const request of server.received) {
      expect(request.headers["content-type"]).toBe("application/json");
      expect(request.headers.authorization).toBe("Bearer wk_test_123");
      expect(Object.keys(request.json)).toEqual(["batch", "sentAt"]);
      expect(new Date(request.json.sentAt).toISOString()).toBe(request.json.sentAt);
    }
    expect(server.accepted()[0]).toMatchObject({
      name: "page_viewed",
      properties: { path: "/locations" },
      timestamp: expect.any(String),
    });
    expect(analytics.stats()).toEqual({ queued: 0, sent: 25, dropped: 0, failedBatches: 0 });
  });

  it("stay under 450 KB: large events go fewer to a batch, none lost", async () => {
    const server = await collector();
    const analytics = analyticsFor({ url: server.url, includeContact: false });
    for (let i = 0; i < 20; i += 1) analytics.record(viewed(i, { userAgentFamily: "x".repeat(60_000) }));
    await analytics.flush();
    for (const request of server.received) expect(Buffer.byteLength(request.body)).toBeLessThanOrEqual(MAX_BATCH_BYTES);
    expect(Math.max(...server.received.map((request) => request.json.batch.length))).toBeLessThan(MAX_BATCH_EVENTS);
    expect(server.accepted().map((event) => event.properties.serviceCount)).toEqual([...Array(20).keys()]);
  });

  it("are sent without a flush once the interval passes, and the authorization header only with a write key", async () => {
    const server = await collector();
    const analytics = analyticsFor({ url: server.url, includeContact: false, flushIntervalMs: 20 });
    analytics.record(viewed(1));
    await eventually(() => server.received.length === 1, "the interval's batch");
    expect(server.received[0].headers.authorization).toBeUndefined();
  });
});

describe("chunks of 64 KB", () => {
  it("cut a body into consecutive pieces of at most 64 KB", () => {
    const body = Buffer.from(Array.from({ length: 200_000 }, (_, i) => i % 251));
    const chunks = chunkBody(body);
    expect(chunks.map((chunk) => chunk.length)).toEqual([65_536, 65_536, 65_536, 3_392]);
    expect(Buffer.concat(chunks).equals(body)).toBe(true);
    expect(chunkBody(Buffer.alloc(131_072)).map((chunk) => chunk.length)).toEqual([65_536, 65_536]);
    expect(chunkBody(Buffer.alloc(0))).toEqual([]);
  });

  it("are what the sender writes", async () => {
    const posted: Buffer[][] = [];
    const request: CollectorRequest = async ({ chunks }) => {
      posted.push([...chunks]);
      return 200;
    };
    const analytics = analyticsFor({ url: "http://collector.invalid/batch", includeContact: false, request });
    for (let i = 0; i < 6; i += 1) analytics.record(viewed(i, { userAgentFamily: "y".repeat(50_000) }));
    await analytics.flush();
    expect(posted).toHaveLength(1);
    expect(posted[0].length).toBeGreaterThan(1);
    for (const chunk of posted[0]) expect(chunk.length).toBeLessThanOrEqual(CHUNK_BYTES);
    expect(JSON.parse(Buffer.concat(posted[0]).toString()).batch).toHaveLength(6);
  });

  it("never carry an event larger than one chunk: it is dropped and counted", async () => {
    const server = await collector();
    const analytics = analyticsFor({ url: server.url, includeContact: false });
    analytics.record(viewed(1, { userAgentFamily: "z".repeat(CHUNK_BYTES) }));
    analytics.record(viewed(2));
    await analytics.flush();
    expect(server.accepted().map((event) => event.properties.serviceCount)).toEqual([2]);
    expect(server.received.some((request) => request.body.includes("zzzz"))).toBe(false);
    expect(analytics.stats()).toEqual({ queued: 0, sent: 1, dropped: 1, failedBatches: 0 });
  });

  it("matches the body the builder makes", () => {
    const body = batchBody(['{"a":1}', '{"b":2}'], "2026-03-01T10:00:00.000Z");
    expect(JSON.parse(body)).toEqual({ batch: [{ a: 1 }, { b: 2 }], sentAt: "2026-03-01T10:00:00.000Z" });
  });
});

describe("a collector that fails", () => {
  it("and never answers: the request is aborted at the timeout, the batch dropped and counted", async () => {
    const server = await collector(() => "hang");
    const analytics = analyticsFor({ url: server.url, includeContact: false, timeoutMs: 100, maxAttempts: 1 });
    analytics.record(viewed(1));
    await analytics.flush();
    await eventually(() => server.abandoned.length === 1, "the collector sees the request abandoned");
    expect(server.received).toHaveLength(1);
    expect(analytics.stats()).toEqual({ queued: 0, sent: 0, dropped: 1, failedBatches: 1 });
  });

  it("with a 500: the batch is retried and arrives once", async () => {
    const server = await collector((index) => (index === 0 ? 500 : 200));
    const analytics = analyticsFor({ url: server.url, includeContact: false, retryBaseDelayMs: 10 });
    for (let i = 0; i < 3; i += 1) analytics.record(viewed(i));
    await analytics.flush();
    expect(server.received).toHaveLength(2);
    const ids = (index: number) => server.received[index].json.batch.map((event) => event.messageId);
    expect(ids(1)).toEqual(ids(0));
    expect(server.accepted()).toHaveLength(3);
    expect(analytics.stats()).toEqual({ queued: 0, sent: 3, dropped: 0, failedBatches: 0 });
  });

  it("refusing the batch itself (400): not retried, dropped and counted", async () => {
    const server = await collector(() => 400);
    const analytics = analyticsFor({ url: server.url, includeContact: false, retryBaseDelayMs: 1 });
    analytics.record(viewed(1));
    await analytics.flush();
    expect(server.received).toHaveLength(1);
    expect(analytics.stats()).toEqual({ queued: 0, sent: 0, dropped: 1, failedBatches: 1 });
  });

  it("refusing the connection: nothing thrown, the batch dropped and counted, one warn line without the events", async () => {
    const warn = vi.spyOn(logger, "warn");
    const closed = await startCollector();
    const url = closed.url;
    closed.close();
    const analytics = analyticsFor({ url, includeContact: false, retryBaseDelayMs: 1, maxRetryDelayMs: 2 });
    for (let i = 0; i < 3; i += 1)
      expect(() => analytics.record(viewed(i, { centerId: "center-secret-id" }))).not.toThrow();
    await analytics.flush();
    expect(analytics.stats()).toEqual({ queued: 0, sent: 0, dropped: 3, failedBatches: 1 });
    await eventually(() => warn.mock.calls.length > 0, "the warn line");
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][1]).toMatchObject({ adapter: "http", undeliverable: 3, lastFailure: "ECONNREFUSED" });
    expect(JSON.stringify(warn.mock.calls)).not.toContain("center-secret-id");
  });

  it("that hangs under a flood: the queue stays bounded, the oldest are dropped and the newest sent", async () => {
    const warn = vi.spyOn(logger, "warn");
    const server = await collector(() => "hold");
    const analytics = analyticsFor({ url: server.url, includeContact: false, timeoutMs: 10_000 });
    for (let i = 0; i < 10; i += 1) analytics.record(viewed(-1));
    await eventually(() => server.received.length === 1, "the first batch in flight");

    let longest = 0;
    for (let i = 0; i < 5000; i += 1) {
      analytics.record(viewed(i));
      longest = Math.max(longest, analytics.stats().queued);
    }
    expect(longest).toBe(1000);
    expect(analytics.stats()).toMatchObject({ queued: 1000, dropped: 4000 });
    await eventually(() => warn.mock.calls.length > 0, "the warn line");
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][1]).toMatchObject({ adapter: "http", queueFull: 4000 });

    server.release();
    await analytics.flush();
    const counts = server.accepted().map((event) => event.properties.serviceCount);
    expect(counts).toEqual([...Array(10).fill(-1), ...Array.from({ length: 1000 }, (_, i) => 4000 + i)]);
    expect(analytics.stats()).toEqual({ queued: 0, sent: 1010, dropped: 4000, failedBatches: 0 });
  });
});

describe("close", () => {
  it("drains what is queued to a live collector, then records nothing more", async () => {
    const server = await collector();
    const analytics = analyticsFor({ url: server.url, includeContact: false, flushIntervalMs: 60_000 });
    for (let i = 0; i < 23; i += 1) analytics.record(viewed(i));
    await analytics.close(DEFAULT_CLOSE_TIMEOUT_MS);
    expect(server.accepted()).toHaveLength(23);
    expect(analytics.stats()).toEqual({ queued: 0, sent: 23, dropped: 0, failedBatches: 0 });

    expect(() => analytics.record(viewed(99))).not.toThrow();
    await analytics.flush();
    await analytics.close();
    expect(server.received.flatMap((request) => request.json.batch)).toHaveLength(23);
    expect(analytics.stats()).toEqual({ queued: 0, sent: 23, dropped: 1, failedBatches: 0 });
  });

  it("gives up at its deadline on a collector that hangs, counting what it could not send", async () => {
    const server = await collector(() => "hang");
    const analytics = analyticsFor({ url: server.url, includeContact: false, timeoutMs: 10_000 });
    for (let i = 0; i < 15; i += 1) analytics.record(viewed(i));
    await analytics.close(100);
    expect(analytics.stats()).toEqual({ queued: 0, sent: 0, dropped: 15, failedBatches: 1 });
    await eventually(() => server.abandoned.length === 1, "the request in flight abandoned");
  });
});

describe("what reaches the collector", () => {
  const sensitive = {
    path: "/reset-password?token=tok_9f8e7d",
    method: "password",
    password: "hunter2",
    code: "739184",
    cardNumber: "4242424242424242",
    reason: "card 4000 0566 5566 5556 declined",
    email: "ana@example.com",
    phone: "+1 512-555-0141",
  };

  it("has no password, code, token or card number, and no contact fields by default", async () => {
    const server = await collector();
    const analytics = analyticsFor({ url: server.url, includeContact: false });
    analytics.record({ name: "signed_in", properties: sensitive } as unknown as AnalyticsEvent);
    await analytics.flush();
    expect(server.accepted()[0].properties).toEqual({ path: "/reset-password", method: "password" });
    for (const secret of [
      "hunter2",
      "739184",
      "4242424242424242",
      "4000 0566",
      "tok_9f8e7d",
      "ana@example.com",
      "555-0141",
    ]) {
      expect(server.received[0].body).not.toContain(secret);
    }
  });

  it("has email and phone when the adapter is made with includeContact", async () => {
    const server = await collector();
    const analytics = analyticsFor({ url: server.url, includeContact: true });
    analytics.record({ name: "account_registered", properties: sensitive } as unknown as AnalyticsEvent);
    await analytics.flush();
    expect(server.accepted()[0].properties).toEqual({
      path: "/reset-password",
      method: "password",
      email: "ana@example.com",
      phone: "+1 512-555-0141",
    });
    expect(server.received[0].body).not.toContain("hunter2");
  });

  it("is nothing, without an error, for an event that cannot be read", async () => {
    const server = await collector();
    const analytics = analyticsFor({ url: server.url, includeContact: false });
    const hostile = Object.defineProperty({}, "path", {
      enumerable: true,
      get() {
        throw new Error("boom");
      },
    });
    expect(() => analytics.record({ name: "page_viewed", properties: hostile })).not.toThrow();
    expect(() => analytics.record(null as unknown as AnalyticsEvent)).not.toThrow();
    expect(() => analytics.record({ name: "clicked", properties: {} } as unknown as AnalyticsEvent)).not.toThrow();
    await analytics.flush();
    expect(server.received).toHaveLength(0);
    expect(analytics.stats()).toEqual({ queued: 0, sent: 0, dropped: 3, failedBatches: 0 });
  });
});
