import { test as base, expect } from "@playwright/test";

/**
 * Every page test fails on a browser console error or an uncaught page error (a CSP violation,
 * a hydration mismatch), in the project with JavaScript and the one without.
 */
export const test = base.extend<{ consoleErrors: string[] }>({
  // Each test its own client address (the server trusts X-Forwarded-For from loopback), so the
  // per-address rate limits of one test never trip another.
  extraHTTPHeaders: async ({}, use) => {
    await use({ "x-forwarded-for": `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}` });
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
