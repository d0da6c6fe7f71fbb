import type { Router } from "express";
import { randomUUID } from "node:crypto";
import { dayjs } from "../../app/lib/dayjs";
import { campaignDiscounts, toCents, toDollars, type CampaignBenefit, type LineKind } from "./campaigns";
import { couponBenefits } from "./coupons";
import { toIanaTimeZone } from "../spa/time-zones.server";
import { findRow, type InvoiceRow, normalizeId, type SandboxDb } from "./db";
import { dotNetError, isRefusal, refusal, v1Error, type Refusal } from "./errors";
import { memberPercents, percentOffCents } from "./member-prices";

/** Slots start every 15 minutes (Zenoti's "Appointment Time Slot" setting). */
const SLOT_MINUTES = 15;
const LOCAL_FORMAT = "YYYY-MM-DDTHH:mm:ss";
/** How far ahead next_available_day looks. */
const NEXT_AVAILABLE_DAYS = 21;

export type BookingOptions = { now: () => number; holdSeconds: number };

type BookingItem = {
  service_id: string;
  therapist_id: string | null;
  add_on_ids: string[];
  invoice_item_id: string | null;
};
type BookingRow = {
  id: string;
  center_id: string;
  date: string;
  guest_id: string;
  items: string;
  invoice_id: string | null;
  confirmed_invoice_id: string | null;
};
type CenterRow = { id: string; time_zone_name: string; working_hours: string };
type ServiceRow = {
  id: string;
  code: string;
  name: string;
  duration: number;
  recovery_time: number;
  is_add_on: number;
  add_on_codes: string;
  sale_price: number;
};
type HoldRow = {
  booking_id: string;
  reservation_id: string;
  therapist_id: string;
  start_local: string;
  end_local: string;
  expires_at: number;
};

const uuid = () => randomUUID();

function centerZone(center: CenterRow): string {
  return toIanaTimeZone(center.time_zone_name);
}

function servicesAt(db: SandboxDb, centerId: string, ids: string[]): Map<string, ServiceRow> {
  const rows = ids.length
    ? (db
        .prepare(
          `SELECT s.*, cs.sale_price FROM services s JOIN center_services cs ON cs.service_id = s.id
           WHERE cs.center_id = ? AND s.id_key IN (${ids.map(() => "?").join(",")})`,
        )
        .all(centerId, ...ids.map(normalizeId)) as ServiceRow[])
    : [];
  return new Map(rows.map((r) => [normalizeId(r.id), r]));
}

function lineKind(service: ServiceRow, isAddOn: boolean): LineKind {
  if (service.code === "FIXER" || /fixer/i.test(service.name)) return "addon-fixer";
  return isAddOn ? "addon-service" : "service";
}

/** Minutes a booking's items keep a nurse busy: every service and add-on, then recovery. */
function bookingMinutes(db: SandboxDb, booking: BookingRow): number {
  const items = JSON.parse(booking.items) as BookingItem[];
  const services = servicesAt(
    db,
    booking.center_id,
    items.flatMap((i) => [i.service_id, ...i.add_on_ids]),
  );
  let total = 0;
  for (const item of items) {
    const main = services.get(normalizeId(item.service_id));
    total += (main?.duration ?? 0) + (main?.recovery_time ?? 0);
    for (const addOn of item.add_on_ids) total += services.get(normalizeId(addOn))?.duration ?? 0;
  }
  return Math.max(total, SLOT_MINUTES);
}

type Availability = { therapistIds: string[] };
type Busy = { therapist_id: string; start_local: string; end_local: string };

/**
 * Who is free for any [start, end) within [from, to) of one day: the nurses working that day (not
 * their day off; the one the booking asked for, if any), less those in a live appointment or held
 * by another booking's unexpired reservation. Read from the database once, for all of a day's slots.
 */
