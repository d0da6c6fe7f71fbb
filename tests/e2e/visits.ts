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

/**
 * What the back end holds for the one guest with this email: their appointments (cancelled and
 * no-show ones too) and the first one's invoice with its transactions, for tests that count what a
 * booking made.
 */
export async function backEndRecordsOf(sandboxApi: APIRequestContext, email: string) {
  const api = (path: string) => sandboxApi.get(`/spa-sandbox${path}`).then((r) => r.json());
  const { guests } = await api(`/v1/guests/search?email=${encodeURIComponent(email)}`);
  expect(guests, `one guest record for ${email}`).toHaveLength(1);
  const { appointments } = await api(`/v1/guests/${guests[0].id}/appointments`);
  const invoice = appointments[0] ? (await api(`/v1/invoices/${appointments[0].invoice_id}`)).invoice : null;
  return { guestId: guests[0].id as string, appointments, invoice };
}

export type BookedVisit = { invoiceId: string; appointmentId: string; start: string; end: string; serviceName: string };

/**
 * Books a visit for the guest at the clinic on that date: the first open time, or `time` ("HH:mm").
 * `serviceCode` and `addOnCodes` are the seed's codes (server/spa-sandbox/seed-data.ts).
 */
export async function bookVisitInBackEnd(
  sandboxApi: APIRequestContext,
  options: {
    guestId: string;
    clinic: Clinic;
    date: string;
    serviceCode?: string;
    addOnCodes?: string[];
    time?: string;
  },
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
          items: [
            {
              item: { id: seedGuid(`service:${options.serviceCode ?? "FT-RET"}`) },
              add_ons: (options.addOnCodes ?? []).map((code) => ({ item: { id: seedGuid(`service:${code}`) } })),
            },
          ],
        },
      ],
    },
  });
  const bookingId = ((await created.json()) as { id: string }).id;
  expect(bookingId, "a booking id").toBeTruthy();
  const slots = (await (await sandboxApi.get(`/spa-sandbox/v1/bookings/${bookingId}/slots`)).json()) as {
    slots: { Time: string; Available: boolean }[];
  };
  const open = slots.slots.filter((s) => s.Available && s.Time.startsWith(date));
  const slot = options.time ? open.find((s) => s.Time.slice(11, 16) === options.time) : open[0];
  expect(slot, `an open time on ${date}${options.time ? ` at ${options.time}` : ""}`).toBeTruthy();
  const reserved = (await (
    await sandboxApi.post(`/spa-sandbox/v1/bookings/${bookingId}/slots/reserve`, { data: { slot_time: slot!.Time } })
  ).json()) as { is_reserved: boolean };
  expect(reserved.is_reserved).toBe(true);
  const confirmed = (await (
    await sandboxApi.post(`/spa-sandbox/v1/bookings/${bookingId}/slots/confirm`, { data: {} })
  ).json()) as {
    is_confirmed: boolean;
    invoice: {
      invoice_id: string;
      items: { appointment_id: string; item: { name: string }; start_time: string; end_time: string }[];
    };
  };
  expect(confirmed.is_confirmed).toBe(true);
  const items = confirmed.invoice.items;
  return {
    invoiceId: confirmed.invoice.invoice_id,
    appointmentId: items[0].appointment_id,
    start: items[0].start_time,
    end: items.at(-1)!.end_time,
    serviceName: items[0].item.name,
  };
}

/** Moves a visit to another clinic-local start (the sandbox's own control; the past allowed). */
export async function moveVisitInBackEnd(
  sandboxApi: APIRequestContext,
  invoiceId: string,
  start: string,
): Promise<void> {
  const moved = (await (
    await sandboxApi.post(`/spa-sandbox/v1/sandbox/appointments/${invoiceId}/move`, { data: { start } })
  ).json()) as { success?: boolean };
  expect(moved.success).toBe(true);
}

/** The front desk closes the visit: the guest has been (status 1). */
export async function closeVisitInBackEnd(sandboxApi: APIRequestContext, invoiceId: string): Promise<void> {
  expect(
    ((await (await sandboxApi.post(`/spa-sandbox/v1/invoices/${invoiceId}/close`)).json()) as { success?: boolean })
      .success,
  ).toBe(true);
}

/** The front desk marks a no-show (status -2). */
export async function noShowInBackEnd(sandboxApi: APIRequestContext, invoiceId: string): Promise<void> {
  expect(
    (
      (await (
        await sandboxApi.put(`/spa-sandbox/v1/appointments/${invoiceId}/no_show`, {
          data: { comments: "did not arrive" },
        })
      ).json()) as { error?: unknown }
    ).error,
  ).toBeNull();
}

/** The first reason the back end lets a guest give for cancelling online. */
export async function guestCancelReason(sandboxApi: APIRequestContext): Promise<{ id: string }> {
  const reasons = (
    (await (await sandboxApi.get("/spa-sandbox/v1/reasons")).json()) as {
      reasons: {
        id: string;
        object_type: number;
        action_type: number;
        active: boolean;
        show_in_online_booking: boolean;
      }[];
    }
  ).reasons;
  return reasons.find((r) => r.object_type === 2 && r.action_type === 0 && r.active && r.show_in_online_booking)!;
}

/** Cancels the visit in the back end with the first reason a guest may give. */
export async function cancelInBackEnd(sandboxApi: APIRequestContext, invoiceId: string): Promise<void> {
  const reason = await guestCancelReason(sandboxApi);
  const cancelled = (await (
    await sandboxApi.put(`/spa-sandbox/v1/invoices/${invoiceId}/cancel`, {
      data: { reason_id: reason.id, comments: "test" },
    })
  ).json()) as { success?: boolean };
  expect(cancelled.success).toBe(true);
}

/** The statuses of a guest's visit in the back end, by its invoice. */
export async function visitStatuses(
  sandboxApi: APIRequestContext,
  guestId: string,
  invoiceId: string,
): Promise<{ start: string; status: number }[]> {
  const body = (await (
    await sandboxApi.get(`/spa-sandbox/v1/guests/${guestId}/appointments?include_no_show_cancel=true&page=1&size=100`)
  ).json()) as {
    appointments: { invoice_id: string; appointment_services: { start_time: string; appointment_status: number }[] }[];
  };
  const visit = body.appointments.find((a) => a.invoice_id === invoiceId);
  return (visit?.appointment_services ?? []).map((s) => ({ start: s.start_time, status: s.appointment_status }));
}

/** A second account's guest with a visit: for tests that another guest's visit stays out of reach. */
export async function otherGuestVisit(
  sandboxApi: APIRequestContext,
  clinic: Clinic,
  date: string,
  email: string,
  phone: string,
): Promise<{ guestId: string; visit: BookedVisit }> {
  const created = await sandboxApi.post("/spa-sandbox/v1/guests", {
    data: {
      center_id: clinic.centerId,
      personal_info: {
        first_name: "Other",
        last_name: "Guest",
        email,
        mobile_phone: { country_code: 225, number: phone },
      },
    },
  });
  const guestId = ((await created.json()) as { id: string }).id;
  return { guestId, visit: await bookVisitInBackEnd(sandboxApi, { guestId, clinic, date }) };
}
