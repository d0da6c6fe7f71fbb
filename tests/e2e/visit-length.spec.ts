import type { Page } from "@playwright/test";
import { expect, ONCE, test } from "./fixtures";
import { bookFirstTimeAsNewGuest, buttonTarget, clockMinutes, icsInstant, startBooking, uniqueEmail } from "./helpers";

/**
 * A visit lasts what the back end books (decision 045): the new-client facial (45 minutes) with an
 * enhancement (15 more for a new client) is a longer visit than the facial alone, on the time step,
 * on the confirmation and in the calendar file alike.
 */

/** From the time step on: books the day's first open time and answers the visit's minutes as the confirmation and its calendar file say them. */
async function bookFirstTime(
  page: Page,
  date: string,
  email: string,
): Promise<{ shown: number; filed: number; said: string }> {
  await bookFirstTimeAsNewGuest(page, date, email);
  const [, from, to] = /(\d{1,2}:\d{2} [AP]M) to (\d{1,2}:\d{2} [AP]M)/.exec(
    (await page.getByText(/ to \d{1,2}:\d{2} [AP]M/).textContent()) ?? "",
  )!;
  const said = (await page
    .getByRole("term")
    .filter({ hasText: /^How long$/ })
    .locator("xpath=following-sibling::dd[1]")
    .textContent())!.trim();
  const calendar = (
    await (await page.request.get(await buttonTarget(page.getByRole("button", { name: "Add to calendar" })))).text()
  ).replace(/\r\n[ \t]/g, "");
  return {
    shown: clockMinutes(to) - clockMinutes(from),
    filed: (icsInstant(calendar, "DTEND") - icsInstant(calendar, "DTSTART")) / 60_000,
    said,
  };
}

test("a new client's enhancement makes the visit 15 minutes longer, as told on the treatment and time steps and booked", async ({
  page,
  bookingDay,
}) => {
  const { clinic, date } = bookingDay();

  // With the LED enhancement: the treatment step says what it adds, the time step the whole visit.
  await startBooking(page, clinic);
  await page.getByRole("button", { name: "Select Signature Laser Facial - New Client" }).click();
  await page.getByRole("checkbox", { name: /LED Light Therapy Enhancement .*\+15 min/ }).check();
  await page.getByRole("button", { name: "Continue to date and time" }).click();
  await expect(page.getByText("Signature Laser Facial - New Client at")).toBeVisible();
  await expect(page.getByText("With LED Light Therapy Enhancement, your visit lasts 1 hr")).toBeVisible();
  expect(await bookFirstTime(page, date, uniqueEmail("long-visit"))).toEqual({ shown: 60, filed: 60, said: "1 hr" });
});

test(
  "a new client's facial alone is the shorter visit, as told on the time step and booked",
  ONCE,
  async ({ page, bookingDay }) => {
    const { clinic, date } = bookingDay();
    await startBooking(page, clinic);
    await page.getByRole("button", { name: "Select Signature Laser Facial - New Client" }).click();
    await page.getByRole("button", { name: "Continue to date and time" }).click();
    await expect(page.getByText("Your visit lasts 45 min")).toBeVisible();
    expect(await bookFirstTime(page, date, uniqueEmail("short-visit"))).toEqual({
      shown: 45,
      filed: 45,
      said: "45 min",
    });
  },
);
