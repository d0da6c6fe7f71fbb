import { test as base, expect, type APIRequestContext } from "@playwright/test";
import { E2E_SANDBOX_API_KEY } from "../../playwright.config";
import { claimBookingDays, HOME_CLINIC, type BookingDay, type BookingDayOptions } from "./booking-days";
import { TEST_PASSWORD, uniqueEmail, uniquePhone } from "./helpers";

/**
 * The details of a test that runs once, in the no-JavaScript project only (the JavaScript project
 * leaves out the tag, playwright.config.ts): a check of what the server does with requests the test
 * sends itself, or of a page as the server sends it, where the browser's scripts change nothing that
 * is checked. A journey a visitor takes never has it: each runs with JavaScript and without.
 */
export const ONCE = { tag: "@once" } as const;

/** A registered account: what signing in takes. */
export type Account = { email: string; password: string };

/**
 * The fixtures of every browser test. Besides Playwright's own:
 *
 * - `account`: a new account (home clinic Austin), registered through the JSON API; not signed in.
 * - `signedIn`: `account`, signed in in this test's browser context by a POST to /login through the
 *   context's own request client, so the session cookie is in the browser's cookie jar. For tests
 *   that need a signed-in user; the forms of /register and /login are tested in accounts.spec.ts.
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
  account: Account;
  signedIn: Account;
  bookingDay: (options?: BookingDayOptions) => BookingDay;
}>({
  // Each test its own client address (the server trusts X-Forwarded-For from loopback), so the
  // per-address rate limits of one test never trip another.
  extraHTTPHeaders: async ({}, use) => {
    await use({
      "x-forwarded-for": `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`,
    });
  },
  // The outbox page and the sandbox API answer only requests from this machine with no proxy in
  // between: these clients send no X-Forwarded-For.
  thisMachine: async ({ playwright, baseURL }, use) => {
    const context = await playwright.request.newContext({ baseURL, extraHTTPHeaders: {} });
    await use(context);
    await context.dispose();
  },
  sandboxApi: async ({ playwright, baseURL }, use) => {
    const context = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { authorization: `apikey ${E2E_SANDBOX_API_KEY}` },
    });
    await use(context);
    await context.dispose();
  },
  account: async ({ request }, use) => {
    await use(await registerAccount(request));
  },
  signedIn: async ({ account, context, baseURL }, use) => {
    await signIn(context.request, account, baseURL!);
    await use(account);
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

/** Registers an account at Austin through POST /api/users (JSON, no cookie). */
export async function registerAccount(
  request: APIRequestContext,
  email = uniqueEmail("account"),
  phone = uniquePhone(),
): Promise<Account> {
  const created = await request.post("/api/users", {
    data: {
      firstName: "Mia",
      lastName: "Rivera",
      email,
      phone,
      centerId: HOME_CLINIC.centerId,
      address: "12 Oak St",
      city: "Austin",
      zip: "78701",
      password: TEST_PASSWORD,
      ageConfirmed: true,
      marketingEmail: false,
    },
  });
  expect(created.status(), `registering ${email}`).toBe(201);
  return { email, password: TEST_PASSWORD };
}

/**
 * Signs in by posting the sign-in form as the browser would from the same site (Origin and
 * Sec-Fetch-Site; the server refuses cross-site POSTs). Through a browser context's `request`, the
 * session cookie of the answer lands in that context.
 */
export async function signIn(request: APIRequestContext, account: Account, baseURL: string): Promise<void> {
  const answer = await request.post("/login", {
    form: { email: account.email, password: account.password, redirectTo: "/account/profile" },
    headers: { origin: new URL(baseURL).origin, "sec-fetch-site": "same-origin" },
    maxRedirects: 0,
  });
  expect(answer.status(), `signing in ${account.email}`).toBe(302);
  expect(answer.headers().location).toBe("/account/profile");
}

export { expect };
