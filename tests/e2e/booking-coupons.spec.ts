import type { APIRequestContext, Page } from "@playwright/test";
import { seedCouponDiscounts } from "../../server/spa-sandbox/seed-data";
import { expect, ONCE, test } from "./fixtures";
import {
  addCard,
  chooseFacialWithAddOn,
  fillBillingAndAgree,
  fillDetails,
  openPromoCode,
  showDate,
  startBooking,
  uniqueEmail,
} from "./helpers";
import { guestIdOf } from "./visits";

/**
 * Codes on a booking (decision 044): a signed-in guest's own coupon, chosen from the list or typed,
 * and the $200-off promo. Each is taken off once, on a row of its own, and what is charged is the
 * total the page showed.
 */

const FACIAL_COUPON = seedCouponDiscounts[0].description;

/** Dollars shown on the page ("$1,234.50") in cents. */
const cents = (shown: string) => Math.round(Number(shown.replace(/[^\d.]/g, "")) * 100);

function summaryRow(page: Page, name: RegExp) {
  return page.getByRole("region", { name: "Price summary" }).getByRole("row", { name });
}

async function amount(page: Page, name: RegExp): Promise<number> {
  return cents((await summaryRow(page, name).getByRole("cell").textContent()) ?? "");
}

async function issueCoupon(sandboxApi: APIRequestContext, guestId: string): Promise<string> {
  const issued = await sandboxApi.post(`/spa-sandbox/v1/sandbox/guests/${guestId}/coupons`, {
    data: { description: FACIAL_COUPON },
  });
  const body = (await issued.json()) as { number: string; error: unknown };
  expect(body.error).toBeNull();
  return body.number;
}

/** What the back end charged on the guest's visit. */
async function charged(sandboxApi: APIRequestContext, guestId: string): Promise<number> {
  const { appointments } = await (await sandboxApi.get(`/spa-sandbox/v1/guests/${guestId}/appointments`)).json();
  const { invoice } = await (await sandboxApi.get(`/spa-sandbox/v1/invoices/${appointments[0].invoice_id}`)).json();
  return Math.round(invoice.invoice_dues.paid * 100);
}

async function payAndBook(page: Page): Promise<number> {
  await addCard(page, "4242 4242 4242 4242");
  await fillBillingAndAgree(page);
  const due = await amount(page, /^Due now/);
  await page.getByRole("button", { name: /^Pay \$[\d,.]+ and book$/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "You're booked!" })).toBeVisible();
  return due;
}

test("a signed-in guest applies a coupon of theirs from the list: taken off once, and the charge is the total shown", async ({
  page,
  signedIn,
  sandboxApi,
  bookingDay,
}) => {
  const { clinic, date } = bookingDay({ prepaid: true });
  const guestId = await guestIdOf(sandboxApi, signedIn.email);
  const number = await issueCoupon(sandboxApi, guestId);

  await startBooking(page, clinic);
  await chooseFacialWithAddOn(page);
  await (await showDate(page, date)).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeVisible();
  const before = await amount(page, /^Total/);

  const offered = page.getByRole("radio", {
    name: new RegExp(`^Coupon ${number}: ${FACIAL_COUPON.replace("$", "\\$")}`),
  });
  await expect(offered).toBeVisible();
  await offered.check();
  await page.getByRole("button", { name: "Apply coupon" }).click();
  await expect(page.getByText(`Coupon ${number} applied.`)).toBeVisible();
  await expect(summaryRow(page, new RegExp(`^Coupon ${number}`))).toHaveText(/−\$30(\.00)?$/);
  await expect(summaryRow(page, /^Promo code/)).toHaveCount(0);
  expect(await amount(page, /^Total/)).toBe(before - 3000);

  const due = await payAndBook(page);
  expect(due).toBe(before - 3000);
  expect(await charged(sandboxApi, guestId)).toBe(due);

  // Used: the next booking does not offer it.
  const coupons = (await (await sandboxApi.get(`/spa-sandbox/v1/guests/${guestId}/coupons`)).json()) as {
    coupons: { number: string; redemption: string }[];
  };
  expect(coupons.coupons.find((c) => c.number === number)?.redemption).toBe("Redeemed");
});

test(
  "a coupon number typed as a code is recognised as the guest's coupon; an unknown code keeps the promo message",
  ONCE,
  async ({ page, signedIn, sandboxApi, bookingDay }) => {
    const { clinic, date } = bookingDay();
    const number = await issueCoupon(sandboxApi, await guestIdOf(sandboxApi, signedIn.email));
    await startBooking(page, clinic);
    await chooseFacialWithAddOn(page);
    await (await showDate(page, date)).first().click();
    await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeVisible();

    await openPromoCode(page);
    await page.getByLabel("Promo code").fill("NOSUCHCODE");
    await page.getByRole("button", { name: "Apply", exact: true }).click();
    await expect(page.getByText("Invalid Promo Code").first()).toBeVisible();

    await page.getByLabel("Promo code").fill(number.toLowerCase());
    await page.getByRole("button", { name: "Apply", exact: true }).click();
    await expect(page.getByText(`Coupon ${number} applied.`)).toBeVisible();
    await expect(summaryRow(page, new RegExp(`^Coupon ${number}`))).toHaveText(/−\$30(\.00)?$/);
    await page.getByRole("button", { name: "Remove coupon" }).click();
    await expect(summaryRow(page, new RegExp(`^Coupon ${number}`))).toHaveCount(0);
  },
);

test(
  "the $200-off promo takes $200 off a new client's facial, once, and the charge is the total shown",
  ONCE,
  async ({ page, sandboxApi, bookingDay }) => {
    const { clinic, date } = bookingDay({ prepaid: true });
    const email = uniqueEmail("glow200");
    await startBooking(page, clinic);
    await chooseFacialWithAddOn(page);
    await (await showDate(page, date)).first().click();
    await fillDetails(page, email);
    const before = await amount(page, /^Total/);

    await openPromoCode(page);
    await page.getByLabel("Promo code").fill("glow200");
    await page.getByRole("button", { name: "Apply", exact: true }).click();
    await expect(page.getByText("GLOW200 applied.")).toBeVisible();
    await expect(summaryRow(page, /^Promo code GLOW200/)).toHaveText(/−\$200(\.00)?$/);
    expect(await amount(page, /^Total/)).toBe(before - 20000);

    const due = await payAndBook(page);
    expect(due).toBe(before - 20000);
    expect(await charged(sandboxApi, await guestIdOf(sandboxApi, email))).toBe(due);
  },
);
