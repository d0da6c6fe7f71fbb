import { readAttribution, type VisitAttribution } from "~/domain/attribution";
import type { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { MAX_ADD_ONS } from "~/domain/booking";
import { BILLING_LIMITS, clipBilling } from "~/domain/payment";
import { DraftSchema, type Confirmed, type Draft } from "./booking/draft.server";
import { cardSetOf } from "./payments/card-capture.server";
import type { Services } from "./services";
import type { RescheduleHold } from "./appointments/reschedule.server";
import {
  createRequestContext,
  currentUser,
  MAX_COOKIE_BYTES,
  requestSession,
  sessionMiddleware,
} from "./request-context.server";
import { createSessionCookies, type SessionData } from "./session.server";

const sessions = createSessionCookies({ secrets: ["s".repeat(40)], secure: true });
const cookieHeader = (setCookies: string[]) => setCookies.map((c) => c.split(";")[0]).join("; ");
const id = () => crypto.randomUUID();
/** The widest text a field can hold: characters that take three bytes each in UTF-8. */
const wide = (length: number) => "漢".repeat(length);

function requestWith(cookie: string | null) {
  let userLookups = 0;
  const services = {
    sessions,
    accounts: {
      currentUser: async (token: string | undefined) => {
        userLookups++;
        return token ? { id: "u1", email: "ana@example.com", guestId: "g1", centerId: "c1" } : null;
      },
    },
  } as unknown as Services;
  const context = createRequestContext({ services, nonce: "n", clientIp: "203.0.113.9", fromThisMachine: false });
  const request = new Request("http://shop.example/", { headers: cookie ? { cookie } : {} });
  return { context, request, lookups: () => userLookups };
}

async function run(cookie: string | null, route: (context: RouterContextProvider) => void | Promise<void>) {
  const { context, request, lookups } = requestWith(cookie);
  const response = (await sessionMiddleware(
    { request, context, params: {}, url: new URL(request.url), pattern: "/" } as never,
    async () => {
      await route(context);
      return new Response("ok");
    },
  )) as Response;
  return { setCookies: response.headers.getSetCookie(), lookups: lookups() };
}

describe("the session middleware", () => {
  it("writes a cookie once, after the route, and only the part of the session that changed", async () => {
    const first = await run(null, (context) => {
      requestSession(context).set("resetEmail", "ana@example.com");
      requestSession(context).flash("toast", { id: "t1", type: "info", title: "Hello" });
    });
    expect(first.setCookies.map((c) => c.split("=")[0])).toEqual(["__session"]);
    const cookie = cookieHeader(first.setCookies);

    // Reading changes nothing: no cookie goes out.
    const reading = await run(cookie, (context) => void requestSession(context).get("resetEmail"));
    expect(reading.setCookies).toHaveLength(0);

    // Reading a flash message uses it up: the cookie is written without it.
    const taking = await run(cookie, (context) => expect(requestSession(context).get("toast")?.title).toBe("Hello"));
    expect(taking.setCookies).toHaveLength(1);
    const after = await sessions.read(cookieHeader(taking.setCookies));
    expect(after.get("toast")).toBeUndefined();
    expect(after.get("resetEmail")).toBe("ana@example.com");

    // A booking goes in its own cookie; ending it clears that cookie and leaves the other alone.
    const booking = await run(cookie, (context) =>
      requestSession(context).set("draft", { centerId: "c1", addOnIds: [], therapistId: null }),
    );
    expect(booking.setCookies.map((c) => c.split("=")[0])).toEqual(["__booking"]);
    const both = `${cookie}; ${cookieHeader(booking.setCookies)}`;
    expect((await sessions.read(both)).get("draft")).toEqual({ centerId: "c1", addOnIds: [], therapistId: null });
    const ended = await run(both, (context) => requestSession(context).unset("draft"));
    expect(ended.setCookies).toHaveLength(1);
    expect(ended.setCookies[0]).toMatch(/^__booking=;.*Expires=Thu, 01 Jan 1970/);
  });

  it("looks the signed-in user up once however many loaders ask", async () => {
    const signedIn = await sessions.read(null);
    signedIn.set("userSessionId", "token");
    const cookie = cookieHeader(await sessions.write(signedIn));
    const result = await run(cookie, async (context) => {
      const users = await Promise.all([currentUser(context), currentUser(context), currentUser(context)]);
      expect(users.map((u) => u?.email)).toEqual(["ana@example.com", "ana@example.com", "ana@example.com"]);
    });
    expect(result.lookups).toBe(1);
  });
});

describe("the session cookies' size", () => {
  it("each stays under the browser's 4096 bytes with every field of the largest draft at its limit", async () => {
    const longestEmail = `${"e".repeat(254 - "@example.com".length)}@example.com`;
    const draft: Required<Draft> = {
      id: id(),
      centerId: id(),
      serviceId: id(),
      addOnIds: Array.from({ length: MAX_ADD_ONS }, id),
      therapistId: id(),
      date: "2026-12-01",
      promoCode: "P".repeat(40),
      pkg: 1,
      slot: "2026-12-01T10:00:00",
      guestId: id(),
      details: { firstName: wide(50), lastName: wide(50), email: longestEmail, phone: "5125550101" },
      verification: { guestId: id(), sentTo: [`e•••@${"d".repeat(80 - 16)}.com`, "•••-•••-0101"] },
      hold: {
        bookingId: id(),
        slot: "2026-12-01T10:00:00",
        reservationId: id(),
        expiresAt: new Date().toISOString(),
        claim: { key: `live-holds:${"k".repeat(22)}`, id: id() },
      },
      billing: clipBilling({ address: wide(500), city: wide(500), state: "WA-too-long", zip: "9".repeat(50) }),
      cardsBefore: cardSetOf([{ accountId: id() }, { accountId: id() }]),
      payKey: id(),
      doneBy: id(),
    };
    // Every field of the draft is filled: a new one must be added here too.
    expect(Object.keys(draft).sort()).toEqual(Object.keys(DraftSchema.shape).sort());
    expect(draft.billing.address).toHaveLength(BILLING_LIMITS.address);
    const confirmed: Confirmed = { appointmentId: id(), invoiceId: id(), guestId: id(), centerId: id() };
    const session = await sessions.read(null);
    const reschedule: RescheduleHold = {
      visitId: "v".repeat(64),
      bookingId: "b".repeat(64),
      slot: "2026-12-01T10:00:00",
      reservationId: "r".repeat(64),
      expiresAt: new Date().toISOString(),
    };
    const visit: Required<VisitAttribution> = {
      ref: "ABCDEFGHIJ-2345",
      partner: "P".repeat(32),
      click: { id: "c".repeat(128), at: Date.now() },
      tag: "t".repeat(40),
    };
    expect(readAttribution(visit)).toEqual(visit);
    const data: Required<SessionData> = {
      userSessionId: "t".repeat(43),
      draft,
      confirmed,
      reschedule,
      resetEmail: longestEmail,
      visit,
    };
    for (const [key, value] of Object.entries(data)) session.set(key as keyof SessionData, value as never);
    session.flash("toast", { id: id(), type: "error", title: "x".repeat(200), description: "y".repeat(100) });
    session.flash("notBooked", { kind: "payment-failed", slot: "2026-12-01T10:00:00", resume: "service" });

    const headers = await sessions.write(session);
    expect(headers).toHaveLength(2);
    for (const header of headers) expect(Buffer.byteLength(header)).toBeLessThan(MAX_COOKIE_BYTES);
    expect((await sessions.read(cookieHeader(headers))).get("draft")).toEqual(draft);
  });
});
