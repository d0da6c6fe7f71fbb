import type { APIRequestContext, Page } from "@playwright/test";
import { FAULT_BACKEND_KEY, FAULT_BACKEND_PORT, FAULTS_PORT } from "../../playwright.config";
import type { BookingDay } from "./booking-days";
import { expect, ONCE, test } from "./fixtures";
import {
  addCard,
  buttonTarget,
  chooseFacialWithAddOn,
  fillBillingAndAgree,
  fillDetails,
  showDate,
  uniqueEmail,
} from "./helpers";

/**
 * The server on FAULTS_PORT talks to the sandbox through a fault-injecting proxy. Each test breaks
 * the answers of its own clinic's calls only (bookingDay: no test running at the same time books
 * there), so the tests (and the two projects) run side by side.
 */
test.use({ baseURL: `http://localhost:${FAULTS_PORT}` });

const CONTROL = `http://127.0.0.1:${FAULT_BACKEND_PORT}/__faults`;
const API = `http://127.0.0.1:${FAULT_BACKEND_PORT}/spa-sandbox`;

/** Up to the "Pay ... and book" button at the clinic (a prepaid one) on the date; returns the clinic's id. */
async function readyToPay(page: Page, { clinic, date }: BookingDay, email: string): Promise<string> {
  await page.goto(`/locations/${clinic.slug}`);
  const book = page.getByRole("button", { name: "Book here" });
  const centerId = new URL(await buttonTarget(book), "http://x").searchParams.get("id")!;
  await book.click();
  await chooseFacialWithAddOn(page);
  await (await showDate(page, date)).first().click();
  await fillDetails(page, email);
  await addCard(page, "4242 4242 4242 4242");
  await fillBillingAndAgree(page);
  return centerId;
}

async function breakCalls(
  request: APIRequestContext,
  rule: { method: string; path: string; mode: string; times?: number; centerId: string },
) {
  expect((await request.post(CONTROL, { data: rule })).status()).toBe(204);
}

/** The guest's appointments and charges, read from the back end itself (which answers only this machine). */
async function backEnd(request: APIRequestContext, email: string) {
  const get = (path: string) =>
    request.get(`${API}${path}`, { headers: { authorization: `apikey ${FAULT_BACKEND_KEY}` } }).then((r) => r.json());
  const { guests } = await get(`/v1/guests/search?email=${encodeURIComponent(email)}`);
  const { appointments } = await get(`/v1/guests/${guests[0].id}/appointments`);
  const live = appointments
    .flatMap((a: { appointment_services: { appointment_status: number }[] }) => a.appointment_services)
    .filter((s: { appointment_status: number }) => s.appointment_status === 0);
  const charges = [];
  for (const appointment of appointments)
    charges.push(...(await get(`/v1/invoices/${appointment.invoice_id}`)).invoice.transactions);
  return { live: live.length, charges: charges.length };
}

test(
  "the answer to the charge is lost after the card was charged: the booking stands and the guest sees it",
  ONCE,
  async ({ page, thisMachine: request, bookingDay }) => {
    const email = uniqueEmail("lostcharge");
    const centerId = await readyToPay(page, bookingDay({ prepaid: true }), email);
    await breakCalls(request, { method: "POST", path: "/online_payments$", mode: "reset-after", centerId });
    await page.getByRole("button", { name: /Pay .* and book/ }).click();
    await expect(page.getByRole("heading", { level: 1, name: "You're booked!" })).toBeVisible();
    expect(await backEnd(request, email)).toEqual({ live: 2, charges: 1 });
  },
);

test(
  "the answer to the confirm is lost: the booking is found, paid once, and shown",
  ONCE,
  async ({ page, thisMachine: request, bookingDay }) => {
    const email = uniqueEmail("lostconfirm");
    const centerId = await readyToPay(page, bookingDay({ prepaid: true }), email);
    await breakCalls(request, { method: "POST", path: "/slots/confirm$", mode: "reset-after", centerId });
    await page.getByRole("button", { name: /Pay .* and book/ }).click();
    await expect(page.getByRole("heading", { level: 1, name: "You're booked!" })).toBeVisible();
    expect(await backEnd(request, email)).toEqual({ live: 2, charges: 1 });
  },
);

test(
  "when nothing can be known yet the guest is told so, and pressing again finishes the booking",
  ONCE,
  async ({ page, thisMachine: request, bookingDay }) => {
    const email = uniqueEmail("notknown");
    const centerId = await readyToPay(page, bookingDay({ prepaid: true }), email);
    // The invoice can't be read (the read and its one retry), so the charge is not sent yet.
    await breakCalls(request, { method: "GET", path: "/v1/invoices/[^/]+$", mode: "reset-before", times: 2, centerId });
    await page.getByRole("button", { name: /Pay .* and book/ }).click();
    await expect(page.getByText(/We haven't heard back from our booking system yet/)).toBeVisible();
    expect(await backEnd(request, email)).toEqual({ live: 2, charges: 0 });
    await page.getByRole("button", { name: /Pay .* and book/ }).click();
    await expect(page.getByRole("heading", { level: 1, name: "You're booked!" })).toBeVisible();
    expect(await backEnd(request, email)).toEqual({ live: 2, charges: 1 });
  },
);
