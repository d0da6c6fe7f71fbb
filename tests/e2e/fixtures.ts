import { test as base, expect, type APIRequestContext } from "@playwright/test";
import { E2E_SANDBOX_API_KEY } from "../../playwright.config";
import { claimBookingDays, type BookingDay, type BookingDayOptions } from "./booking-days";

/**
 * The fixtures of every browser test. Besides Playwright's own:
 *
 * - `bookingDay(options?)`: a clinic and date(s) there that no other test books, each call new ones
 *   (see booking-days.ts): `{ clinic, date, dates }`; options `prepaid`, `listPrices`, `days`.
 * - `thisMachine`, `sandboxApi`: clients for the pages only this machine may open, and the sandbox API.
 *
 * Each test also gets its own client address, and fails on a browser console error or an uncaught
 * page error (a CSP violation, a hydration mismatch), with JavaScript and without.
 */
export const test = base.extend<{
  consoleErrors: string[];
  thisMachine: APIRequestContext;
  sandboxApi: APIRequestContext;
  bookingDay: (options?: BookingDayOptions) => BookingDay;
}>({
  // Each test its own client address (the server trusts X-Forwarded-For from loopback), so the
  // per-address rate limits of one test never trip another.
  extraHTTPHeaders: async ({}, use) => {
    await use({ "x-forwarded-for": `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}` });
  },
  // The outbox page and the sandbox API answer only requests from this machine with no proxy in
  // between: these clients send no X-Forwarded-For.
  thisMachine: async ({ playwright, baseURL }, use) => {
    const context = await playwright.request.newContext({ baseURL, extraHTTPHeaders: {} });
    await use(context);
    await context.dispose();
  },
  sandboxApi: async ({ playwright, baseURL }, use) => {
    const context = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `apikey ${E2E_SANDBOX_API_KEY}` } });
    await use(context);
    await context.dispose();
  },
  bookingDay: async ({ baseURL }, use, testInfo) => {
    await use((options) => claimBookingDays(testInfo, baseURL!, options));
  },
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("console", (message) => {
        // A 4xx or 503 page is expected in some tests; the browser logs its status as an error.
        if (message.type() === "error" && !/status of (4\d\d|503)/.test(message.text())) errors.push(message.text());
      });
      page.on("pageerror", (error) => errors.push(String(error)));
      await use(errors);
      expect(errors, "browser console errors").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