function nurseCalendar(db: SandboxDb, booking: BookingRow, from: string, to: string, now: number) {
  const items = JSON.parse(booking.items) as BookingItem[];
  const requested = items.find((i) => i.therapist_id)?.therapist_id ?? null;
  const weekday = dayjs(from, LOCAL_FORMAT).day();
  const candidates = (
    db
      .prepare("SELECT id FROM therapists WHERE center_id = ? AND (day_off IS NULL OR day_off != ?) ORDER BY code")
      .all(booking.center_id, weekday) as { id: string }[]
  )
    .map((t) => t.id)
    .filter((id) => !requested || normalizeId(id) === normalizeId(requested));
  const busy = [
    ...(db
      .prepare(
        `SELECT therapist_id, start_local, end_local FROM appointments WHERE center_id = ? AND status IN (0, 2, 4)
         AND start_local < ? AND end_local > ? AND (? IS NULL OR invoice_id != ?)`,
      )
      // A reschedule's own visit does not stand in its way: it moves.
      .all(booking.center_id, to, from, booking.invoice_id, booking.invoice_id) as Busy[]),
    ...(db
      .prepare(
        `SELECT therapist_id, start_local, end_local FROM holds WHERE center_id = ? AND booking_id != ?
         AND expires_at > ? AND start_local < ? AND end_local > ?`,
      )
      .all(booking.center_id, booking.id, now, to, from) as Busy[]),
  ];
  // Local times in one format compare as text, as SQLite compares them.
  return (start: string, end: string): Availability => ({
    therapistIds: candidates.filter(
      (id) => !busy.some((b) => b.therapist_id === id && b.start_local < end && b.end_local > start),
    ),
  });
}

/** The nurses free for [start, end) on that day (see nurseCalendar). */
function freeTherapists(db: SandboxDb, booking: BookingRow, start: string, end: string, now: number): Availability {
  return nurseCalendar(db, booking, start, end, now)(start, end);
}

type Slot = { Time: string; Available: boolean; Priority: number; SalePrice: null; Warnings: null };

/** "09:30" as 570; opening hours end within their day. */
function minuteOfDay(clock: string): number {
  const [hours, minutes] = clock.split(":").map(Number);
  return Math.min(hours * 60 + minutes, 24 * 60 - 1);
}

function daySlots(db: SandboxDb, booking: BookingRow, date: string, now: number): Slot[] {
  const center = db.prepare("SELECT * FROM centers WHERE id = ?").get(booking.center_id) as CenterRow;
  const zone = centerZone(center);
  const day = dayjs.tz(date, "YYYY-MM-DD", zone);
  const hours = (
    JSON.parse(center.working_hours) as {
      day_of_week: number;
      start_time: string | null;
      end_time: string | null;
      is_closed: boolean;
    }[]
  ).find((h) => h.day_of_week === day.day());
  if (!hours || hours.is_closed || !hours.start_time || !hours.end_time) return [];
  const minutes = bookingMinutes(db, booking);
  // A day's slots by the minute of the day: clocks change at night, never within opening hours, so
  // a slot's local time and its instant move together from the opening (date-library arithmetic
  // per slot was most of the sandbox's processor time).
  const openAt = dayjs.tz(`${date}T${hours.start_time}`, "YYYY-MM-DDTHH:mm", zone).valueOf();
  const openMinute = minuteOfDay(hours.start_time);
  const closeMinute = minuteOfDay(hours.end_time);
  const local = (minute: number) =>
    `${date}T${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}:00`;
  const times: { startLocal: string; endLocal: string; inFuture: boolean }[] = [];
  for (let minute = openMinute; minute + minutes <= closeMinute; minute += SLOT_MINUTES) {
    times.push({
      startLocal: local(minute),
      endLocal: local(minute + minutes),
      inFuture: openAt + (minute - openMinute) * 60_000 > now,
    });
  }
  const future = times.filter((t) => t.inFuture);
  const free = future.length
    ? nurseCalendar(db, booking, future[0].startLocal, future[future.length - 1].endLocal, now)
    : null;
  return times.map(({ startLocal, endLocal, inFuture }) => ({
    Time: startLocal,
    Available: inFuture && free !== null && free(startLocal, endLocal).therapistIds.length > 0,
    Priority: 0,
    SalePrice: null,
    Warnings: null,
  }));
}

