import type { RequestHandler } from "express";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AppOptions } from "../app";
import { closeTestApps, startTestApp } from "../../tests/helpers/test-app";
import type { Services } from "../services";
import { loggablePath, logger } from "./logger.server";
import { createRateLimiter } from "../compose.server";
import { checkReadiness, REDIS_DOWN_EFFECT } from "./readiness.server";

afterEach(async () => {
  vi.restoreAllMocks();
  await closeTestApps();
});

/** The app, whose every request past its own checks writes one log line and answers 299. */
function start(options: Partial<AppOptions> = {}): Promise<string> {
  const answer: RequestHandler = (_req, res) => {
    logger.warn("inside the request");
    res.status(299).send("reached");
  };
  return startTestApp({ assets: answer, ...options });
}

/** The JSON lines written to stderr and stdout while `run` runs, up to the request's own line. */
async function captureLines(run: () => Promise<void>): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  const capture = (chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  };
  vi.spyOn(process.stderr, "write").mockImplementation(capture);
  vi.spyOn(process.stdout, "write").mockImplementation(capture);
  const level = process.env.LOG_LEVEL;
  process.env.LOG_LEVEL = "info";
  const parsed = () =>
    lines
      .flatMap((line) => line.trim().split("\n"))
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  try {
    await run();
    // The request's own line is written when the answer has finished: waited for, however long that takes.
    while (!parsed().some((line) => line.message === "request")) await new Promise((resolve) => setTimeout(resolve, 5));
  } finally {
    process.env.LOG_LEVEL = level;
  }
  return parsed();
}

