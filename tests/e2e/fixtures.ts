import { test as base, expect } from "@playwright/test";

/**
 * Every page test fails on a browser console error or an uncaught page error (a CSP violation,
 * a hydration mismatch), in the project with JavaScript and the one without.
 */
export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("console", (message) => {
        // A 4xx page is expected in some tests; the browser logs its status as an error.
        if (message.type() === "error" && !/status of 4\d\d/.test(message.text())) errors.push(message.text());
      });
      page.on("pageerror", (error) => errors.push(String(error)));
      await use(errors);
      expect(errors, "browser console errors").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
