import { expect, test } from "./fixtures";
import { HOME_CLINIC } from "./booking-days";
import { chooseFacialWithAddOn, startBooking } from "./helpers";

/** WCAG 1.4.10 (reflow): at 320 CSS pixels no page scrolls sideways. */
test.use({ viewport: { width: 320, height: 640 } });

async function expectNoSidewaysScroll(page: import("@playwright/test").Page, what: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${what} scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(0);
}

test("public pages and the booking steps fit a 320-pixel screen", async ({ page }) => {
  for (const path of ["/", "/locations", "/locations?view=map", `/locations/${HOME_CLINIC.slug}`, "/login", "/register", "/forgot-password", "/terms", "/error?error=invalid-email&redirect=webstore", "/no-such-page"]) {
    await page.goto(path);
    await expectNoSidewaysScroll(page, path);
  }
  await startBooking(page);
  await expectNoSidewaysScroll(page, "the service step");
  await chooseFacialWithAddOn(page);
  await expectNoSidewaysScroll(page, "the time step");
});

test("the account pages fit a 320-pixel screen", async ({ page, signedIn }) => {
  expect(signedIn.email).toBeTruthy();
  for (const path of ["/account", "/account/appointments?tab=upcoming", "/account/appointments?tab=past", "/account/profile"]) {
    await page.goto(path);
    await expectNoSidewaysScroll(page, path);
  }
});
