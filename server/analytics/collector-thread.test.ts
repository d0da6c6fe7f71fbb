import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { logger } from "../observability/logger.server";
import type { AnalyticsEvent } from "./analytics.server";
import { DEFAULT_CLOSE_TIMEOUT_MS } from "./batcher.server";
import {
  createThreadedHttpAnalytics,
  HANDOFF_EVENTS,
  MAX_PENDING_HANDOFFS,
  type ThreadedHttpAnalyticsOptions,
} from "./collector-thread.server";
import { type Answer, eventually, startCollector } from "./collector.test-support";
import { MAX_BATCH_EVENTS } from "./http-analytics.server";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function collector(answer?: (index: number) => Answer) {
  const started = await startCollector(answer);
  cleanups.push(() => started.close());
  return started;
}

/**
 * The adapter under test. Its thread keeps the process's priority unless the test says otherwise:
 * at the lowest (production's), a machine whose cores are busy elsewhere would starve it, and what
 * these tests check is what is delivered, not how soon.
 */
function threaded(options: ThreadedHttpAnalyticsOptions, threadEntry?: URL) {
  const analytics = createThreadedHttpAnalytics({ priority: "process", ...options }, threadEntry);
  cleanups.push(() => analytics.close(50));
  return analytics;
}

const viewed = (index: number): AnalyticsEvent => ({
  name: "page_viewed",
  properties: { path: `/locations/${index}`, status: 200 },
  requestId: `req-${index}`,
});

