import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { addCard, choosePeelWithFaceArea, fillBillingAndAgree, fillDetails, showDate, uniqueEmail } from "./helpers";

/** At a clinic that takes payment at booking: the card saves but its charge is declined. */
async function bookPeelAndFailTheCharge(page: Page, email: string, date: string) {
  await choosePeelWithFaceArea(page);
  await (await showDate(page, date)).first().click();
  await fillDetails(page, email);
  await addCard(page, "4000 0000 0000 0341");
  await fillBillingAndAgree(page);
  await page.getByRole("button", { name: /Pay .* and book/ }).click();
}

async function appointmentStatuses(sandboxApi: APIRequestContext, email: string) {
  const { guests } = await (await sandboxApi.get(`/spa-sandbox/v1/guests/search?email=${encodeURIComponent(email)}`)).json();
  const { appointments } = await (await sandboxApi.get(`/spa-sandbox/v1/guests/${guests[0].id}/appointments?include_no_show_cancel=true`)).json();
  return appointments.flatMap((a: { appointment_services: { appointment_status: number }[] }) => a.appointment_services.map((s) => s.appointment_status));
}

test("a charge declined after confirming removes the appointment and says Payment failed", async ({ page, sandboxApi, bookingDay }) => {
  const { clinic, date } = bookingDay({ prepaid: true });
  const email = uniqueEmail("charge");
  await page.goto(`/locations/${clinic.slug}`);
  await page.getByRole("link", { name: "Book here" }).click();
  await bookPeelAndFailTheCharge(page, email, date);
  await expect(page).toHaveURL(/\/appointment\/time/);
  await expect(page.getByText("Payment failed")).toBeVisible();
  expect(await appointmentStatuses(sandboxApi, email)).toEqual([-1, -1]);
});

test("in the employee flow (done_by) a failed payment returns to the clinic's service page", async ({ page, sandboxApi, bookingDay }) => {
  const { clinic, date } = bookingDay({ prepaid: true });
  const email = uniqueEmail("employee");
  await page.goto(`/locations/${clinic.slug}`);
  const book = await page.getByRole("link", { name: "Book here" }).getAttribute("href");
  const centerId = new URL(book!, "http://x").searchParams.get("id")!;
  const { therapists } = await (await sandboxApi.get(`/spa-sandbox/v1/centers/${centerId}/therapists`)).json();
  await page.goto(`/appointment/service?id=${centerId}&done_by=${therapists[0].id}`);
  await bookPeelAndFailTheCharge(page, email, date);
  await expect(page).toHaveURL(new RegExp(`/appointment/service\\?id=${centerId}$`));
  await expect(page.getByText("Payment failed")).toBeVisible();
  expect(await appointmentStatuses(sandboxApi, email)).toEqual([-1, -1]);
});
