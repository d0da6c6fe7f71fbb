import { describe, expect, it } from "vitest";
import { type AnalyticsEvent, MAX_EVENT_BYTES, prepareEvent, sanitizeEvent, sanitizeProperties } from "./events.server";

const CLOCK = () => Date.parse("2026-03-01T10:00:00.000Z");
const noContact = { includeContact: false };
const withContact = { includeContact: true };

describe("sanitizeProperties", () => {
  it("keeps every allow-listed key of the expected type", () => {
    const properties = {
      path: "/appointment/time",
      referrerPath: "/locations/austin",
      centerId: "c1b1a7a4-5c1e-4e8e-9f1f-2f0f1c7ea001",
      serviceIds: ["svc-facial", "svc-peel"],
      serviceCount: 2,
      bookingId: "bk-42",
      appointmentId: "ap-42",
      amountCents: 12_500,
      prepaid: true,
      promoApplied: false,
      reason: "slot_taken",
      kind: "gift_card",
      method: "card",
      status: 503,
      durationMs: 412,
      userAgentFamily: "Chrome Mobile",
    };
    expect(sanitizeProperties(properties, noContact)).toEqual(properties);
  });

  it("drops keys outside the allow-list: passwords, codes, tokens, card data, the promo code itself", () => {
    const clean = sanitizeProperties(
      {
        path: "/login",
        password: "hunter2",
        code: "123456",
        otp: "654321",
        token: "abc.def",
        cardNumber: "4242",
        cvc: "123",
        promoCode: "GLOW50",
      },
      noContact,
    );
    expect(clean).toEqual({ path: "/login" });
  });

  it("drops values of the wrong type instead of coercing them", () => {
    const clean = sanitizeProperties(
      {
        serviceCount: "2",
        prepaid: "yes",
        amountCents: Number.NaN,
        durationMs: Infinity,
        centerId: 7,
        serviceIds: "svc-1",
        status: true,
      },
      noContact,
    );
    expect(clean).toEqual({});
  });

  it("drops string values that look like a card number, however they are spaced", () => {
    const clean = sanitizeProperties(
      {
        reason: "4242424242424242",
        kind: "4242 4242 4242 4242",
        method: "card 4000-0566-5566-5556 declined",
        bookingId: "4111111111111", // 13 digits
        appointmentId: "123456789012", // 12 digits: an id, kept
        status: "6011000990139424000", // 19 digits
        serviceIds: ["svc-1", "378282246310005"],
      },
      noContact,
    );
    expect(clean).toEqual({ appointmentId: "123456789012", serviceIds: ["svc-1"] });
  });

  it("drops numbers as large as a card number", () => {
    expect(sanitizeProperties({ amountCents: 4242424242424242, durationMs: 999_999_999_999 }, noContact)).toEqual({
      durationMs: 999_999_999_999,
    });
  });

  it("keeps email and phone only with includeContact", () => {
    const contact = { email: "ana@example.com", phone: "+1 512-555-0141", path: "/register" };
    expect(sanitizeProperties(contact, noContact)).toEqual({ path: "/register" });
    expect(sanitizeProperties(contact, withContact)).toEqual(contact);
  });

  it("keeps the path of a page and never its query string, fragment or a token in the path", () => {
    const clean = sanitizeProperties(
      {
        path: "/reset-password?token=eyJhbGciOi.abc&email=ana@example.com#x",
        referrerPath: "https://www.google.com/search?q=laser+austin",
      },
      noContact,
    );
    expect(clean).toEqual({ path: "/reset-password", referrerPath: "/search" });
    const token = `${"e".repeat(60)}.${"s".repeat(43)}`;
    expect(sanitizeProperties({ path: `/appointment/manage/${token}/cancel` }, noContact)).toEqual({
      path: "/appointment/manage/:token/cancel",
    });
    expect(sanitizeProperties({ path: "/locations/austin-downtown" }, noContact)).toEqual({
      path: "/locations/austin-downtown",
    });
  });

  it("never sends an email in a path, even with contact fields allowed", () => {
    for (const options of [noContact, withContact]) {
      expect(sanitizeProperties({ path: "/ana@example.com" }, options)).toEqual({ path: "/:email" });
      expect(sanitizeProperties({ path: "/visits/ana%40example.com/cancel" }, options)).toEqual({
        path: "/visits/:email/cancel",
      });
      expect(sanitizeProperties({ path: "/x/ANA%40EXAMPLE.COM" }, options)).toEqual({ path: "/x/:email" });
      expect(sanitizeProperties({ path: "mailto:ana@example.com" }, options)).toEqual({ path: ":email" });
      expect(sanitizeProperties({ referrerPath: "https://mail.example/u/ana@example.com/inbox" }, options)).toEqual({
        referrerPath: "/u/:email/inbox",
      });
    }
    expect(sanitizeProperties({ path: "/locations/austin-downtown" }, withContact)).toEqual({
      path: "/locations/austin-downtown",
    });
  });

  it("reads every path as a URL parser would, the plain ones it does not parse included", () => {
    // What the path was before a plain path skipped the parse: the reference for every shape.
    const parsed = (path: string) => {
      let pathname: string;
      try {
        pathname = new URL(path, "http://local").pathname;
      } catch {
        return {};
      }
      return {
        path: pathname
          .split("/")
          .map((segment) => (segment.length > 40 ? ":token" : /@|%40/i.test(segment) ? ":email" : segment))
          .join("/"),
      };
    };
    const alphabet = [
      "/",
      "/",
      "a",
      "Z",
      "9",
      "-",
      "_",
      ".",
      "..",
      "%",
      "%2F",
      "?",
      "#",
      "\\",
      " ",
      "~",
      "@",
      ";",
      ":",
      "!",
      "$",
      "&",
      "'",
      "(",
      ")",
      "*",
      "+",
      ",",
      "=",
      "é",
      "x".repeat(20),
      "x".repeat(41),
    ];
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    const paths = [
      "",
      "/",
      "//",
      "//evil.example/x",
      "/a//b",
      "/./a",
      "/a/../b",
      "/a/",
      "/%41",
      "/a b",
      "/a\\b",
      `x:${"t".repeat(41)}`,
      `mailto:${"t".repeat(41)}`,
    ];
    for (let i = 0; i < 20_000; i++)
      paths.push(Array.from({ length: 1 + (next() % 8) }, () => alphabet[next() % alphabet.length]).join(""));
    for (const path of paths) expect(sanitizeProperties({ path }, noContact), path).toEqual(parsed(path));
  });

  it("reads only own properties, and nothing from a value that is not an object", () => {
    expect(sanitizeProperties(Object.create({ path: "/inherited" }), noContact)).toEqual({});
    expect(sanitizeProperties(null, noContact)).toEqual({});
    expect(sanitizeProperties("path=/x", noContact)).toEqual({});
  });
});

