import { SHORT_HOLD_PORT } from "../../playwright.config";
import { expect, test } from "./fixtures";
import { chooseFacialWithAddOn, fillDetails, notBookedNotice, showDate, startBooking, uniqueEmail } from "./helpers";

// This server's sandbox holds a slot for 4 seconds (SANDBOX_HOLD_SECONDS).
test.use({ baseURL: `http://localhost:${SHORT_HOLD_PORT}` });

test("when the hold runs out the visitor is sent back to choose a time, choices kept", async ({
  page,
  bookingDay,
  javaScriptEnabled,
}) => {
  const { clinic, date } = bookingDay();
  await startBooking(page, clinic);
  await chooseFacialWithAddOn(page);
  await (await showDate(page, date)).first().click();
  // A new client's time is held when their details come, and the payment step shows the hold.
  await fillDetails(page, uniqueEmail("expiry"));
  await expect(page.getByText(/is on hold for the next 1 minute/)).toBeVisible();

  // With JavaScript the countdown reloads the data at zero; without it the page never moves by
  // itself (WCAG 2.2.1), and the next request after the hold ran out finds it gone.
  if (javaScriptEnabled) await expect(page).toHaveURL(/\/appointment\/time/, { timeout: 15_000 });
  else {
    await expect
      .poll(
        async () => {
          await page.reload();
          return new URL(page.url()).pathname;
        },
        { timeout: 15_000, intervals: [1_000] },
      )
      .toBe("/appointment/time");
  }
  const notice = notBookedNotice(page, "Reserved slot has expired. Please select the slot again.");
  await expect(notice).toBeVisible();
  await expect(notice).toBeFocused();
  await expect(notice).toContainText("Nothing was booked and your card was not charged.");
  await expect(notice).toContainText(/The time you had chosen, .+ @ .+, was released when its hold ran out/);
  await expect(page.getByText(`Signature Laser Facial - New Client at ${clinic.name}`)).toBeVisible();
  await expect(page.getByText(/is on hold/)).toHaveCount(0);
});
