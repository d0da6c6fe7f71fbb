import type { Page } from "@playwright/test";
import { expect, ONCE, test } from "./fixtures";
import {
  addCard,
  choosePeelWithFaceArea,
  fillBillingAndAgree,
  fillDetails,
  openPromoCode,
  showDate,
  startBooking,
  uniqueEmail,
} from "./helpers";

/** "$1,234.50" → 123450. */
const cents = (text: string) => Math.round(Number(text.replace(/[^\d.]/g, "")) * 100);
const shown = (amount: number) => `$${(amount / 100).toFixed(2)}`.replace(/\.00$/, "");

/**
 * PEEL20 is 20% off in our promo store but 10% off in the back end's campaign (the sandbox seed):
 * a Glow Peel at a prepaid clinic, with the code applied, up to the "Pay and book" press.
 */
async function peelWithMismatchedPromo(page: Page, slug: string, date: string) {
  await startBooking(page, { slug });
  await choosePeelWithFaceArea(page);
  await (await showDate(page, date)).first().click();
  await fillDetails(page, uniqueEmail("peel20"));
  const summary = page.getByRole("region", { name: "Price summary" });
  const list = cents(
    (await summary
      .getByRole("row", { name: /^Total/ })
      .getByRole("cell")
      .textContent())!,
  );
  await openPromoCode(page);
  await page.getByLabel("Promo code").fill("PEEL20");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("PEEL20 applied.")).toBeVisible();
  await expect(summary.getByRole("row", { name: /^Due now/ })).toContainText(shown(list * 0.8));
  await addCard(page, "4242 4242 4242 4242");
  await fillBillingAndAgree(page);
  await page.getByRole("button", { name: `Pay ${shown(list * 0.8)} and book` }).click();
  return { ours: list * 0.8, backEnd: list * 0.9 };
}

test("a promo the back end prices differently is shown at the back end's price, and charged only once agreed", async ({
  page,
  bookingDay,
}) => {
  const { clinic, date } = bookingDay({ prepaid: true });
  const { ours, backEnd } = await peelWithMismatchedPromo(page, clinic.slug, date);

  await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "Our booking system prices this booking at" })).toContainText(
    `at ${shown(backEnd)}, not the ${shown(ours)} we showed you, so nothing has been charged`,
  );
  const summary = page.getByRole("region", { name: "Price summary" });
  await expect(summary.getByRole("row", { name: /^Due now/ })).toContainText(shown(backEnd));

  await page.getByRole("checkbox", { name: "I agree to the cancellation policy" }).check();
  await page.getByRole("button", { name: `Pay ${shown(backEnd)} and book` }).click();
  await expect(page.getByRole("heading", { level: 1, name: "You're booked!" })).toBeVisible();
  await expect(page.getByRole("definition").filter({ hasText: shown(backEnd) })).toBeVisible();
});

test(
  "the back end's price can be refused: the booking is cancelled, nothing charged, the code removed",
  ONCE,
  async ({ page, bookingDay }) => {
    const { clinic, date } = bookingDay({ prepaid: true });
    await peelWithMismatchedPromo(page, clinic.slug, date);
    await page.getByRole("button", { name: "Cancel booking" }).click();

    await expect(page).toHaveURL(/\/appointment\/time/);
    await expect(page.getByText("Your booking was cancelled and your card was not charged")).toBeVisible();
  },
);
