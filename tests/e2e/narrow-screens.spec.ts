import { expect, test } from "./fixtures";
import { HOME_CLINIC } from "./booking-days";
import { chooseFacialWithAddOn, fillDetails, showDate, startBooking, uniqueEmail } from "./helpers";

/** WCAG 1.4.10 (reflow): at 320 CSS pixels no page scrolls sideways. */
test.use({ viewport: { width: 320, height: 640 } });

async function expectNoSidewaysScroll(page: import("@playwright/test").Page, what: string) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `${what} scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(0);
}

test("public pages and the booking steps fit a 320-pixel screen", async ({ page }) => {
  for (const path of [
    "/",
    "/locations",
    "/locations?view=map",
    `/locations/${HOME_CLINIC.slug}`,
    "/login",
    "/register",
    "/forgot-password",
    "/terms",
    "/error?error=invalid-email&redirect=webstore",
    "/no-such-page",
  ]) {
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
  for (const path of [
    "/account",
    "/account/appointments?tab=upcoming",
    "/account/appointments?tab=past",
    "/account/profile",
  ]) {
    await page.goto(path);
    await expectNoSidewaysScroll(page, path);
  }
});

test("the details and payment steps fit a 320-pixel screen, amounts unbroken", async ({ page, bookingDay }) => {
  const { clinic, date } = bookingDay();
  await startBooking(page, clinic);
  await chooseFacialWithAddOn(page);
  await (await showDate(page, date)).first().click();
  await expectNoSidewaysScroll(page, "the details step");
  await fillDetails(page, uniqueEmail("narrow"));
  await expectNoSidewaysScroll(page, "the payment step");
  // Each amount of the summary stays on one line.
  const summary = page.getByRole("region", { name: "Price summary" });
  for (const cell of await summary.getByRole("cell").filter({ hasText: /^\$\d/ }).all()) {
    // One line box for the cell's text: "$275", not "$27" over "5".
    const lineBoxes = await cell.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    });
    expect(lineBoxes, (await cell.textContent()) ?? "").toBe(1);
  }
});
