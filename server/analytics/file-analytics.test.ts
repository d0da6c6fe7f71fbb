import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AnalyticsEvent, RecordedEvent } from "./analytics.server";
import { eventually } from "./collector.test-support";
import { createFileAnalytics, eventsFileName, FILE_WRITE_EVENTS } from "./file-analytics.server";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "analytics-"));
  dirs.push(dir);
  return dir;
}

function readLines(file: string): RecordedEvent[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as RecordedEvent);
}

describe("the file adapter", () => {
  it("appends one JSON line per event to the file of its UTC day, in the background", async () => {
    const dir = path.join(tempDir(), "analytics");
    let now = Date.parse("2026-03-01T23:59:59.500Z");
    const analytics = createFileAnalytics(dir, { clock: () => now, flushIntervalMs: 60_000 });
    analytics.record({ name: "time_held", properties: { centerId: "c-1", durationMs: 600_000 }, requestId: "req-1" });
    now = Date.parse("2026-03-02T00:00:00.100Z");
    analytics.record({ name: "hold_expired", properties: { centerId: "c-1" } });
    analytics.record({ name: "booked", properties: { bookingId: "bk-1", prepaid: false } });
    // Nothing is written in the caller's turn.
    expect(fs.existsSync(dir)).toBe(false);

    await analytics.flush();
    expect(fs.readdirSync(dir).sort()).toEqual(["events-2026-03-01.jsonl", "events-2026-03-02.jsonl"]);
    const first = readLines(path.join(dir, "events-2026-03-01.jsonl"));
    expect(first).toEqual([
      {
        name: "time_held",
        properties: { centerId: "c-1", durationMs: 600_000 },
        requestId: "req-1",
        messageId: expect.any(String),
        timestamp: "2026-03-01T23:59:59.500Z",
      },
    ]);
    expect(readLines(path.join(dir, "events-2026-03-02.jsonl")).map((event) => event.name)).toEqual([
      "hold_expired",
      "booked",
    ]);
    expect(analytics.stats()).toEqual({ queued: 0, sent: 3, dropped: 0, failedBatches: 0 });
    await analytics.close();
  });

  it.skipIf(process.platform === "win32")(
    "makes the directory 0700 and the files 0600, tightening a file that was looser",
    async () => {
      const dir = path.join(tempDir(), "analytics");
      fs.mkdirSync(dir, { mode: 0o755 });
      fs.chmodSync(dir, 0o755);
      const existing = path.join(dir, "events-2026-03-01.jsonl");
      fs.writeFileSync(existing, "");
      fs.chmodSync(existing, 0o644);
      const analytics = createFileAnalytics(dir, { clock: () => Date.parse("2026-03-01T12:00:00Z") });
      analytics.record({ name: "page_viewed", properties: { path: "/" } });
      await analytics.close();
      expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
      expect(fs.statSync(existing).mode & 0o777).toBe(0o600);
      expect(readLines(existing)).toHaveLength(1);
    },
  );

  it("writes a full group without waiting for the interval", async () => {
    const dir = tempDir();
    const analytics = createFileAnalytics(dir, {
      clock: () => Date.parse("2026-03-01T12:00:00Z"),
      flushIntervalMs: 60_000,
    });
    for (let i = 0; i < FILE_WRITE_EVENTS; i += 1)
      analytics.record({ name: "page_viewed", properties: { serviceCount: i } });
    const file = path.join(dir, "events-2026-03-01.jsonl");
    await eventually(() => fs.existsSync(file) && readLines(file).length === FILE_WRITE_EVENTS, "a full group written");
    expect(readLines(file).map((event) => event.properties.serviceCount)).toEqual([...Array(FILE_WRITE_EVENTS).keys()]);
    await analytics.close();
  });

  it("writes what is pending at close, and nothing recorded after it", async () => {
    const dir = tempDir();
    const analytics = createFileAnalytics(dir, {
      clock: () => Date.parse("2026-03-01T12:00:00Z"),
      flushIntervalMs: 60_000,
    });
    for (let i = 0; i < 3; i += 1) analytics.record({ name: "page_viewed", properties: { serviceCount: i } });
    await analytics.close();
    analytics.record({ name: "page_viewed", properties: { serviceCount: 99 } });
    await analytics.flush();
    expect(readLines(path.join(dir, "events-2026-03-01.jsonl")).map((event) => event.properties.serviceCount)).toEqual([
      0, 1, 2,
    ]);
    expect(analytics.stats()).toEqual({ queued: 0, sent: 3, dropped: 1, failedBatches: 0 });
  });

  it("sanitises like the collector: no password or code, contact fields only with includeContact", async () => {
    const properties = {
      path: "/register",
      password: "hunter2",
      code: "739184",
      email: "ana@example.com",
      phone: "+1 512-555-0141",
    };
    const clock = () => Date.parse("2026-03-01T12:00:00Z");
    const plainDir = tempDir();
    const plain = createFileAnalytics(plainDir, { clock });
    plain.record({ name: "account_registered", properties } as unknown as AnalyticsEvent);
    await plain.close();
    const withContactDir = tempDir();
    const withContact = createFileAnalytics(withContactDir, { clock, includeContact: true });
    withContact.record({ name: "account_registered", properties } as unknown as AnalyticsEvent);
    await withContact.close();

    const plainText = fs.readFileSync(path.join(plainDir, "events-2026-03-01.jsonl"), "utf8");
    expect(JSON.parse(plainText).properties).toEqual({ path: "/register" });
    expect(plainText).not.toContain("hunter2");
    expect(readLines(path.join(withContactDir, "events-2026-03-01.jsonl"))[0].properties).toEqual({
      path: "/register",
      email: "ana@example.com",
      phone: "+1 512-555-0141",
    });
  });

  it("counts a write that fails, throws nothing, and writes again once it can", async () => {
    const parent = tempDir();
    const dir = path.join(parent, "analytics");
    fs.writeFileSync(dir, "not a directory");
    const analytics = createFileAnalytics(dir, { clock: () => Date.parse("2026-03-01T12:00:00Z") });
    analytics.record({ name: "page_viewed", properties: { path: "/" } });
    await analytics.flush();
    expect(analytics.stats()).toEqual({ queued: 0, sent: 0, dropped: 1, failedBatches: 1 });

    fs.rmSync(dir);
    analytics.record({ name: "page_viewed", properties: { path: "/locations" } });
    await analytics.close();
    expect(readLines(path.join(dir, "events-2026-03-01.jsonl")).map((event) => event.properties.path)).toEqual([
      "/locations",
    ]);
  });

  it("names files by the UTC day of the event", () => {
    expect(eventsFileName("2026-12-31T23:59:59.999Z")).toBe("events-2026-12-31.jsonl");
  });
});
