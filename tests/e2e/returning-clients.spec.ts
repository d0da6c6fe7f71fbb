import fs from "node:fs";
import type { APIRequestContext, Page } from "@playwright/test";
import { createLinkSigner } from "../../server/booking/sms-link.server";
import type { Clinic } from "./booking-days";
import { expect, ONCE, test } from "./fixtures";
import {
  addCard,
  bookAsNewGuest,
  buttonTarget,
  chooseFacialWithAddOn,
  enterDetails,
  fillBillingAndAgree,
  latestCode,
  otherClientAddress,
  seedExistingClient,
  showDate,
  startBooking,
  uniqueEmail,
  uniquePhone,
} from "./helpers";
import { backEndRecordsOf, bookVisitInBackEnd, closeVisitInBackEnd, moveVisitInBackEnd } from "./visits";

/**
 * A client who has had their first facial is a returning client however they come back (decision
 * 037): proving their record with a code while booking as a guest, through a texted link, or with
 * "Book again" on a manage link. Each is offered, shown and charged the returning facial, at a clinic
 * that takes payment when booking.
 */

const NEW_CLIENT_FACIAL = "Signature Laser Facial - New Client";
const RETURNING_FACIAL = "Signature Laser Facial";

/** A clinic-local start `days` before today, at 10:00 (the sandbox moves visits into the past). */
function daysAgo(days: number): string {
  return `${new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10)}T10:00:00`;
}

/** The guest's first facial, weeks ago, closed by the clinic. */
async function giveFirstFacial(sandboxApi: APIRequestContext, guestId: string, clinic: Clinic, date: string) {
  const visit = await bookVisitInBackEnd(sandboxApi, { guestId, clinic, date, serviceCode: "FT-NEW" });
  await moveVisitInBackEnd(sandboxApi, visit.invoiceId, daysAgo(40));
  await closeVisitInBackEnd(sandboxApi, visit.invoiceId);
}

/** The payment step's total, as "$NNN", and that the button asks it and the booking bar says it. */
async function oneAmount(page: Page): Promise<string> {
  const summary = page.getByRole("region", { name: "Price summary" });
  await expect(summary.getByRole("row", { name: new RegExp(`^${RETURNING_FACIAL} \\$`) })).toBeVisible();
  await expect(summary.getByText(NEW_CLIENT_FACIAL)).toHaveCount(0);
  const total = (await summary
    .getByRole("row", { name: /^Total/ })
    .getByRole("cell")
    .textContent())!.trim();
  await expect(page.getByRole("complementary", { name: "Your booking" }).locator(".summary-price dd")).toHaveText(
    total,
  );
  await expect(page.getByRole("button", { name: `Pay ${total} and book` })).toBeVisible();
  return total;
}

/** Pays and books; the back end's invoice charged the amount shown. */
async function payAndCheckCharge(page: Page, sandboxApi: APIRequestContext, email: string, total: string) {
  await addCard(page, "4242 4242 4242 4242");
  await fillBillingAndAgree(page);
  await page.getByRole("button", { name: `Pay ${total} and book` }).click();
  await expect(page.getByRole("heading", { level: 1, name: "You're booked!" })).toBeVisible();
  await expect(page.getByText(RETURNING_FACIAL, { exact: true })).toBeVisible();
  const { appointments } = await backEndRecordsOf(sandboxApi, email);
  const upcoming = (
    appointments as { invoice_id: string; appointment_services: { service: { name: string } }[] }[]
  ).find((a) => a.appointment_services.some((s) => s.service.name === RETURNING_FACIAL));
  expect(upcoming, "the returning facial booked in the back end").toBeTruthy();
  const invoice = (await (await sandboxApi.get(`/spa-sandbox/v1/invoices/${upcoming!.invoice_id}`)).json()).invoice;
  expect(Math.round(invoice.invoice_dues.total * 100)).toBe(Math.round(Number(total.replace(/[$,]/g, "")) * 100));
}

