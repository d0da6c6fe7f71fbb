import type { Event } from "@sentry/react-router";
import { describe, expect, it } from "vitest";
import {
  isNotFoundTransaction,
  keepTransaction,
  scrubBreadcrumb,
  scrubEvent,
  scrubText,
  scrubUrl,
} from "./error-scrub";

const TOKEN = "eyJhbGciOiJIUzI1NiJ9.eyJ2aXNpdCI6IjEyMyJ9.c2lnbmF0dXJl";
const VISIT_ID = "3fa85f64-5717-4562-b3fc-2c963f66afa6";

/** An event as the SDKs build one for a failed request, with every kind of personal data in it. */
function requestEvent(): Event {
  return {
    event_id: "a1b2c3d4e5f60718a1b2c3d4e5f60718",
    transaction: `GET /appointment/manage/${TOKEN}`,
    message: "lookup failed for ana@example.com",
    user: { id: "u-1", email: "ana@example.com", ip_address: "203.0.113.7", username: "Ana Lopez" },
    request: {
      url: `https://shop.example/appointment/manage/${TOKEN}?email=ana%40example.com&phone=5125550141`,
      method: "POST",
      query_string: "email=ana%40example.com&phone=5125550141",
      cookies: { __session: "secret-cookie" },
      data: { firstName: "Ana", lastName: "Lopez", email: "ana@example.com", phone: "512-555-0141" },
      headers: {
        Cookie: "__session=secret-cookie",
        "X-Forwarded-For": "203.0.113.7",
        Referer: "https://shop.example/appointment/details?promo=GLOW50&email=ana%40example.com",
        "User-Agent": "Mozilla/5.0 (Android 10)",
      },
    },
    exception: {
      values: [
        {
          type: "Error",
          value: "guest Ana's number (512) 555-0141 is taken by ana@example.com",
          stacktrace: {
            frames: [
              {
                filename: "/app/node_modules/@opentelemetry/instrumentation-undici/build/src/undici.js",
                lineno: 10,
                vars: { email: "ana@example.com", firstName: "Ana" },
              },
              { filename: "https://shop.example/assets/error-reporter-sentry.server-BXoPrjmk.js", lineno: 2 },
              {
                abs_path: "https://shop.example/appointment/details?email=ana%40example.com&phone=5125550141",
                lineno: 1,
              },
            ],
          },
        },
      ],
    },
    breadcrumbs: [
      {
        category: "fetch",
        data: {
          method: "GET",
          url: "https://api.zenoti.example/v1/guests/search?email=ana@example.com",
          status_code: 200,
          request_body_size: 120,
        },
      },
      {
        category: "console",
        message: "saving ana@example.com",
        data: { arguments: [{ firstName: "Ana", phone: "5125550141" }] },
      },
      { category: "navigation", data: { from: "/locations?zip=78701", to: `/appointment/manage/${TOKEN}` } },
    ],
    contexts: {
      trace: {
        trace_id: "0123456789abcdef0123456789abcdef",
        span_id: "0123456789abcdef",
        data: {
          "http.query": "?email=ana%40example.com",
          "url.full": "https://shop.example/locations?zip=78701",
          "http.request.header.cookie": "__session=x",
          "client.address": "203.0.113.7",
        },
      },
    },
    extra: { note: "called +44 20 7946 0958 from 198.51.100.4", visit: `/account/appointments/${VISIT_ID}` },
    tags: { where: "request", path: `/appointment/manage/${TOKEN}` },
  };
}

