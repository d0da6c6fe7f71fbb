import { describe, expect, it } from "vitest";
import type { Services } from "../services";
import {
  createRequestContext,
  requestSession,
  sessionMiddleware,
  type RequestContext,
} from "../request-context.server";
import { createSessionCookies } from "../session.server";
import { flashNotBooked, takeNotBooked } from "./not-booked.server";

const sessions = createSessionCookies({ secrets: ["n".repeat(40)], secure: true });

/** One request through the session middleware: the cookie it sends back, for the next one. */
async function request(cookie: string, route: (context: RequestContext) => void): Promise<string> {
  const context = createRequestContext({
    services: { sessions } as unknown as Services,
    nonce: "n",
    clientIp: "203.0.113.9",
    fromThisMachine: false,
  });
  const req = new Request("http://shop.example/appointment/time", { headers: cookie ? { cookie } : {} });
  const response = (await sessionMiddleware(
    { request: req, context, params: {}, url: new URL(req.url), pattern: "/" } as never,
    async () => {
      route(context);
      return new Response("ok");
    },
  )) as Response;
  const set = response.headers.getSetCookie().map((c) => c.split(";")[0]);
  // A cookie not written again is kept by the browser as it was.
  const jar = new Map(cookie ? cookie.split("; ").map((c) => [c.split("=")[0], c] as const) : []);
  for (const c of set) jar.set(c.split("=")[0], c);
  return [...jar.values()].join("; ");
}

describe("why a booking was not made", () => {
  it("is said on the next page that takes it, once, from the encrypted session", async () => {
    const flashed = await request("", (context) =>
      flashNotBooked(context, { kind: "payment-failed", slot: "2026-12-01T10:00:00", resume: "time" }),
    );
    expect(flashed).toMatch(/^__session=v1\./);
    expect(flashed).not.toContain("payment-failed");

    let seen: unknown = "not read";
    const read = await request(flashed, (context) => (seen = takeNotBooked(context)));
    expect(seen).toEqual({ kind: "payment-failed", slot: "2026-12-01T10:00:00", resume: "time" });
    // Read once: a reload after it no longer says it.
    await request(read, (context) => (seen = takeNotBooked(context)));
    expect(seen).toBeNull();
  });

  it("is nothing when the session holds something else under its name", async () => {
    const odd = await request("", (context) =>
      requestSession(context).flash("notBooked", { kind: "booked", resume: "time" }),
    );
    let seen: unknown = "not read";
    await request(odd, (context) => (seen = takeNotBooked(context)));
    expect(seen).toBeNull();
  });
});
