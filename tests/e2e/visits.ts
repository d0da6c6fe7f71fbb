import { expect, type APIRequestContext } from "@playwright/test";
import { seedGuid } from "../../server/spa-sandbox/db";
import type { Clinic } from "./booking-days";

/**
 * Visits made straight in the sandbox through its Zenoti API (create a booking, read its slots,
 * reserve, confirm), for tests about what happens to a visit afterwards: fast, and the same
 * records a booking through the pages makes.
 */

/** The sandbox guest behind an email (an account's, or one a test made). */
export async function guestIdOf(sandboxApi: APIRequestContext, email: string): Promise<string> {
  const found = await sandboxApi.get(`/spa-sandbox/v1/guests/search?email=${encodeURIComponent(email)}`);
  expect(found.status()).toBe(200);
  const body = (await found.json()) as { guests: { id: string }[] };
  expect(body.guests.length, `a guest for ${email}`).toBeGreaterThan(0);
  return body.guests[0].id;
}

export type BookedVisit = { invoiceId: string; appointmentId: string; start: string; end: string; serviceName: string };

/**
 * Books a visit for the guest at the clinic on that date: the first open time, or `time` ("HH:mm").
 * `serviceCode` and `addOnCodes` are the seed's codes (server/spa-sandbox/seed-data.ts).
 */
export async function bookVisitInBackEnd(
  sandboxApi: APIRequestContext,
  options: { guestId: string; clinic: Clinic; date: string; serviceCode?: string; addOnCodes?: string[]; time?: string },
): Promise<BookedVisit> {
  const { guestId, clinic, date } = options;
  const created = await sandboxApi.post("/spa-sandbox/v1/bookings?is_double_booking_enabled=false", {
    data: {
      center_id: clinic.centerId,
      date,
      is_only_catalog_employees: true,
      guests: [
        {
          id: guestId,
          items: [{ item: { id: seedGuid(`service:${options.serviceCode ?? "FT-RET"}`) }, add_ons: (options.addOnCodes ?? []).map((code) => ({ item: { id: seedGuid(`service:${code}`) } })) }],
        },
      ],
    },
  });
  const bookingId = ((await created.json()) as { id: string }).id;
  expect(bookingId, "a booking id").toBeTruthy();
  const slots = (await (await sandboxApi.get(`/spa-sandbox/v1/bookings/${bookingId}/slots`)).json()) as { slots: { Time: string; Available: boolean }[] };
  const open = slots.slots.filter((s) => s.Available && s.Time.startsWith(date));
  const slot = options.time ? open.find((s) => s.Time.slice(11, 16) === options.time) : open[0];
  expect(slot, `an open time on ${date}${options.time ? ` at ${options.time}` : ""}`).toBeTruthy();
  const reserved = (await (await sandboxApi.post(`/spa-sandbox/v1/bookings/${bookingId}/slots/reserve`, { data: { slot_time: slot!.Time } })).json()) as { is_reserved: boolean };
  expect(reserved.is_reserved).toBe(true);
  const confirmed = (await (await sandboxApi.post(`/spa-sandbox/v1/bookings/${bookingId}/slots/confirm`, { data: {} })).json()) as {
    is_confirmed: boolean;
    invoice: { invoice_id: string; items: { appointment_id: string; item: { name: string }; start_time: string; end_time: string }[] };
  };
  expect(confirmed.is_confirmed).toBe(true);
  const items = confirmed.invoice.items;
  return { invoiceId: confirmed.invoice.invoice_id, appointmentId: items[0].appointment_id, start: items[0].start_time, end: items.at(-1)!.end_time, serviceName: items[0].item.name };
}
