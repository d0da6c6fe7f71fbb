import type { Page } from "@playwright/test";
import { CANCELLATION_POLICY, cancellationPolicyLine } from "../../app/domain/booking";
import { PAYMENT_MESSAGES } from "../../app/domain/payment";
import { formatMoney } from "../../app/lib/money";
import { expect, test } from "./fixtures";
import { chooseFacialWithAddOn, fillDetails, saveCardOnCardPage, showDate, uniqueEmail } from "./helpers";
import type { Clinic } from "./booking-days";

/**
 * The payment step on a cheap phone: what the guest agrees to and why paying is safe, said where
 * they press; where focus is after a failed press; and where they land back from the card page.
 * With JavaScript and without.
 */

const PAY = /^(Book appointment|Pay \$[\d,.]+ and book)$/;

/** The clinic page's phone link (what the clinic gives the back end), then the booking up to its payment step. */
async function reachPayment(page: Page, clinic: Pick<Clinic, "slug">, date: string) {
  await page.goto(`/locations/${clinic.slug}`);
  const phone = page.getByRole("main").locator('a[href^="tel:"]').first();
  const clinicPhone = { href: await phone.getAttribute("href"), text: (await phone.textContent())?.trim() };
  await page.getByRole("button", { name: "Book here" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Choose your treatment" })).toBeVisible();
  await chooseFacialWithAddOn(page);
  await (await showDate(page, date)).first().click();
  await fillDetails(page, uniqueEmail("pay.step"));
  return clinicPhone;
}

test("the pay button has the cancellation policy with its fee, where the card is entered, and the clinic's phone", async ({
  page,
  bookingDay,
}) => {
  const { clinic, date } = bookingDay();
  const clinicPhone = await reachPayment(page, clinic, date);
  expect(clinicPhone.href).toMatch(/^tel:\+1\d{10}$/);

  const trust = page.getByRole("list", { name: "Before you book" });
  const policyLine = cancellationPolicyLine(CANCELLATION_POLICY);
  await expect(trust.getByRole("listitem").first()).toHaveText(policyLine);
  // The fee said is the policy's own, the one a late cancel charges.
  expect(policyLine).toContain(`costs ${formatMoney(CANCELLATION_POLICY.feeCents)}.`);
  await expect(trust).toContainText("Your card is entered on our payment provider's secure page");
  const call = trust.getByRole("link", { name: clinicPhone.text });
  await expect(call).toHaveAttribute("href", clinicPhone.href!);
  // The button itself is described by the policy: a screen reader hears it before pressing.
  await expect(page.getByRole("button", { name: PAY })).toHaveAccessibleDescription(policyLine);
});

test("a failed press puts focus on the first message in page order", async ({ page, bookingDay }) => {
  const { clinic, date } = bookingDay();
  await reachPayment(page, clinic, date);

  // No card, nothing filled: the first message is the form's own (no card), in the summary above the fields.
  await page.getByRole("button", { name: PAY }).click();
  const summary = page.locator(".error-summary");
  await expect(summary).toContainText(PAYMENT_MESSAGES.card);
  await expect(summary).toBeFocused();
  await expect(page.getByLabel("Street address")).not.toBeFocused();

  // With a card and the street typed, the first message is the city's: focus goes to that field.
  await page.getByRole("button", { name: /Add (a|another) card/ }).click();
  await saveCardOnCardPage(page, "4242 4242 4242 4242");
  await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeVisible();
  await page.getByLabel("Street address").fill("100 Main St");
  await page.getByRole("button", { name: PAY }).click();
  await expect(page.getByLabel("City")).toBeFocused();
  await expect(page.getByRole("alert").filter({ hasText: "Please correct the errors below." })).toBeVisible();
  await expect(page.getByLabel("Street address")).toHaveValue("100 Main St");
});

test("back from the hosted card page the guest is on the next thing to do", async ({ page, bookingDay }) => {
  const { clinic, date } = bookingDay();
  await reachPayment(page, clinic, date);

  // A card the provider declined: the message saying so, the card left to add.
  await page.getByRole("button", { name: /Add (a|another) card/ }).click();
  await saveCardOnCardPage(page, "4000 0000 0000 0002");
  await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "Your card was not added" })).toBeFocused();

  // Nothing typed yet: the street address.
  await page.getByRole("button", { name: /Add (a|another) card/ }).click();
  await saveCardOnCardPage(page, "4242 4242 4242 4242");
  await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeVisible();
  await expect(page.getByLabel("Street address")).toBeFocused();

  // The street and city typed before going: the state, the first field left.
  await page.getByLabel("Street address").fill("100 Main St");
  await page.getByLabel("City").fill("Austin");
  await page.getByRole("button", { name: /Add (a|another) card/ }).click();
  await saveCardOnCardPage(page, "5555 5555 5555 4444");
  await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeVisible();
  await expect(page.getByLabel("State")).toBeFocused();
  await expect(page.getByLabel("City")).toHaveValue("Austin");

  // The whole address typed: the policy, the last thing before the pay button.
  await page.getByLabel("State").selectOption("TX");
  await page.getByLabel("ZIP code").fill("78701");
  await page.getByRole("button", { name: /Add (a|another) card/ }).click();
  await saveCardOnCardPage(page, "4242 4242 4242 4242");
  await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeVisible();
  const policy = page.getByRole("checkbox", { name: "I agree to the cancellation policy" });
  await expect(policy).toBeFocused();
  await page.keyboard.press("Space");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: PAY })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: "You're booked!" })).toBeVisible();
});

test("on a 360-pixel screen the step's heading follows the booking bar, with no band between", async ({
  page,
  bookingDay,
}) => {
  await page.setViewportSize({ width: 360, height: 800 });
  const { clinic, date } = bookingDay();
  await reachPayment(page, clinic, date);
  const bar = await page.getByRole("complementary", { name: "Your booking" }).boundingBox();
  const heading = await page.getByRole("heading", { level: 1, name: "Payment" }).boundingBox();
  // The bar holds the time and how long it is kept; the hold banner that repeated it (100 px and
  // more) stays for screen readers only.
  expect(heading!.y - (bar!.y + bar!.height)).toBeLessThan(48);
  await expect(page.getByRole("status").filter({ hasText: "is on hold for the next" })).toHaveCount(1);
});
