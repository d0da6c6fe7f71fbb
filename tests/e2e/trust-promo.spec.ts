import { expect, ONCE, test } from "./fixtures";
import { chooseFacialWithAddOn, fillDetails, openPromoCode, showDate, startBooking, uniqueEmail } from "./helpers";

test(
  "promo codes can't be guessed quickly: after five tries the booking is told to wait",
  ONCE,
  async ({ page, bookingDay }) => {
    const { clinic, date } = bookingDay();
    await startBooking(page, clinic);
    await chooseFacialWithAddOn(page);
    await (await showDate(page, date)).first().click();
    await fillDetails(page, uniqueEmail("promo"));

    const promo = await openPromoCode(page);
    for (const guess of ["GUESS1", "GUESS2", "GUESS3", "GUESS4", "GUESS5"]) {
      await promo.fill(guess);
      await page.getByRole("button", { name: "Apply" }).click();
      await expect(page.getByText("Invalid Promo Code")).toBeVisible();
    }
    // The sixth, even a real code, is not checked: guessing stays slow, and the input is kept.
    await promo.fill("WELCOME10");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByText(/Too many promo codes tried\. Please wait \d+ minutes? and try again\./)).toBeVisible();
    await expect(page.getByRole("textbox", { name: "Promo code" })).toHaveValue("WELCOME10");
    await expect(page.getByText("WELCOME10 applied")).toHaveCount(0);
  },
);