describe("scrubbing an error report", () => {
  const event = scrubEvent(requestEvent());
  const everything = JSON.stringify(event);

  it("leaves no email, phone number, IP address, cookie, name or token anywhere in it", () => {
    for (const personal of [
      "ana@example.com",
      "ana%40example.com",
      "5125550141",
      "555-0141",
      "7946 0958",
      "203.0.113.7",
      "198.51.100.4",
      "secret-cookie",
      "Lopez",
      "firstName",
      TOKEN,
    ]) {
      expect(everything).not.toContain(personal);
    }
  });

  it("drops the user, the request's body, cookies, query string and every header but the browser's", () => {
    expect(event.user).toBeUndefined();
    expect(event.request).toEqual({
      url: "https://shop.example/appointment/manage/:redacted",
      method: "POST",
      headers: { "User-Agent": "Mozilla/5.0 (Android 10)" },
    });
  });

  it("keeps what tells the failure apart: the messages with the data replaced, the frames, record ids", () => {
    expect(event.message).toBe("lookup failed for [email]");
    expect(event.exception?.values?.[0].value).toBe("guest Ana's number [phone] is taken by [email]");
    expect(event.exception?.values?.[0].stacktrace?.frames).toEqual([
      { filename: "/app/node_modules/@opentelemetry/instrumentation-undici/build/src/undici.js", lineno: 10 },
      { filename: "https://shop.example/assets/error-reporter-sentry.server-BXoPrjmk.js", lineno: 2 },
      { abs_path: "https://shop.example/appointment/details", lineno: 1 },
    ]);
    expect(event.transaction).toBe("GET /appointment/manage/:redacted");
    expect(event.extra).toEqual({ note: "called [phone] from [ip]", visit: `/account/appointments/${VISIT_ID}` });
    expect(event.contexts?.trace).toMatchObject({
      trace_id: "0123456789abcdef0123456789abcdef",
      data: { "url.full": "https://shop.example/locations" },
    });
    expect(event.tags).toEqual({ where: "request", path: "/appointment/manage/:redacted" });
    expect(event.event_id).toBe("a1b2c3d4e5f60718a1b2c3d4e5f60718");
  });

  it("strips query strings from breadcrumbs and drops what was logged to the console", () => {
    expect(event.breadcrumbs).toEqual([
      {
        category: "fetch",
        data: { method: "GET", url: "https://api.zenoti.example/v1/guests/search", status_code: 200 },
      },
      { category: "console", message: "saving [email]" },
      { category: "navigation", data: { from: "/locations", to: "/appointment/manage/:redacted" } },
    ]);
    expect(scrubBreadcrumb({ category: "xhr", data: { url: "/appointment/time?date=2026-12-01" } })).toEqual({
      category: "xhr",
      data: { url: "/appointment/time" },
    });
  });

  it("drops what is nested deeper than any event the SDKs build", () => {
    let nested: Record<string, unknown> = { note: "ana@example.com" };
    for (let i = 0; i < 20; i++) nested = { inner: nested };
    expect(JSON.stringify(scrubEvent({ extra: nested }))).not.toContain("ana@example.com");
  });

  it("does not change the event it was given", () => {
    const original = requestEvent();
    scrubEvent(original);
    expect(original).toEqual(requestEvent());
  });
});

describe("scrubbing text", () => {
  it.each([
    ["ana.lopez+spa@mail.example.co.uk wrote", "[email] wrote"],
    ["call 512-555-0141 or (512) 555 0141 or +1 512.555.0141", "call [phone] or [phone] or [phone]"],
    ["GET /locations?zip=78701&email=a@b.example failed", "GET /locations failed"],
    ["Cannot GET /refer/GLOW?ANA", "Cannot GET /refer/GLOW"],
    ["from 203.0.113.7", "from [ip]"],
  ])("%s", (input, expected) => {
    expect(scrubText(input)).toBe(expected);
  });

  it("leaves ids, versions and plain questions alone", () => {
    const text = `visit ${VISIT_ID} at 2026-12-01T15:00:00Z, sdk 10.75.2, 27500 cents: why?`;
    expect(scrubText(text)).toBe(text);
  });

  it("takes a URL's query and fragment off, and a path segment that could be a token", () => {
    expect(scrubUrl(`/appointment/manage/${TOKEN}?x=1#top`)).toBe("/appointment/manage/:redacted");
    expect(scrubUrl(`/account/appointments/${VISIT_ID}/cancel?reason=x`)).toBe(
      `/account/appointments/${VISIT_ID}/cancel`,
    );
  });
});

describe("transactions of pages not found", () => {
  it.each([
    [{ transaction: "GET /404" }],
    [{ transaction: "/404" }],
    [{ transaction: "GET *" }],
    [{ transaction: "/*" }],
    [
      {
        transaction: "GET /no-such-page",
        contexts: { trace: { trace_id: "t", span_id: "s", data: { "http.route": "*" } } },
      },
    ],
    [{ transaction: "GET", request: { url: "https://shop.example/404?from=x" } }],
  ] as [Event][])("are dropped: %j", (event) => {
    expect(isNotFoundTransaction(event)).toBe(true);
    expect(keepTransaction(event)).toBeNull();
  });

  it.each([
    [{ transaction: "GET /locations" }],
    [{ transaction: "/locations/:slug" }],
    [{ transaction: "GET /4040" }],
    [{ transaction: "GET /404-tips" }],
  ] as [Event][])("are the only ones dropped: %j is kept", (event) => {
    expect(isNotFoundTransaction(event)).toBe(false);
    expect(keepTransaction(event)).toEqual(event);
  });
});