test("a returning client booking as a guest proves their record and is booked and charged the returning facial", async ({
  page,
  sandboxApi,
  thisMachine,
  bookingDay,
}) => {
  const { clinic, date } = bookingDay({ prepaid: true });
  const email = uniqueEmail("returning-guest");
  const phone = uniquePhone().replace(/\D/g, "");
  const guestId = await seedExistingClient(sandboxApi, clinic.centerId, email, phone);
  await giveFirstFacial(sandboxApi, guestId, clinic, date);

  // Not known yet: the new-client facial is what a visitor is offered.
  await startBooking(page, clinic);
  await chooseFacialWithAddOn(page);
  await (await showDate(page, date)).first().click();
  await enterDetails(page, email);
  await expect(page.getByRole("heading", { level: 1, name: "Welcome back" })).toBeVisible();
  await page.getByLabel("6-digit code").fill(await latestCode(thisMachine, email));
  await page.getByRole("button", { name: "Continue to payment" }).click();

  await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeVisible();
  await expect(
    page.getByText(
      `Welcome back! As a returning client you're booked for ${RETURNING_FACIAL}, at its price, instead of ${NEW_CLIENT_FACIAL}.`,
    ),
  ).toBeVisible();
  await expect(
    page.getByRole("region", { name: "Price summary" }).getByRole("row", { name: /^LED Light Therapy Enhancement/ }),
  ).toBeVisible();
  await payAndCheckCharge(page, sandboxApi, email, await oneAmount(page));
});

test(
  "a returning client's texted link offers the returning facial, not the new-client one",
  ONCE,
  async ({ page, browser, sandboxApi, bookingDay }) => {
    const { clinic, dates } = bookingDay({ prepaid: true, days: 2 });
    const email = uniqueEmail("returning-texted");
    const guestId = await seedExistingClient(sandboxApi, clinic.centerId, email, uniquePhone().replace(/\D/g, ""));
    await giveFirstFacial(sandboxApi, guestId, clinic, dates[0]);
    const secret = fs.readFileSync(".e2e-data/session-secret", "utf8").trim();
    const token = createLinkSigner([secret]).sign(guestId, clinic.centerId);

    const context = await browser.newContext({
      javaScriptEnabled: test.info().project.name !== "no-js",
      extraHTTPHeaders: { "x-forwarded-for": otherClientAddress() },
    });
    const texted = await context.newPage();
    try {
      await texted.goto(`/appointment/service?id=${clinic.centerId}&guest=${token}`);
      await expect(texted.getByRole("button", { name: `Select ${RETURNING_FACIAL}`, exact: true })).toBeVisible();
      await expect(texted.getByRole("button", { name: `Select ${NEW_CLIENT_FACIAL}` })).toHaveCount(0);
      await texted.getByRole("button", { name: `Select ${RETURNING_FACIAL}`, exact: true }).click();
      await texted.getByRole("button", { name: "Continue to date and time" }).click();
      await (await showDate(texted, dates[1])).first().click();
      // The guest is known: no details step.
      await expect(texted.getByRole("heading", { level: 1, name: "Payment" })).toBeVisible();
      await payAndCheckCharge(texted, sandboxApi, email, await oneAmount(texted));
    } finally {
      await context.close();
    }
  },
);

test(
  "Book again on a guest's manage link, after their first facial, opens the returning facial",
  ONCE,
  async ({ page, sandboxApi, thisMachine, bookingDay }) => {
    // Two bookings through the pages, the second with a card: twice a usual journey.
    test.slow();
    const { clinic, dates } = bookingDay({ prepaid: true, days: 2 });
    const email = uniqueEmail("returning-rebook");
    await bookAsNewGuest(page, clinic, dates[0], email);
    const manage = await buttonTarget(page.getByRole("button", { name: "Manage this appointment" }));
    // The clinic closed the visit weeks ago.
    const { appointments } = await backEndRecordsOf(sandboxApi, email);
    await moveVisitInBackEnd(sandboxApi, appointments[0].invoice_id, daysAgo(40));
    await closeVisitInBackEnd(sandboxApi, appointments[0].invoice_id);

    await page.goto(manage);
    await page.getByRole("button", { name: /^Book again/ }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Choose a date and time" })).toBeVisible();
    // The enhancement had with the first facial comes along, in the returning facial's own version (decision 045).
    await expect(page.getByText(`${RETURNING_FACIAL} at ${clinic.name}.`)).toBeVisible();
    await expect(page.getByText("With LED Light Therapy Enhancement, your visit lasts 30 min")).toBeVisible();
    await (await showDate(page, dates[1])).first().click();
    // The same browser, no account: the details step finds the record and asks for its code.
    await enterDetails(page, email);
    await expect(page.getByRole("heading", { level: 1, name: "Welcome back" })).toBeVisible();
    await page.getByLabel("6-digit code").fill(await latestCode(thisMachine, email));
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeVisible();
    const total = await oneAmount(page);
    await addCard(page, "4242 4242 4242 4242");
    await fillBillingAndAgree(page);
    await page.getByRole("button", { name: `Pay ${total} and book` }).click();
    await expect(page.getByRole("heading", { level: 1, name: "You're booked!" })).toBeVisible();
  },
);
