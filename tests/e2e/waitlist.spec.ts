import type { APIRequestContext, Page } from "@playwright/test";
import { seedGuid } from "../../server/spa-sandbox/db";
import { nurseWorkingOn, type Clinic } from "./booking-days";
import { expect, signIn, test } from "./fixtures";
import {
  addCard,
  chooseFacialWithNurse,
  fillBillingAndAgree,
  fillDetails,
  otherClientAddress,
  startBooking,
  uniqueEmail,
} from "./helpers";
import { guestCancelReason, guestIdOf } from "./visits";

/**
 * The waitlist of full days (issue 33, decision 058), with JavaScript and without: two guests join
 * the waitlist of a nurse's full day; a visit that day is cancelled through the site; both are told
 * in the order they joined, the first books the freed time from her link, and the second's link
 * then says it has gone.
 */

/** Books every open time of the nurse that day for the guest, straight in the sandbox: her day is full. */
async function fillNursesDay(
  sandboxApi: APIRequestContext,
  options: { guestId: string; clinic: Clinic; date: string; nurseId: string },
): Promise<string[]> {
  const { guestId, clinic, date, nurseId } = options;
  const invoices: string[] = [];
  for (let visits = 0; visits < 40; visits++) {
    const created = await sandboxApi.post("/spa-sandbox/v1/bookings?is_double_booking_enabled=false", {
      data: {
        center_id: clinic.centerId,
        date,
        is_only_catalog_employees: true,
        guests: [{ id: guestId, items: [{ item: { id: seedGuid("service:FT-NEW") }, therapist: { id: nurseId } }] }],
      },
    });
    const bookingId = ((await created.json()) as { id: string }).id;
    const { slots } = (await (await sandboxApi.get(`/spa-sandbox/v1/bookings/${bookingId}/slots`)).json()) as {
      slots: { Time: string; Available: boolean }[];
    };
    const open = slots.find((s) => s.Available && s.Time.startsWith(date));
    if (!open) return invoices;
    await sandboxApi.post(`/spa-sandbox/v1/bookings/${bookingId}/slots/reserve`, { data: { slot_time: open.Time } });
    const confirmed = (await (
      await sandboxApi.post(`/spa-sandbox/v1/bookings/${bookingId}/slots/confirm`, { data: {} })
    ).json()) as { invoice: { invoice_id: string } };
    invoices.push(confirmed.invoice.invoice_id);
  }
  throw new Error(`the nurse's day ${date} never filled`);
}

/** The nurse's id at the clinic, by the name the pages show. */
async function nurseId(sandboxApi: APIRequestContext, clinic: Clinic, name: string): Promise<string> {
  const { therapists } = (await (
    await sandboxApi.get(`/spa-sandbox/v1/centers/${clinic.centerId}/therapists`)
  ).json()) as { therapists: { id: string; personal_info: { name: string } }[] };
  return therapists.find((t) => t.personal_info.name === name)!.id;
}