describe("request ids in answers and logs", () => {
  it("gives every answer an id, and every line written while answering it carries the id", async () => {
    const origin = await start();
    let id = "";
    const lines = await captureLines(async () => {
      const response = await fetch(`${origin}/locations/houston-heights?zip=77008&email=ana@example.com`);
      id = response.headers.get("x-request-id") ?? "";
    });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines).toContainEqual(expect.objectContaining({ message: "inside the request", requestId: id }));
    const request = lines.find((line) => line.message === "request");
    expect(request).toMatchObject({ requestId: id, method: "GET", path: "/locations/houston-heights", status: 299 });
    expect(JSON.stringify(lines)).not.toContain("ana@example.com");
    expect(JSON.stringify(lines)).not.toContain("77008");
  });

  it("keeps an id a proxy in front gave, and refuses one that does not look like an id", async () => {
    const origin = await start();
    const kept = await fetch(`${origin}/assets/app.css`, { headers: { "x-request-id": "lb-0123456789abcdef" } });
    expect(kept.headers.get("x-request-id")).toBe("lb-0123456789abcdef");
    const refused = await fetch(`${origin}/assets/app.css`, {
      headers: { "x-request-id": "<script>alert(1)</script>" },
    });
    expect(refused.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("logs paths without the segments that could be secrets or personal", () => {
    expect(loggablePath("/appointment/manage/eyJndWVzdCI6ImctMSJ9.c2lnbmF0dXJlLXRoYXQtaXMtbG9uZw")).toBe(
      "/appointment/manage/:redacted",
    );
    expect(loggablePath("/account/appointments/0b6c2f7e-1d2a-4c3b-9e8f-7a6b5c4d3e2f")).toBe(
      "/account/appointments/0b6c2f7e-1d2a-4c3b-9e8f-7a6b5c4d3e2f",
    );
    expect(loggablePath("/api/users/ana@example.com")).toBe("/api/users/:redacted");
    expect(loggablePath("/locations/houston-heights")).toBe("/locations/houston-heights");
    // A gift card's number in the back end's balance path, however it was written.
    expect(loggablePath("/v1/giftcards/384920175379/balance")).toBe("/v1/giftcards/:redacted/balance");
    expect(loggablePath("/spa-sandbox/v1/giftcards/3849-2017-5379/balance")).toBe(
      "/spa-sandbox/v1/giftcards/:redacted/balance",
    );
    expect(loggablePath("/v1/giftcards/3849%202017%205379/balance")).toBe("/v1/giftcards/:redacted/balance");
    // Short numbers (a page, a year) stay.
    expect(loggablePath("/account/appointments/page/2026")).toBe("/account/appointments/page/2026");
  });
});

describe("readiness", () => {
  const healthy = () =>
    ({
      catalog: { listCenters: async () => [], clinicsWithoutTimeZone: async () => [] },
      stores: { ping: async () => undefined },
      rateLimiter: {},
    }) as unknown as Services;

  it("is ready when the back end and the store answer", async () => {
    expect(await checkReadiness(healthy())).toEqual({
      ready: true,
      status: "ok",
      checks: { backEnd: "ok", store: "ok", sharedCounters: "not configured" },
      degraded: [],
      clinicsWithoutTimeZone: [],
    });
    const withRedis = { ...healthy(), rateLimiter: { kind: "redis", ready: async () => true } } as unknown as Services;
    expect(await checkReadiness(withRedis)).toMatchObject({
      ready: true,
      status: "ok",
      checks: { sharedCounters: "ok" },
      degraded: [],
    });
  });

  it("stays ready with a clinic refused for want of a time zone, and names it with what to set", async () => {
    const services = {
      ...healthy(),
      catalog: {
        listCenters: async () => [],
        clinicsWithoutTimeZone: async () => [{ id: "c9", name: "Glow Clinic Seattle", zoneId: 4 }],
      },
    } as unknown as Services;
    expect(await checkReadiness(services)).toMatchObject({
      ready: true,
      clinicsWithoutTimeZone: [{ id: "c9", name: "Glow Clinic Seattle", set: "SPA_TIME_ZONE_IDS=4=<IANA zone>" }],
    });
  });

  it("is not ready when the back end fails or the store hangs past the timeout", async () => {
    vi.spyOn(logger, "warn").mockImplementation(() => {});
    const services = {
      catalog: { listCenters: async () => Promise.reject(new Error("503")) },
      stores: { ping: () => new Promise(() => {}) },
      rateLimiter: { kind: "redis", ready: async () => false },
    } as unknown as Services;
    expect(await checkReadiness(services, 50)).toMatchObject({
      ready: false,
      status: "unavailable",
      checks: { backEnd: "failing", store: "failing", sharedCounters: "failing" },
    });
    const backEndDown = {
      ...healthy(),
      catalog: { listCenters: async () => Promise.reject(new Error("503")) },
    } as unknown as Services;
    expect(await checkReadiness(backEndDown, 50)).toMatchObject({
      ready: false,
      status: "unavailable",
      checks: { backEnd: "failing", store: "ok" },
    });
  });

  it('stays ready, "degraded" and naming Redis, when only Redis does not answer or hangs', async () => {
    vi.spyOn(logger, "warn").mockImplementation(() => {});
    for (const ready of [async () => false, () => new Promise<boolean>(() => {})]) {
      const services = { ...healthy(), rateLimiter: { kind: "redis", ready } } as unknown as Services;
      expect(await checkReadiness(services, 50)).toEqual({
        ready: true,
        status: "degraded",
        checks: { backEnd: "ok", store: "ok", sharedCounters: "failing" },
        degraded: [{ dependency: "redis", check: "sharedCounters", effect: REDIS_DOWN_EFFECT }],
        clinicsWithoutTimeZone: [],
      });
    }
  });

  it('with the real Redis limiter and nothing listening at REDIS_URL: ready, "degraded", Redis named', async () => {
    vi.spyOn(logger, "warn").mockImplementation(() => {});
    vi.spyOn(logger, "error").mockImplementation(() => {});
    // Port 9 (discard) has no listener here: every connection is refused.
    const rateLimiter = await createRateLimiter({ REDIS_URL: "redis://127.0.0.1:9/0" });
    try {
      expect(rateLimiter.kind).toBe("redis");
      expect(await checkReadiness({ ...healthy(), rateLimiter } as unknown as Services)).toMatchObject({
        ready: true,
        status: "degraded",
        checks: { sharedCounters: "failing" },
        degraded: [{ dependency: "redis" }],
      });
    } finally {
      await rateLimiter.close();
    }
  });

  it("answers /readyz with 503 while starting or failing and 200 when ready, never cached", async () => {
    let services: Services | undefined;
    const origin = await start({ services: () => services });
    const starting = await fetch(`${origin}/readyz`);
    expect(starting.status).toBe(503);
    services = healthy();
    const ready = await fetch(`${origin}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get("cache-control")).toBe("no-store");
    expect(await ready.json()).toMatchObject({ ready: true, checks: { backEnd: "ok", store: "ok" } });
    vi.spyOn(logger, "warn").mockImplementation(() => {});
    services = {
      ...healthy(),
      stores: { ping: async () => Promise.reject(new Error("closed")) },
    } as unknown as Services;
    services = { ...healthy(), rateLimiter: { kind: "redis", ready: async () => false } } as unknown as Services;
    const degraded = await fetch(`${origin}/readyz`);
    expect(degraded.status).toBe(200);
    expect(await degraded.json()).toMatchObject({
      ready: true,
      status: "degraded",
      degraded: [{ dependency: "redis" }],
    });
    services = {
      ...healthy(),
      stores: { ping: async () => Promise.reject(new Error("closed")) },
    } as unknown as Services;
    const failing = await fetch(`${origin}/readyz`);
    expect(failing.status).toBe(503);
    expect(await failing.json()).toMatchObject({ ready: false, status: "unavailable", checks: { store: "failing" } });
  });
});