describe("sanitizeEvent and prepareEvent", () => {
  it("adds a message id and the time, and keeps the visitor and request ids", () => {
    const event = sanitizeEvent(
      {
        name: "booked",
        properties: { bookingId: "bk-1", prepaid: true },
        anonymousId: "anon-1",
        userId: "user-1",
        requestId: "req-1",
      },
      { ...noContact, clock: CLOCK },
    );
    expect(event).toEqual({
      name: "booked",
      properties: { bookingId: "bk-1", prepaid: true },
      anonymousId: "anon-1",
      userId: "user-1",
      requestId: "req-1",
      messageId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      timestamp: "2026-03-01T10:00:00.000Z",
    });
    const other = sanitizeEvent({ name: "booked", properties: {} }, { ...noContact, clock: CLOCK });
    expect(other?.messageId).not.toBe(event?.messageId);
  });

  it("refuses a name outside the list", () => {
    expect(
      sanitizeEvent({ name: "card_entered", properties: {} } as unknown as AnalyticsEvent, {
        ...noContact,
        clock: CLOCK,
      }),
    ).toBeNull();
    expect(
      prepareEvent({ name: "card_entered", properties: {} } as unknown as AnalyticsEvent, {
        ...noContact,
        clock: CLOCK,
      }),
    ).toBeNull();
  });

  it("serialises once: later changes to the caller's objects do not reach the event", () => {
    const serviceIds = ["svc-1"];
    const prepared = prepareEvent(
      { name: "service_chosen", properties: { serviceIds } },
      { ...noContact, clock: CLOCK },
    );
    serviceIds.push("svc-2");
    expect(JSON.parse(prepared!.json).properties.serviceIds).toEqual(["svc-1"]);
    expect(prepared!.bytes).toBe(Buffer.byteLength(prepared!.json));
    expect(prepared!.timestamp).toBe("2026-03-01T10:00:00.000Z");
    expect(MAX_EVENT_BYTES).toBe(64 * 1024);
  });

  it("counts bytes, not characters", () => {
    const prepared = prepareEvent(
      { name: "page_viewed", properties: { userAgentFamily: "é".repeat(100) } },
      { ...noContact, clock: CLOCK },
    );
    expect(prepared!.bytes).toBe(prepared!.json.length + 100);
  });
});

describe("the types", () => {
  it("refuse keys outside the allow-list, in literals, variables and spreads", () => {
    const record = <P extends import("./events.server").EventProperties>(event: AnalyticsEvent<P>) => event;
    // @ts-expect-error: a password is never a property
    record({ name: "signed_in", properties: { method: "password", password: "hunter2" } });
    const fromForm = { path: "/login", code: "123456" };
    // @ts-expect-error: nor is a one-time code, even from a variable
    record({ name: "signed_in", properties: fromForm });
    // @ts-expect-error: nor through a spread
    record({ name: "signed_in", properties: { ...fromForm } });
    // @ts-expect-error: names are a closed list
    record({ name: "clicked", properties: {} });
    const allowed = { path: "/login", method: "password" };
    expect(record({ name: "signed_in", properties: allowed }).name).toBe("signed_in");
  });
});

describe("ids that look like card numbers", () => {
  it("keeps a request id or clinic id whose digits run thirteen long across a dash, and still drops a card number", () => {
    // "b363-7244870513a4": 363 and 7244870513 are thirteen digits with one dash between.
    const requestId = "26a55b1c-3409-495d-b363-7244870513a4";
    const event = sanitizeEvent(
      {
        name: "page_viewed",
        requestId,
        properties: { path: "/terms", centerId: requestId, bookingId: "4242-4242-4242-4242" },
      },
      { ...noContact, clock: CLOCK },
    );
    expect(event?.requestId).toBe(requestId);
    expect(event?.properties.centerId).toBe(requestId);
    expect(event?.properties).not.toHaveProperty("bookingId");
  });
});