/** A new visitor joins the waitlist of the nurse's day, from the time step's full day. */
async function joinWaitlist(page: Page, clinic: Clinic, date: string, nurse: string, contact: string) {
  await startBooking(page, clinic);
  await chooseFacialWithNurse(page, new RegExp(`^${nurse}`));
  await page.goto(`/appointment/time?date=${date}`);
  await expect(page.getByText("No times are open on this day.")).toBeVisible();
  await page.getByRole("button", { name: "Tell me when a time opens" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Tell me when a time opens" })).toBeVisible();
  // The day looked at, every time of day and the nurse chosen come ticked; the contact and consent are the guest's.
  await expect(page.locator(`input[name="days"][value="${date}"]`)).toBeChecked();
  await expect(page.getByLabel("Nurse")).toHaveValue(/.+/);
  await page.getByRole("button", { name: "Tell me when a time opens" }).click();
  // Refused without a contact and consent: said at the fields, the choices kept.
  await expect(page.getByText("Please enter your email or a US mobile number.")).toBeVisible();
  await expect(page.getByText("Please agree to be contacted about open times.")).toBeVisible();
  await expect(page.locator(`input[name="days"][value="${date}"]`)).toBeChecked();
  await page.getByLabel("Email or mobile number").fill(contact);
  await page.getByRole("checkbox", { name: /I agree to be contacted/ }).check();
  await page.getByRole("button", { name: "Tell me when a time opens" }).click();
  await expect(page.getByText("You're on the waitlist.")).toBeVisible();
}

/** The path of the newest waitlist offer sent to this contact, read from the outbox. */
async function offerPath(thisMachine: APIRequestContext, contact: string): Promise<string | null> {
  const outbox = await (await thisMachine.get("/dev/outbox")).text();
  const message = outbox.split("<li").find((item) => item.includes(contact) && item.includes("waitlist-offer"));
  return message ? (/\/waitlist\/offer\/[\w.-]+/.exec(message)?.[0] ?? null) : null;
}

test("a guest on the waitlist of a full day books the time a cancel frees; the second guest told is told it has gone", async ({
  page,
  browser,
  account,
  sandboxApi,
  thisMachine,
  bookingDay,
  playwright,
  baseURL,
}) => {
  // A day the waitlist offers: within its two weeks.
  const { clinic, date } = bookingDay({ withinDays: 12 });
  const nurse = nurseWorkingOn(clinic, date);
  const guestId = await guestIdOf(sandboxApi, account.email);
  const visits = await fillNursesDay(sandboxApi, {
    guestId,
    clinic,
    date,
    nurseId: await nurseId(sandboxApi, clinic, nurse),
  });
  expect(visits.length).toBeGreaterThan(1);

  // Two guests join, one after the other.
  const first = uniqueEmail("waitlist-first");
  const second = uniqueEmail("waitlist-second");
  await joinWaitlist(page, clinic, date, nurse, first);
  const other = await browser.newContext({
    javaScriptEnabled: test.info().project.use.javaScriptEnabled,
    baseURL,
    extraHTTPHeaders: { "x-forwarded-for": otherClientAddress() },
  });
  const secondPage = await other.newPage();
  await joinWaitlist(secondPage, clinic, date, nurse, second);

  // The account holding the day cancels a visit through the site.
  const desk = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { "x-forwarded-for": otherClientAddress() },
  });
  await signIn(desk, account, baseURL!);
  const reason = await guestCancelReason(sandboxApi);
  const cancelled = await desk.post(`/account/appointments/${visits[0]}/cancel`, {
    form: { reasonId: reason.id, comment: "Something came up." },
    headers: { origin: new URL(baseURL!).origin, "sec-fetch-site": "same-origin" },
    maxRedirects: 0,
  });
  expect(cancelled.status()).toBe(302);
  await desk.dispose();

  // Both are told, the first to join first; the first books the time from her link.
  await expect.poll(() => offerPath(thisMachine, second), { timeout: 30_000 }).not.toBeNull();
  const firstLink = (await offerPath(thisMachine, first))!;
  expect(firstLink).not.toBeNull();
  await page.goto(firstLink);
  await expect(page.getByRole("heading", { level: 1, name: "Choose a date and time" })).toBeVisible();
  const offered = page.getByRole("button", { name: /^Book \d{1,2}:\d{2} (AM|PM) on / });
  await expect(page.getByText("The time you were told about is still open:")).toBeVisible();
  await offered.click();
  await fillDetails(page, first);
  await addCard(page, "4242 4242 4242 4242");
  await fillBillingAndAgree(page);
  await page.getByRole("button", { name: /^(Book appointment|Pay \$[\d,.]+ and book)$/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "You're booked!" })).toBeVisible();

  // The second guest's link: the time has gone, and she is still waiting.
  const gone = await secondPage.goto((await offerPath(thisMachine, second))!);
  expect(gone?.status()).toBe(410);
  await expect(secondPage.getByRole("heading", { level: 1, name: "That time has gone" })).toBeVisible();
  await expect(secondPage.getByText("You're still on the waitlist")).toBeVisible();

  // A forged link changes nothing and says so ("abd" ends no genuine signature: the last letter of
  // one never has its spare bits set).
  const forged = await secondPage.goto(`${firstLink.slice(0, -3)}abd`);
  expect(forged?.status()).toBe(400);
  await expect(secondPage.getByRole("heading", { level: 1, name: "This link doesn't work" })).toBeVisible();

  // Leaving is one click from the message.
  await secondPage.goto((await offerPath(thisMachine, second))!);
  await secondPage.getByRole("link", { name: "Leave the waitlist" }).click();
  await expect(secondPage.getByRole("heading", { level: 1, name: "You've left the waitlist" })).toBeVisible();
  await other.close();
});
