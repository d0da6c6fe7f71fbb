import type { APIRequestContext, Page } from "@playwright/test";
import { expect, ONCE, test } from "./fixtures";
import {
  addCard,
  buttonTarget,
  choosePeelWithFaceArea,
  fillBillingAndAgree,
  fillDetails,
  notBookedNotice,
  showDate,
  uniqueEmail,
} from "./helpers";

/** At a clinic that takes payment at booking: the card saves but its charge is declined. Returns the time chosen ("10:00 AM"). */
async function bookPeelAndFailTheCharge(page: Page, email: string, date: string) {
  await choosePeelWithFaceArea(page);
  const time = (await showDate(page, date)).first();
  const chosen = (await time.textContent())!.trim();
  await time.click();
  await fillDetails(page, email);
  await addCard(page, "4000 0000 0000 0341");
  await fillBillingAndAgree(page);
  await page.getByRole("button", { name: /Pay .* and book/ }).click();
  return chosen;
}

async function appointmentStatuses(sandboxApi: APIRequestContext, email: string) {
  const { guests } = await (
    await sandboxApi.get(`/spa-sandbox/v1/guests/search?email=${encodeURIComponent(email)}`)
  ).json();
  const { appointments } = await (
    await sandboxApi.get(`/spa-sandbox/v1/guests/${guests[0].id}/appointments?include_no_show_cancel=true`)
  ).json();
  return appointments.flatMap((a: { appointment_services: { appointment_status: number }[] }) =>
    a.appointment_services.map((s) => s.appointment_status),
  );
}

/** The page says the payment failed, that nothing was booked and that the time chosen was let go. */
async function expectPaymentFailedNotice(page: Page, chosen: string) {
  const notice = notBookedNotice(page, "Payment failed");
  await expect(notice).toBeVisible();
  await expect(notice).toBeFocused();
  await expect(notice).toContainText("Your card was not charged and your appointment was not booked");
  await expect(notice).toContainText(
    new RegExp(`The time you had chosen, \\w{3} \\w{3} \\d+ @ ${chosen}, was released`),
  );
  return notice;
}

test(
  "a charge declined after confirming removes the appointment and says Payment failed",
  ONCE,
  async ({ page, sandboxApi, bookingDay }) => {
    const { clinic, date } = bookingDay({ prepaid: true });
    const email = uniqueEmail("charge");
    await page.goto(`/locations/${clinic.slug}`);
    await page.getByRole("button", { name: "Book here" }).click();
    const chosen = await bookPeelAndFailTheCharge(page, email, date);
    await expect(page).toHaveURL(/\/appointment\/time/);
    const notice = await expectPaymentFailedNotice(page, chosen);
    await expect(notice).toContainText("Choose a time again below");
    await expect(notice).toContainText("pay with another card");
    expect(await appointmentStatuses(sandboxApi, email)).toEqual([-1, -1]);

    // The choices are kept: the treatment is still chosen, and the next time chosen is held at once.
    await expect(page.getByText(`Glow Peel at ${clinic.name}`)).toBeVisible();
    await page.getByRole("form", { name: "Open times" }).getByRole("button").last().click();
    await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeVisible();
    await expect(page.getByText(/is on hold for the next/)).toBeVisible();
    await expect(notice).toHaveCount(0);
  },
);

test(
  "in the employee flow (done_by) a failed payment returns to the clinic's service page",
  ONCE,
  async ({ page, sandboxApi, bookingDay }) => {
    const { clinic, date } = bookingDay({ prepaid: true });
    const email = uniqueEmail("employee");
    await page.goto(`/locations/${clinic.slug}`);
    const book = await buttonTarget(page.getByRole("button", { name: "Book here" }));
    const centerId = new URL(book, "http://x").searchParams.get("id")!;
    const { therapists } = await (await sandboxApi.get(`/spa-sandbox/v1/centers/${centerId}/therapists`)).json();
    await page.goto(`/appointment/service?id=${centerId}&done_by=${therapists[0].id}`);
    const chosen = await bookPeelAndFailTheCharge(page, email, date);
    await expect(page).toHaveURL(new RegExp(`/appointment/service\\?id=${centerId}$`));
    const notice = await expectPaymentFailedNotice(page, chosen);
    await expect(notice).toContainText("Choose the treatment and a time again below");
    expect(await appointmentStatuses(sandboxApi, email)).toEqual([-1, -1]);
  },
);
