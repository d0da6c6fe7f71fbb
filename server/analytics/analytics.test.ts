import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseEnv } from "../env.server";
import { createAnalytics } from "../compose.server";
import { createNoAnalytics } from "./analytics.server";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "analytics-factory-"));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe("createAnalytics", () => {
  it("records nothing with ANALYTICS=off, even with a collector configured, and writes no file", () => {
    const dir = tempDir();
    const analytics = createAnalytics(
      parseEnv({ NODE_ENV: "test", ANALYTICS: "off", ANALYTICS_URL: "http://127.0.0.1:9/batch" }),
      dir,
    );
    expect(analytics.kind).toBe("off");
    analytics.record({ name: "page_viewed", properties: { path: "/" } });
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("posts to the collector when ANALYTICS_URL is set, with the write key and contact fields as configured", async () => {
    const bodies: { authorization?: string; body: { batch: { properties: Record<string, unknown> }[] } }[] = [];
    const server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        bodies.push({ authorization: req.headers.authorization, body: JSON.parse(body) });
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/batch`;

    const env = parseEnv({
      NODE_ENV: "test",
      ANALYTICS_URL: url,
      ANALYTICS_WRITE_KEY: "wk_live",
      ANALYTICS_CONTACT_FIELDS: "true",
    });
    const analytics = createAnalytics(env, tempDir());
    cleanups.push(() => analytics.close(50));
    expect(analytics.kind).toBe("http");
    analytics.record({ name: "account_registered", properties: { email: "ana@example.com" } });
    await analytics.flush();
    expect(bodies).toEqual([
      {
        authorization: "Bearer wk_live",
        body: expect.objectContaining({
          batch: [expect.objectContaining({ properties: { email: "ana@example.com" } })],
        }),
      },
    ]);
  });

  it("writes JSON lines under <DATA_DIR>/analytics without one, leaving contact fields out by default", async () => {
    const dataDir = tempDir();
    const env = parseEnv({ NODE_ENV: "test", DATA_DIR: dataDir });
    const analytics = createAnalytics(env, env.DATA_DIR);
    expect(analytics.kind).toBe("file");
    analytics.record({ name: "account_registered", properties: { email: "ana@example.com", kind: "guest" } });
    await analytics.close();
    const files = fs.readdirSync(path.join(dataDir, "analytics"));
    expect(files).toEqual([expect.stringMatching(/^events-\d{4}-\d{2}-\d{2}\.jsonl$/)]);
    const line = JSON.parse(fs.readFileSync(path.join(dataDir, "analytics", files[0]), "utf8"));
    expect(line).toMatchObject({ name: "account_registered", properties: { kind: "guest" } });
    expect(line.properties.email).toBeUndefined();
  });
});

describe("createNoAnalytics", () => {
  it("records nothing and never fails", async () => {
    const analytics = createNoAnalytics();
    expect(analytics.kind).toBe("off");
    analytics.record({ name: "booked", properties: { bookingId: "bk-1" } });
    await analytics.flush();
    await analytics.close(10);
    expect(analytics.stats()).toEqual({ queued: 0, sent: 0, dropped: 0, failedBatches: 0 });
  });
});