function campaignBenefits(
  db: SandboxDb,
  code: string,
): { rules: CampaignBenefit[]; validFrom: string | null; validTo: string | null } | null {
  const row = db.prepare("SELECT * FROM campaigns WHERE code = ?").get(code.trim().toUpperCase()) as
    | { rules: string; valid_from: string | null; valid_to: string | null }
    | undefined;
  // A guest coupon applied by its number is priced by its own discount.
  return row
    ? { rules: JSON.parse(row.rules), validFrom: row.valid_from, validTo: row.valid_to }
    : couponBenefits(db, code);
}

/** What a sale invoice's line sells (`invoice_items.kind`; a visit's lines are a LineKind), its `service_id` the item sold. */
export type SaleKind = "membership" | "package" | "giftcard";
const SALE_KINDS: readonly string[] = ["membership", "package", "giftcard"] satisfies SaleKind[];
export const isSaleKind = (kind: string): kind is SaleKind => SALE_KINDS.includes(kind);

/**
 * Zenoti's invoice item `type`: 0 service, 2 product, 3 membership, 4 package, 6 gift or prepaid
 * card (its published invoice sample shows 4 on a class pack).
 */
export function invoiceItemType(kind: string): number {
  return kind === "membership" ? 3 : kind === "package" ? 4 : kind === "giftcard" ? 6 : 0;
}

type InvoiceItemRow = {
  id: string;
  service_id: string;
  name: string;
  kind: LineKind | SaleKind;
  price: number;
  discount: number;
  removed: number;
  comments: string | null;
  position: number;
  /** The guest package a service line was redeemed from: it owes nothing. */
  redeemed_user_package_id: string | null;
};

/** Invoices are numbered in the order they are made, visits and sales alike. */
export function nextInvoiceNumber(db: SandboxDb): number {
  return (db.prepare("SELECT COUNT(*) AS n FROM invoices").get() as { n: number }).n + 1001;
}

/** An invoice's dues in Zenoti's decimal dollars, added up in whole cents so they do not drift. */
export function invoiceTotals(db: SandboxDb, invoiceId: string) {
  const items = db
    .prepare("SELECT * FROM invoice_items WHERE invoice_id = ? AND removed = 0 ORDER BY position")
    .all(invoiceId) as InvoiceItemRow[];
  const paid = db.prepare("SELECT amount FROM transactions WHERE invoice_id = ?").all(invoiceId) as {
    amount: number;
  }[];
  const totalCents = items.reduce((sum, i) => sum + toCents(i.price) - toCents(i.discount), 0);
  const paidCents = paid.reduce((sum, t) => sum + toCents(t.amount), 0);
  return {
    items,
    total: toDollars(totalCents),
    paid: toDollars(paidCents),
    balance: toDollars(totalCents - paidCents),
  };
}

/**
 * Prices an invoice's lines with its campaign, if any, by the sandbox's own campaign pricing (as
 * Zenoti prices an invoice by its campaign, not by what the storefront showed), and with the
 * guest's member prices (member-prices.ts): the two do not stack, each line takes the larger
 * discount. Each line's discount is kept in dollars, worked out in cents. Run when a visit's lines
 * are made and whenever a campaign is applied.
 */
export function repriceInvoice(db: SandboxDb, invoice: InvoiceRow) {
  // Treatments only: a sale's line, or a line a package pays for (its whole price), keeps its price.
  const items = (
    db
      .prepare("SELECT * FROM invoice_items WHERE invoice_id = ? AND removed = 0 ORDER BY position")
      .all(invoice.id) as InvoiceItemRow[]
  ).filter((i) => !isSaleKind(i.kind) && !i.redeemed_user_package_id);
  const campaign = invoice.campaign_code ? campaignBenefits(db, invoice.campaign_code) : null;
  const discounts = campaignDiscounts(
    items.map((i) => ({ serviceId: i.service_id, kind: i.kind as LineKind, priceCents: toCents(i.price) })),
    campaign?.rules ?? [],
  );
  const members = memberPercents(db, invoice.guest_id, invoice.center_id);
  discounts.forEach((promoCents, index) => {
    const item = items[index];
    const memberCents = percentOffCents(toCents(item.price), members.get(normalizeId(item.service_id)) ?? 0);
    db.prepare("UPDATE invoice_items SET discount = ? WHERE id = ?").run(
      toDollars(Math.max(promoCents, memberCents)),
      item.id,
    );
  });
}

