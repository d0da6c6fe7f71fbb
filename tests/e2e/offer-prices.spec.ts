import type { Page } from "@playwright/test";
import { centsFromDollars, percentOf } from "../../app/domain/money";
import { formatMoney } from "../../app/lib/money";
import { expect, ONCE, test } from "./fixtures";
import { addCard, fillBillingAndAgree, fillDetails, openPromoCode, showDate, uniqueEmail } from "./helpers";
import { backEndRecordsOf } from "./visits";

/** The Clarifying Peel with its face area, from the clinic page shown, up to the payment step. */
async function clarifyingPeelToPayment(page: Page, date: string, email: string) {
  await page.getByRole("button", { name: "Book here" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Choose your treatment" })).toBeVisible();
  await page.getByRole("button", { name: "Select Clarifying Peel" }).click();
  await page.getByRole("checkbox", { name: /Peel Area - Face/ }).check();
  await page.getByRole("button", { name: "Continue to date and time" }).click();
  await (await showDate(page, date)).first().click();
  await fillDetails(page, email);
}

test("a partner landing shows the partner's prices from the clinic page through booking, and the back end charges them", async ({
  page,
  bookingDay,
  sandboxApi,
}) => {
  const { clinic, date } = bookingDay();
  await page.goto(`/locations/${clinic.slug}?partnerType=glowpass`);
  await expect(page.getByText("Showing GlowPass prices")).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: "Clarifying Peel" })).toContainText("$100");

  const email = uniqueEmail("partner");
  await clarifyingPeelToPayment(page, date, email);
  await expect(page.getByText("100CHARGE applied.")).toBeVisible();
  // The booking's summary beside the steps says the same price.
  await expect(page.getByRole("complementary", { name: "Your booking" })).toContainText(/was \$\d+ \$100/);
  const summary = page.getByRole("region", { name: "Price summary" });
  await expect(summary.getByRole("row", { name: /^Total/ })).toContainText("$100");
  await addCard(page, "4242 4242 4242 4242");
  await fillBillingAndAgree(page);
  await page.getByRole("button", { name: "Book appointment" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "You're booked!" })).toBeVisible();

  // The back end's invoice asks the partner's price.
  const { invoice } = await backEndRecordsOf(sandboxApi, email);
  expect(invoice.invoice_dues.total).toBe(100);
});

test("a clinic's own price is shown and charged there", ONCE, async ({ page, bookingDay }) => {
  const { clinic, date } = bookingDay({ prepaid: true });
  await page.goto(`/locations/${clinic.slug}`);
  await expect(page.getByRole("listitem").filter({ hasText: "Clarifying Peel" })).toContainText("$150");

  await clarifyingPeelToPayment(page, date, uniqueEmail("center-price"));
  const summary = page.getByRole("region", { name: "Price summary" });
  await expect(summary.getByRole("row", { name: /^Due now/ })).toContainText("$150");
  await addCard(page, "4242 4242 4242 4242");
  await fillBillingAndAgree(page);
  await page.getByRole("button", { name: "Pay $150 and book" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "You're booked!" })).toBeVisible();
  await expect(page.getByRole("definition").filter({ hasText: "$150" }).first()).toBeVisible();
});

test(
  "a partnerType that is too long or has odd characters is ignored: list prices, no error",
  ONCE,
  async ({ page, bookingDay }) => {
    const { clinic } = bookingDay();
    for (const partner of ["x".repeat(200), "<script>", "unknown-partner"]) {
      const answer = await page.goto(`/locations/${clinic.slug}?partnerType=${encodeURIComponent(partner)}`);
      expect(answer?.status()).toBe(200);
      await expect(page.getByText(/Showing .* prices/)).toHaveCount(0);
    }
  },
);

test(
  "an offer code typed at payment is refused: a partner's or a clinic's price comes only with the visit it is for",
  ONCE,
  async ({ page, bookingDay }) => {
    const { clinic, date } = bookingDay();
    await page.goto(`/locations/${clinic.slug}`);
    await clarifyingPeelToPayment(page, date, uniqueEmail("typed-tier"));
    await openPromoCode(page);
    for (const code of ["100CHARGE", "ft50raf"]) {
      await page.getByLabel("Promo code").fill(code);
      await page.getByRole("button", { name: "Apply" }).click();
      await expect(page.getByText("Invalid Promo Code")).toBeVisible();
      await expect(page.getByLabel("Promo code")).toHaveValue(code);
    }
  },
);

test(
  "a treatment in an offer tier is shown and charged at the tier's percent off: sculpting, 9%",
  ONCE,
  async ({ page, bookingDay, sandboxApi }) => {
    const { clinic, date } = bookingDay({ prepaid: true });
    const { services } = await sandboxApi
      .get(`/spa-sandbox/v1/centers/${clinic.centerId}/services?size=100`)
      .then((r) => r.json());
    const list = centsFromDollars(services.find((s: { name: string }) => s.name === "Sculpting").price_info.sale_price);
    const offered = list - percentOf(list, 9);

    await page.goto(`/locations/${clinic.slug}`);
    // The list price struck through before the offer's, as on the treatment step.
    await expect(page.getByRole("listitem").filter({ hasText: "Sculpting" })).toContainText(
      `was ${formatMoney(list)} ${formatMoney(offered)}`,
    );
    await page.getByRole("button", { name: "Book here" }).click();
    await page.getByRole("button", { name: "Select Sculpting" }).click();
    await page.getByRole("button", { name: "Continue to date and time" }).click();
    await (await showDate(page, date)).first().click();
    const email = uniqueEmail("offer-tier");
    await fillDetails(page, email);

    const summary = page.getByRole("region", { name: "Price summary" });
    await expect(summary.getByRole("row", { name: /^Due now/ })).toContainText(formatMoney(offered));
    await expect(page.getByRole("complementary", { name: "Your booking" })).toContainText(formatMoney(offered));
    await addCard(page, "4242 4242 4242 4242");
    await fillBillingAndAgree(page);
    await page.getByRole("button", { name: `Pay ${formatMoney(offered)} and book` }).click();
    await expect(page.getByRole("heading", { level: 1, name: "You're booked!" })).toBeVisible();

    // The back end's campaign of the tier's code charged the same amount.
    const { invoice } = await backEndRecordsOf(sandboxApi, email);
    expect(centsFromDollars(invoice.invoice_dues.total)).toBe(offered);
  },
);
