import type { APIRequestContext, Page } from "@playwright/test";
import { APP_PORT } from "../../playwright.config";
import { expect, ONCE, test } from "./fixtures";
import {
  addCard,
  choosePeelWithFaceArea,
  fillBillingAndAgree,
  fillDetails,
  notBookedNotice,
  showDate,
  startBooking,
  uniqueEmail,
} from "./helpers";

const THREE_DS_CARD = "4000 0000 0000 3220";

/** A Glow Peel at a clinic that takes payment at booking, paid with the 3-D Secure test card: ends at the bank's check. */
async function payWithThreeDsCard(page: Page, slug: string, date: string, email: string) {
  await startBooking(page, { slug });
  await choosePeelWithFaceArea(page);
  await (await showDate(page, date)).first().click();
  await fillDetails(page, email);
  await addCard(page, THREE_DS_CARD);
  await fillBillingAndAgree(page);
  const due = await page
    .getByRole("region", { name: "Price summary" })
    .getByRole("row", { name: /^Due now/ })
    .getByRole("cell")
    .textContent();
  await page.getByRole("button", { name: /Pay .* and book/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Verify your payment" })).toBeVisible();
  return due!.trim();
}

async function ledger(sandboxApi: APIRequestContext, email: string) {
  const { guests } = await (
    await sandboxApi.get(`/spa-sandbox/v1/guests/search?email=${encodeURIComponent(email)}`)
  ).json();
  const { appointments } = await (
    await sandboxApi.get(`/spa-sandbox/v1/guests/${guests[0].id}/appointments?include_no_show_cancel=true`)
  ).json();
  const statuses = appointments.flatMap((a: { appointment_services: { appointment_status: number }[] }) =>
    a.appointment_services.map((s) => s.appointment_status),
  );
  const { invoice } = await (await sandboxApi.get(`/spa-sandbox/v1/invoices/${appointments[0].invoice_id}`)).json();
  return { statuses, paid: invoice.invoice_dues.paid as number };
}

// The journeys run at both names of the test server: the hosted pages must be on the one the visitor used.
for (const host of ["localhost", "127.0.0.1"]) {
  test.describe(`at ${host}`, () => {
    test.use({ baseURL: `http://${host}:${APP_PORT}` });

    test(
      "a prepaid booking with a card that needs 3-D Secure is paid once the bank's check is passed",
      host === "localhost" ? {} : ONCE,
      async ({ page, sandboxApi, bookingDay }) => {
        const { clinic, date } = bookingDay({ prepaid: true });
        const email = uniqueEmail("threeds");
        const due = await payWithThreeDsCard(page, clinic.slug, date, email);
        expect(new URL(page.url()).host).toBe(`${host}:${APP_PORT}`);
        await expect(page.getByText(`confirm a payment of ${due.includes(".") ? due : `${due}.00`}`)).toBeVisible();
        await page.getByRole("button", { name: "Approve payment" }).click();

        await expect(page.getByRole("heading", { level: 1, name: "You're booked!" })).toBeVisible();
        await expect(page.getByRole("definition").filter({ hasText: due })).toBeVisible();
        // Kept from the invoice read before the charge: the clinic's number for the booking.
        await expect(page.getByRole("definition").filter({ hasText: /^[A-Z]{3}\d+$/ })).toBeVisible();
        const { statuses, paid } = await ledger(sandboxApi, email);
        expect(statuses).toEqual([0, 0]);
        expect(paid).toBeGreaterThan(0);
      },
    );

    test(
      "a failed 3-D Secure check removes the appointment and says Payment failed",
      ONCE,
      async ({ page, sandboxApi, bookingDay }) => {
        const { clinic, date } = bookingDay({ prepaid: true });
        const email = uniqueEmail("threeds-fail");
        await payWithThreeDsCard(page, clinic.slug, date, email);
        await page.getByRole("button", { name: "Refuse payment" }).click();

        await expect(page).toHaveURL(/\/appointment\/time/);
        const notice = notBookedNotice(page, "Payment failed");
        await expect(notice).toBeVisible();
        await expect(notice).toContainText("Your card was not charged and your appointment was not booked");
        await expect(notice).toContainText(/The time you had chosen, .+, was released/);
        expect(await ledger(sandboxApi, email)).toEqual({ statuses: [-1, -1], paid: 0 });
      },
    );
  });
}