/** Zenoti's create-a-booking request body (one guest; a reschedule names the visit's invoice and lines). */
export type BookingRequest = {
  center_id?: string;
  date?: string;
  guests?: {
    id?: string;
    invoice_id?: string;
    items?: {
      item?: { id?: string };
      therapist?: { id?: string };
      add_ons?: { item?: { id?: string } }[];
      invoice_item_id?: string;
    }[];
  }[];
};

/** Zenoti's create-a-booking: the request checked as Zenoti checks it, then a booking written; its id, or why not. */
export function createBooking(db: SandboxDb, body: BookingRequest, now: number): { id: string } | Refusal {
  const center = body.center_id
    ? (findRow(db, "centers", body.center_id) as (CenterRow & { id: string }) | undefined)
    : undefined;
  if (!center) return refusal(502, "Invalid center_id");
  if (!body.date || !/^\d{4}-\d{2}-\d{2}$/.test(body.date) || !dayjs(body.date, "YYYY-MM-DD", true).isValid()) {
    return refusal(400, "Invalid date");
  }
  const guest = body.guests?.[0];
  if (!guest?.id || !findRow(db, "guests", guest.id)) return refusal(414, "Guest not found");
  const items: BookingItem[] = [];
  for (const item of guest.items ?? []) {
    const serviceId = item.item?.id ?? "";
    const addOnIds = (item.add_ons ?? []).map((a) => a.item?.id ?? "");
    const found = servicesAt(db, center.id, [serviceId, ...addOnIds]);
    if (!found.has(normalizeId(serviceId)) || addOnIds.some((a) => !found.has(normalizeId(a)))) {
      return refusal(500, "Invalid service id for the center");
    }
    const therapistId = item.therapist?.id || null;
    if (therapistId) {
      const therapist = findRow<{ center_id: string }>(db, "therapists", therapistId);
      if (!therapist || therapist.center_id !== center.id) return refusal(500, "Invalid therapist id");
    }
    items.push({
      service_id: found.get(normalizeId(serviceId))!.id,
      therapist_id: therapistId ? findRow<{ id: string }>(db, "therapists", therapistId)!.id : null,
      add_on_ids: addOnIds.map((a) => found.get(normalizeId(a))!.id),
      invoice_item_id: item.invoice_item_id ?? null,
    });
  }
  if (items.length === 0) return refusal(503, "items are required");
  const guestRow = findRow<{ id: string }>(db, "guests", guest.id)!;
  let invoiceId: string | null = null;
  if (guest.invoice_id) {
    // A reschedule (Zenoti's recipe): the visit's own invoice and a line of it still booked.
    const invoice = findRow<{ id: string; guest_id: string; is_closed: number; is_cancelled: number }>(
      db,
      "invoices",
      guest.invoice_id,
    );
    if (!invoice || invoice.guest_id !== guestRow.id) return refusal(438, "cannot access");
    const itemIds = items.map((i) => i.invoice_item_id).filter((i): i is string => Boolean(i));
    const booked = itemIds.map(
      (itemId) =>
        db
          .prepare(
            "SELECT a.status FROM appointments a JOIN invoice_items ii ON ii.id = a.invoice_item_id WHERE ii.id_key = ? AND a.invoice_id = ?",
          )
          .get(normalizeId(itemId), invoice.id) as { status: number } | undefined,
    );
    if (itemIds.length === 0) return refusal(503, "invoice_item_id is missing");
    if (invoice.is_closed || invoice.is_cancelled || booked.some((a) => !a || a.status !== 0)) {
      return refusal(5001, "Appointment cannot be rescheduled");
    }
    invoiceId = invoice.id;
    for (const item of items)
      if (item.invoice_item_id)
        item.invoice_item_id = findRow<{ id: string }>(db, "invoice_items", item.invoice_item_id)!.id;
  }
  const id = uuid();
  db.prepare(
    "INSERT INTO bookings (id, id_key, center_id, date, guest_id, items, invoice_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  ).run(id, normalizeId(id), center.id, body.date, guestRow.id, JSON.stringify(items), invoiceId, now);
  return { id };
}

/**
 * Zenoti's reserve: holds the start for the booking when a nurse is free then. The hold's id and its
 * expiry (like every other Zenoti time, the clinic's wall clock without an offset), or why not.
 */
export function reserveSlot(
  db: SandboxDb,
  bookingId: string,
  slotTime: string,
  options: BookingOptions,
): { reservationId: string; expiryTime: string } | Refusal {
  const { now } = options;
  const booking = findRow<BookingRow>(db, "bookings", bookingId);
  if (!booking) return refusal(404, "Invalid booking id");
  if (booking.confirmed_invoice_id) return refusal(4071, "Booking is already confirmed");
  const start = dayjs(slotTime, LOCAL_FORMAT, true);
  if (!start.isValid() || start.format("YYYY-MM-DD") !== booking.date) return refusal(400, "Invalid slot_time");
  const minutes = bookingMinutes(db, booking);
  const end = start.add(minutes, "minute").format(LOCAL_FORMAT);
  // One immediate transaction: the availability check and the hold are one step, so of many
  // requests for one slot exactly one wins, in this process or another.
  const reserve = db.transaction(() => {
    const offered = daySlots(db, booking, booking.date, now()).some((s) => s.Time === slotTime);
    const free = offered ? freeTherapists(db, booking, slotTime, end, now()).therapistIds : [];
    if (free.length === 0) return null;
    const reservationId = uuid();
    const expiresAt = now() + options.holdSeconds * 1000;
    db.prepare("DELETE FROM holds WHERE booking_id = ?").run(booking.id);
    db.prepare(
      "INSERT INTO holds (booking_id, reservation_id, center_id, therapist_id, start_local, end_local, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    ).run(booking.id, reservationId, booking.center_id, free[0], slotTime, end, expiresAt);
    return { reservationId, expiresAt };
  });
  const held = reserve.immediate();
  if (!held) return refusal(4073, "The selected slot is not available");
  const center = db.prepare("SELECT * FROM centers WHERE id = ?").get(booking.center_id) as CenterRow;
  return {
    reservationId: held.reservationId,
    expiryTime: dayjs(held.expiresAt).tz(centerZone(center)).format(LOCAL_FORMAT),
  };
}

/**
 * Zenoti's confirm: the held time becomes the visit's appointments on a new invoice, or, for a
 * reschedule, the visit's appointments move to it. The invoice (the same one for a second confirm),
 * or why not.
 */
export function confirmBooking(db: SandboxDb, bookingId: string, now: number): { invoiceId: string } | Refusal {
  const booking = findRow<BookingRow>(db, "bookings", bookingId);
  if (!booking) return refusal(404, "Invalid booking id");
  const confirm = db.transaction(() => {
    const current = db.prepare("SELECT * FROM bookings WHERE id = ?").get(booking.id) as BookingRow;
    // Idempotent: a second confirm returns the same invoice and appointments.
    if (current.confirmed_invoice_id) return current.confirmed_invoice_id;
    const hold = db.prepare("SELECT * FROM holds WHERE booking_id = ? AND expires_at > ?").get(booking.id, now) as
      | HoldRow
      | undefined;
    if (!hold) return null;
    const items = JSON.parse(current.items) as BookingItem[];
    const services = servicesAt(
      db,
      current.center_id,
      items.flatMap((i) => [i.service_id, ...i.add_on_ids]),
    );
    if (current.invoice_id) {
      // Reschedule: the visit's appointments move to the new time on the same invoice, keeping
      // their ids and lines, back to back in their order, with the nurse the hold found.
      const invoice = findRow<{ is_closed: number; is_cancelled: number }>(db, "invoices", current.invoice_id);
      const moving = db
        .prepare(
          "SELECT id, start_local, end_local FROM appointments WHERE invoice_id = ? AND status = 0 ORDER BY start_local",
        )
        .all(current.invoice_id) as { id: string; start_local: string; end_local: string }[];
      if (!invoice || invoice.is_closed || invoice.is_cancelled || moving.length === 0) return null;
      let cursor = dayjs(hold.start_local, LOCAL_FORMAT);
      for (const appointment of moving) {
        const minutes = dayjs(appointment.end_local, LOCAL_FORMAT).diff(
          dayjs(appointment.start_local, LOCAL_FORMAT),
          "minute",
        );
        const end = cursor.add(minutes, "minute");
        db.prepare(
          "UPDATE appointments SET start_local = ?, end_local = ?, therapist_id = ?, therapist_requested = ? WHERE id = ?",
        ).run(
          cursor.format(LOCAL_FORMAT),
          end.format(LOCAL_FORMAT),
          hold.therapist_id,
          items.some((i) => i.therapist_id) ? 1 : 0,
          appointment.id,
        );
        cursor = end;
      }
      db.prepare("DELETE FROM holds WHERE booking_id = ?").run(current.id);
      db.prepare("UPDATE bookings SET confirmed_invoice_id = ? WHERE id = ?").run(current.invoice_id, current.id);
      return current.invoice_id;
    }
    const invoiceId = uuid();
    const number = nextInvoiceNumber(db);
    db.prepare(
      "INSERT INTO invoices (id, id_key, number, center_id, guest_id, booking_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    ).run(invoiceId, normalizeId(invoiceId), number, current.center_id, current.guest_id, current.id, now);
    let cursor = dayjs(hold.start_local, LOCAL_FORMAT);
    let position = 0;
    for (const item of items) {
      for (const [serviceId, isAddOn] of [
        [item.service_id, false],
        ...item.add_on_ids.map((a) => [a, true] as const),
      ] as const) {
        const service = services.get(normalizeId(serviceId))!;
        const itemId = uuid();
        db.prepare(
          "INSERT INTO invoice_items (id, id_key, invoice_id, service_id, name, kind, price, position) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        ).run(
          itemId,
          normalizeId(itemId),
          invoiceId,
          service.id,
          service.name,
          lineKind(service, isAddOn),
          service.sale_price,
          position++,
        );
        const end = cursor.add(service.duration + (isAddOn ? 0 : service.recovery_time), "minute");
        const appointmentId = uuid();
        db.prepare(
          `INSERT INTO appointments (id, id_key, invoice_id, invoice_item_id, center_id, guest_id, service_id, therapist_id, therapist_requested, start_local, end_local)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(
          appointmentId,
          normalizeId(appointmentId),
          invoiceId,
          itemId,
          current.center_id,
          current.guest_id,
          service.id,
          hold.therapist_id,
          item.therapist_id ? 1 : 0,
          cursor.format(LOCAL_FORMAT),
          end.format(LOCAL_FORMAT),
        );
        cursor = end;
      }
    }
    // The back end prices the new lines at once: a member's visit has the member prices.
    repriceInvoice(db, db.prepare("SELECT * FROM invoices WHERE id = ?").get(invoiceId) as InvoiceRow);
    db.prepare("DELETE FROM holds WHERE booking_id = ?").run(current.id);
    db.prepare("UPDATE bookings SET confirmed_invoice_id = ? WHERE id = ?").run(invoiceId, current.id);
    return invoiceId;
  });
  const invoiceId = confirm.immediate();
  if (!invoiceId) {
    return refusal(
      4072,
      "Sorry, we weren't able to confirm your appointment due to some technical issues. Please try selecting your desired date & time again",
    );
  }
  return { invoiceId };
}

export function mountBooking(router: Router, db: SandboxDb, options: BookingOptions) {
  const { now } = options;

  router.post("/v1/bookings", (req, res) => {
    const created = createBooking(db, req.body as BookingRequest, now());
    if (isRefusal(created)) return v1Error(res, 200, created.code, created.message);
    res.json({ id: created.id, error: null });
  });

  router.get("/v1/bookings/:bookingId/slots", (req, res) => {
    const booking = findRow<BookingRow>(db, "bookings", req.params.bookingId);
    if (!booking) return dotNetError(res, 200, 404, "Invalid booking id", { slots: null });
    const date = dayjs(booking.date, "YYYY-MM-DD");
    const weekEnd = date.add(6 - date.day(), "day");
    const week: { day: string; slots: Slot[] }[] = [];
    for (let d = date.add(1, "day"); !d.isAfter(weekEnd); d = d.add(1, "day")) {
      week.push({ day: d.format("YYYY-MM-DD"), slots: daySlots(db, booking, d.format("YYYY-MM-DD"), now()) });
    }
    const requested = daySlots(db, booking, booking.date, now());
    // Zenoti: "If the requested day has no slots, the API returns the next available slot on
    // another day of the current week", in the same list, under that day's date.
    const open = (slots: Slot[]) => slots.some((s) => s.Available);
    const slots = open(requested)
      ? requested
      : (week.find((d) => open(d.slots))?.slots.filter((s) => s.Available) ?? requested);
    const futureDays = week.map((d) => ({ Day: d.day, IsAvailable: open(d.slots), HolidayType: null }));
    let nextAvailable: string | null = null;
    for (let i = 1; i <= NEXT_AVAILABLE_DAYS && !nextAvailable; i++) {
      const day = date.add(i, "day").format("YYYY-MM-DD");
      if (open(week.find((d) => d.day === day)?.slots ?? daySlots(db, booking, day, now()))) nextAvailable = day;
    }
    res.json({ slots, future_days: futureDays, next_available_day: nextAvailable, Error: null });
  });

  router.post("/v1/bookings/:bookingId/slots/reserve", (req, res) => {
    const slotTime = String((req.body as { slot_time?: string }).slot_time ?? "");
    const held = reserveSlot(db, req.params.bookingId, slotTime, options);
    if (isRefusal(held)) return v1Error(res, 200, held.code, held.message, { is_reserved: false });
    res.json({ is_reserved: true, reservation_id: held.reservationId, expiry_time: held.expiryTime, error: null });
  });

  router.post("/v1/bookings/:bookingId/slots/confirm", (req, res) => {
    const confirmed = confirmBooking(db, req.params.bookingId, now());
    if (isRefusal(confirmed)) return v1Error(res, 200, confirmed.code, confirmed.message, { is_confirmed: false });
    const invoice = db.prepare("SELECT * FROM invoices WHERE id = ?").get(confirmed.invoiceId) as InvoiceRow;
    const guest = db.prepare("SELECT id, first_name, last_name FROM guests WHERE id = ?").get(invoice.guest_id) as {
      id: string;
      first_name: string;
      last_name: string;
    };
    const rows = db
      .prepare(
        `SELECT a.*, s.name AS service_name, t.first_name, t.last_name FROM appointments a
         JOIN services s ON s.id = a.service_id JOIN therapists t ON t.id = a.therapist_id
         WHERE a.invoice_id = ? ORDER BY a.start_local`,
      )
      .all(confirmed.invoiceId) as {
      id: string;
      invoice_item_id: string;
      service_id: string;
      service_name: string;
      therapist_id: string;
      first_name: string;
      last_name: string;
      start_local: string;
      end_local: string;
    }[];
    res.json({
      is_confirmed: true,
      invoice: {
        invoice_id: confirmed.invoiceId,
        guest: { Id: guest.id, FirstName: guest.first_name, LastName: guest.last_name },
        items: rows.map((a) => ({
          appointment_id: a.id,
          invoice_item_id: a.invoice_item_id,
          item: { id: a.service_id, name: a.service_name, item_type: 0, item_display_name: a.service_name },
          therapist: {
            id: a.therapist_id,
            full_name: `${a.first_name} ${a.last_name}`,
            first_name: a.first_name,
            last_name: a.last_name,
            therapist_request_type: 0,
          },
          room: null,
          start_time: a.start_local,
          end_time: a.end_local,
          join_link: null,
        })),
      },
      error: null,
    });
  });
}