describe("the HTTP adapter on its own thread", () => {
  it("posts what a request recorded, in batches of at most ten, and counts it once flushed", async () => {
    const target = await collector();
    const analytics = threaded({ url: target.url, writeKey: "wk_test", includeContact: false });
    for (let index = 0; index < 25; index += 1) analytics.record(viewed(index));
    await analytics.flush();

    expect(target.received.map((request) => request.json.batch.length)).toEqual([10, 10, 5]);
    expect(target.received.every((request) => request.headers.authorization === "Bearer wk_test")).toBe(true);
    const events = target.accepted();
    expect(events.map((event) => event.requestId)).toEqual(Array.from({ length: 25 }, (_, index) => `req-${index}`));
    expect(events[0]).toEqual({
      name: "page_viewed",
      properties: { path: "/locations/0", status: 200 },
      requestId: "req-0",
      messageId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(new Set(events.map((event) => event.messageId)).size).toBe(25);
    expect(analytics.stats()).toEqual({ queued: 0, sent: 25, dropped: 0, failedBatches: 0 });
  });

  it("applies the allow-list in the request: a later change to the caller's objects is not sent, nor is a field outside the list", async () => {
    const target = await collector();
    const analytics = threaded({ url: target.url, includeContact: false });
    const serviceIds = ["svc-1"];
    const properties = { serviceIds, email: "ana@example.com", password: "hunter2" };
    analytics.record({ name: "service_chosen", properties } as unknown as AnalyticsEvent);
    serviceIds.push("svc-2");
    await analytics.flush();
    expect(target.accepted().map((event) => event.properties)).toEqual([{ serviceIds: ["svc-1"] }]);
  });

  it("hands a full outbox over at once, and a smaller one after a short wait", async () => {
    const target = await collector();
    const analytics = threaded({ url: target.url, includeContact: false });
    for (let index = 0; index < HANDOFF_EVENTS; index += 1) analytics.record(viewed(index));
    // No flush: a full outbox goes to the thread when it fills, and full batches go out at once.
    await eventually(() => target.accepted().length === HANDOFF_EVENTS, "a full outbox delivered without a flush");
    expect(target.received.every((request) => request.json.batch.length === MAX_BATCH_EVENTS)).toBe(true);
  });

  it("delivers every event of a busy instance's bursts to a collector that answers, in order and once each, however slow the machine", async () => {
    const target = await collector();
    const analytics = threaded({ url: target.url, includeContact: false });
    // Bursts of several hand-overs each, one after another: each is delivered whole and in order.
    // The largest burst the hand-overs may hold is the next test's; how fast the thread keeps up is
    // the bench's to measure (bench/collector-thread.ts). Kept to a few dozen posts, so that a
    // machine whose both cores are busy elsewhere still runs it well within the test timeout.
    const burst = 2 * HANDOFF_EVENTS;
    const total = 3 * burst;
    for (let first = 0; first < total; first += burst) {
      for (let index = first; index < first + burst; index += 1) analytics.record(viewed(index));
      await analytics.flush();
    }
    const delivered = target.accepted();
    expect(delivered.map((event) => event.requestId)).toEqual(
      Array.from({ length: total }, (_, index) => `req-${index}`),
    );
    expect(new Set(delivered.map((event) => event.messageId)).size).toBe(total);
    expect(analytics.stats()).toEqual({ queued: 0, sent: total, dropped: 0, failedBatches: 0 });
  });

  it("never lets hand-overs pile up: past ten the thread has not taken in, the outbox is dropped and counted", async () => {
    const target = await collector();
    const analytics = threaded({ url: target.url, includeContact: false });
    await analytics.flush(); // the thread has started
    // One synchronous burst: the thread's answers cannot come in before it ends.
    for (let index = 0; index < 5_000; index += 1) analytics.record(viewed(index));
    await analytics.flush();
    const delivered = target.accepted().map((event) => event.requestId);
    const held = MAX_PENDING_HANDOFFS * HANDOFF_EVENTS;
    expect(delivered).toEqual(Array.from({ length: held }, (_, index) => `req-${index}`));
    expect(analytics.stats()).toMatchObject({ sent: held, dropped: 5_000 - held, queued: 0 });
  });

  it("refuses an event too large to send where it is recorded, and sends the rest", async () => {
    const target = await collector();
    const analytics = threaded({ url: target.url, includeContact: false });
    analytics.record({ name: "page_viewed", properties: { userAgentFamily: "x".repeat(70 * 1024) } });
    analytics.record(viewed(1));
    await analytics.flush();
    expect(target.accepted().map((event) => event.requestId)).toEqual(["req-1"]);
    expect(analytics.stats()).toEqual({ queued: 0, sent: 1, dropped: 1, failedBatches: 0 });
  });

  it("when the thread cannot run, says so once and counts every event as lost; flush and close still return", async () => {
    const target = await collector();
    const errors: unknown[] = [];
    const spy = vi.spyOn(logger, "error").mockImplementation((...args) => void errors.push(args));
    cleanups.push(() => spy.mockRestore());
    const missing = new URL("./no-such-thread.mjs", import.meta.url);
    const analytics = threaded({ url: target.url, includeContact: false }, missing);
    for (let index = 0; index < 250; index += 1) analytics.record(viewed(index));
    await analytics.flush();
    await eventually(() => errors.length > 0, "the thread's failure logged");
    for (let index = 250; index < 260; index += 1) analytics.record(viewed(index));
    await analytics.flush();
    await analytics.close(100);
    expect(errors).toEqual([["analytics collector thread stopped", { why: expect.any(String) }]]);
    expect(target.received).toEqual([]);
    expect(analytics.stats()).toEqual({ queued: 0, sent: 0, dropped: 260, failedBatches: 0 });
  });

  it("never keeps the process up: a script that records and never closes ends", async ({ signal }) => {
    const module = path.join(import.meta.dirname, "collector-thread.server.ts");
    const script = `import(${JSON.stringify(module)}).then(({ createThreadedHttpAnalytics }) => {
      const analytics = createThreadedHttpAnalytics({ url: "http://127.0.0.1:9/batch", includeContact: false });
      analytics.record({ name: "page_viewed", properties: { path: "/" } });
    });`;
    const tsx = path.join(process.cwd(), "node_modules", ".bin", "tsx");
    // A script kept up never ends: the test's timeout fails it, and its signal stops the script.
    await expect(promisify(execFile)(tsx, ["-e", script], { signal })).resolves.toBeDefined();
  });

  it("counts, never throws, an event it cannot read or that names no event of the list", async () => {
    const target = await collector();
    const analytics = threaded({ url: target.url, includeContact: false });
    const hostile = {
      name: "page_viewed",
      properties: new Proxy(
        {},
        {
          ownKeys: () => {
            throw new Error("no keys for you");
          },
        },
      ),
    };
    expect(() => analytics.record(hostile as unknown as AnalyticsEvent)).not.toThrow();
    analytics.record({ name: "card_entered", properties: {} } as unknown as AnalyticsEvent);
    analytics.record(viewed(1));
    await analytics.flush();
    expect(target.accepted()).toHaveLength(1);
    expect(analytics.stats()).toEqual({ queued: 0, sent: 1, dropped: 2, failedBatches: 0 });
  });

  it("at close, sends what is queued and refuses what comes after", async () => {
    const target = await collector();
    const analytics = threaded({ url: target.url, includeContact: false });
    await analytics.flush(); // the thread has started: the deadline is for sending, not for starting a thread
    for (let index = 0; index < 3; index += 1) analytics.record(viewed(index));
    await analytics.close(DEFAULT_CLOSE_TIMEOUT_MS);
    analytics.record(viewed(9));
    expect(target.accepted()).toHaveLength(3);
    expect(analytics.stats()).toEqual({ queued: 0, sent: 3, dropped: 1, failedBatches: 0 });
  });

  it("with a collector that never answers, close returns by its deadline and counts what it could not send", async () => {
    const target = await collector(() => "hang");
    const analytics = threaded({ url: target.url, includeContact: false, maxQueuedEvents: 50 });
    for (let index = 0; index < 200; index += 1) analytics.record(viewed(index));
    // Returning at all is the deadline kept: the collector never answers, and the posts' own
    // timeouts and retries (TIMEOUT_MS, MAX_ATTEMPTS) would outlast the test.
    await analytics.close(300);
    // The queue held at most 50 (the oldest dropped first), and nothing was delivered.
    expect(analytics.stats()).toMatchObject({ queued: 0, sent: 0, dropped: 200 });
  });

  it.runIf(process.platform === "linux")(
    "runs at the lowest CPU priority, so a saturated machine serves requests first",
    async () => {
      const niceOfThreads = () =>
        fs
          .readdirSync("/proc/self/task")
          .map((thread) =>
            Number(fs.readFileSync(`/proc/self/task/${thread}/stat`, "utf8").split(") ")[1].split(" ")[16]),
          );
      const before = niceOfThreads().filter((nice) => nice === 19).length;
      const target = await collector();
      const analytics = threaded({ url: target.url, includeContact: false, priority: "lowest" });
      await analytics.flush(); // the thread has started
      expect(niceOfThreads().filter((nice) => nice === 19).length).toBe(before + 1);
    },
  );
});
