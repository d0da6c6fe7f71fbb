import type { Router } from "express";
import { randomInt, randomUUID } from "node:crypto";
import { dayjs } from "../../app/lib/dayjs";
import { toIanaTimeZone } from "../spa/time-zones.server";
import { invoiceTotals, isSaleKind, nextInvoiceNumber, type SaleKind } from "./booking";
import { toCents, toDollars } from "./campaigns";
import { readPaging } from "./catalog";
import { findRow, normalizeId, seedGuid, type SandboxDb } from "./db";
import { isRefusal, refusal, v1Error, type Refusal } from "./errors";
import { EMAIL } from "./guests";
import { clinicToday, giveMembership } from "./memberships";
import { closeVisit } from "./visits";
import type { TenantProfile } from "./tenant-profiles";

/**
 * Sales of memberships, packages and gift cards, as Zenoti makes them: a sale invoice (no booking,
 * no appointments) priced by the clinic, paid through the same card calls as a visit, then closed,
 * which is when the guest gets what they bought: the membership, the package's sessions or the
 * gift cards. Also the clinics' packages and gift-card templates, a guest's packages and cards, a
 * card's balance, packages redeemed on a visit's lines, and the gift-card emails (a sandbox outbox
 * with a control to read it).
 */

const USD = 148;
const DAY = "YYYY-MM-DD";
const LOCAL_FORMAT = "YYYY-MM-DDTHH:mm:ss";
/** Zenoti writes a day as midnight, without an offset. */
const zenotiDay = (day: string | null) => (day ? `${day}T00:00:00` : null);
/** The most lines one sale request may ask for. */
const MAX_LINES = 20;
const MAX_MESSAGE = 500;
const MAX_NAME = 100;

type CenterRow = { id: string; code: string; time_zone_name: string };
type GuestRow = { id: string; center_id: string; first_name: string; last_name: string; email: string | null };
type InvoiceRow = {
  id: string;
  number: number;
  center_id: string;
  guest_id: string;
  booking_id: string | null;
  is_closed: number;
  is_cancelled: number;
};
type LineRow = {
  id: string;
  invoice_id: string;
  service_id: string;
  name: string;
  kind: string;
  price: number;
  discount: number;
  removed: number;
  redeemed_user_package_id: string | null;
};
type PackageRow = {
  id: string;
  code: string;
  name: string;
  description: string;
  validity_days: number | null;
  covered_services: string;
};
type TemplateRow = {
  id: string;
  code: string;
  name: string;
  value: number | null;
  min_amount: number | null;
  max_amount: number | null;
  validity_days: number | null;
};
type OccasionRow = { id: string; name: string };
type GiftCardOrderRow = {
  invoice_item_id: string;
  template_id: string;
  value: number;
  recipient_name: string;
  recipient_email: string;
  message: string;
  occasion_id: string;
  schedule_time: string | null;
};
type GuestPackageRow = {
  user_package_id: string;
  guest_id: string;
  center_id: string;
  package_id: string;
  invoice_id: string;
  start_date: string;
  end_date: string | null;
  price: number;
  created_at: number;
};
type PackageServiceRow = { service_id: string; name: string; duration: number; quantity: number; redeemed: number };
type GiftCardRow = {
  id: string;
  number: string;
  template_id: string;
  center_id: string;
  value: number;
  balance: number;
  buyer_guest_id: string;
  recipient_name: string;
  recipient_email: string;
  message: string;
  occasion_id: string;
  schedule_time: string | null;
  issued_on: string;
  expiry_date: string | null;
  invoice_id: string;
  created_at: number;
};

const zoneOf = (db: SandboxDb, centerId: string) =>
  toIanaTimeZone(
    (db.prepare("SELECT time_zone_name FROM centers WHERE id = ?").get(centerId) as { time_zone_name: string })
      .time_zone_name,
  );

const centerOf = (db: SandboxDb, id: unknown) =>
  typeof id === "string" && id ? findRow<CenterRow>(db, "centers", id) : undefined;
const guestOf = (db: SandboxDb, id: unknown) =>
  typeof id === "string" && id ? findRow<GuestRow>(db, "guests", id) : undefined;

/** A day `days` after `day`, or none when the item never expires. */
const addDays = (day: string, days: number | null) =>
  days === null ? null : dayjs(day, DAY).add(days, "day").format(DAY);

/** The number and receipt number a sale's invoice is known by (the center's code before its number). */
function invoiceNumbers(db: SandboxDb, invoice: InvoiceRow) {
  const { code } = db.prepare("SELECT code FROM centers WHERE id = ?").get(invoice.center_id) as { code: string };
  return { no: `${code}${invoice.number}`, receiptNo: `${code}R${invoice.number}` };
}

/** The services a package covers, with their ids and names, in the package's order. */
function packageServices(db: SandboxDb, pkg: PackageRow) {
  return (JSON.parse(pkg.covered_services) as { service: string; quantity: number }[]).flatMap((cover) => {
    const service = db.prepare("SELECT id, name, duration FROM services WHERE code = ?").get(cover.service) as
      | { id: string; name: string; duration: number }
      | undefined;
    return service ? [{ ...service, quantity: cover.quantity }] : [];
  });
}

/** A package as Zenoti's sample of `GET /v1/centers/{id}/packages` gives one (its keys, "Business_unit_id" spelling included). */
function packageJson(db: SandboxDb, pkg: PackageRow, centerId: string, salePrice: number) {
  const services = packageServices(db, pkg);
  return {
    id: pkg.id,
    code: pkg.code,
    name: pkg.name,
    description: pkg.description,
    // Zenoti does not publish its package types; every sandbox package is a plain one.
    type: 0,
    category_id: null,
    Business_unit_id: seedGuid("bu:clinic"),
    // An unversioned package is its own version, as Zenoti's day packages show.
    version_id: pkg.id,
    html_description: `<p>${pkg.description}</p>`,
    // Package length in minutes: here, one session's.
    time: Math.max(0, ...services.map((s) => s.duration)),
    // Sold whenever the clinic sells it: no booking window.
    booking_start_date: null,
    booking_end_date: null,
    commission: { eligible: false, factor: 100, type: 0, value: 0 },
    preferences: {
      allow_cancellation_fee: false,
      allow_cancellation_comission: false,
      allow_no_show_fee: false,
      allow_no_show_comission: false,
      allow_membership_redemption: false,
      allow_giftcard_redemption: false,
      enforce_otp: false,
    },
    catalog_info: {
      show_in_catalog: true,
      can_book: true,
      show_price: true,
      display_name: "",
      display_price: "",
      video_url: "",
    },
    centers: [{ center_id: centerId, currency_id: USD, sale_price: salePrice, tax_id: null, auto_renewal: false }],
    tags: [],
    benefits: {
      // Zenoti's sample gives every service benefit item_type 2, and no name: the app names it from the menu.
      services: services.map((s) => ({
        id: s.id,
        item_type: 2,
        quantity: s.quantity,
        order: -1,
        recognize_revenue: true,
      })),
      products: [],
      bundled_products: [],
    },
    validity_days: pkg.validity_days,
  };
}

function templateJson(template: TemplateRow) {
  const custom = template.value === null;
  return {
    id: template.id,
    name: template.name,
    code: template.code,
    value: template.value,
    // A preset sells at its value; the custom template's price is the amount chosen.
    price: template.value,
    allow_custom_amount: custom,
    min_amount: custom ? template.min_amount : null,
    max_amount: custom ? template.max_amount : null,
    validity_days: template.validity_days,
  };
}

type SaleLine = { kind: SaleKind; itemId: string; name: string; price: number };

/** A sale invoice at the clinic's prices, open, with one line per item sold; its id, number and line ids. */
function createSaleInvoice(
  db: SandboxDb,
  center: CenterRow,
  guest: GuestRow,
  lines: SaleLine[],
  now: number,
  notes: string | null = null,
) {
  const id = randomUUID();
  const number = nextInvoiceNumber(db);
  db.prepare(
    "INSERT INTO invoices (id, id_key, number, center_id, guest_id, booking_id, notes, created_at) VALUES (?, ?, ?, ?, ?, NULL, ?, ?)",
  ).run(id, normalizeId(id), number, center.id, guest.id, notes, now);
  const insert = db.prepare(
    "INSERT INTO invoice_items (id, id_key, invoice_id, service_id, name, kind, price, position) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const itemIds = lines.map((line, position) => {
    const itemId = randomUUID();
    insert.run(itemId, normalizeId(itemId), id, line.itemId, line.name, line.kind, line.price, position);
    return itemId;
  });
  return { id, number, itemIds };
}

type Sale = { invoiceId: string; invoiceNumber: string };
const sold = (invoice: { id: string; number: number }): Sale => ({
  invoiceId: invoice.id,
  invoiceNumber: String(invoice.number),
});

/** `membership_ids` as public code sends it (one id, or ids separated by commas), or a list of ids. */
function membershipIds(value: unknown): string[] | null {
  const ids =
    typeof value === "string"
      ? value.split(",")
      : Array.isArray(value) && value.every((v) => typeof v === "string")
        ? (value as string[])
        : null;
  const trimmed = ids?.map((id) => id.trim()).filter(Boolean) ?? [];
  return trimmed.length > 0 && trimmed.length <= MAX_LINES ? trimmed : null;
}

/** Zenoti's membership sale: an invoice of the plans, at the clinic's prices. */
export function sellMemberships(db: SandboxDb, body: Record<string, unknown>, now: number): Sale | Refusal {
  const center = centerOf(db, body.center_id);
  if (!center) return refusal(502, "Invalid center_id");
  const guest = guestOf(db, body.user_id);
  if (!guest) return refusal(414, "Guest not found");
  const ids = membershipIds(body.membership_ids);
  if (!ids) return refusal(400, "Invalid membership_ids");
  const lines: SaleLine[] = [];
  for (const id of ids) {
    const plan = db
      .prepare(
        "SELECT p.id, p.name, cp.sale_price FROM membership_plans p JOIN center_membership_plans cp ON cp.membership_id = p.id WHERE cp.center_id = ? AND p.id_key = ?",
      )
      .get(center.id, normalizeId(id)) as { id: string; name: string; sale_price: number } | undefined;
    if (!plan) return refusal(400, "Invalid membership_ids");
    lines.push({ kind: "membership", itemId: plan.id, name: plan.name, price: plan.sale_price });
  }
  return sold(db.transaction(() => createSaleInvoice(db, center, guest, lines, now))());
}

/** Zenoti's package sale: an invoice of the packages, at the clinic's prices. */
export function sellPackages(db: SandboxDb, body: Record<string, unknown>, now: number): Sale | Refusal {
  const center = centerOf(db, body.center_id);
  if (!center) return refusal(502, "Invalid center_id");
  const guest = guestOf(db, body.guest_id);
  if (!guest) return refusal(414, "Guest not found");
  const details = body.package_details;
  if (!Array.isArray(details) || details.length === 0 || details.length > MAX_LINES)
    return refusal(400, "package_details is required");
  if (
    body.notes !== undefined &&
    body.notes !== null &&
    (typeof body.notes !== "string" || body.notes.length > MAX_MESSAGE)
  ) {
    return refusal(400, `notes must be text of ${MAX_MESSAGE} characters at most`);
  }
  const lines: SaleLine[] = [];
  for (const detail of details as { id?: unknown }[]) {
    const id = detail && typeof detail === "object" ? detail.id : undefined;
    const pkg =
      typeof id === "string"
        ? (db
            .prepare(
              "SELECT p.id, p.name, cp.sale_price FROM packages p JOIN center_packages cp ON cp.package_id = p.id WHERE cp.center_id = ? AND p.id_key = ?",
            )
            .get(center.id, normalizeId(id)) as { id: string; name: string; sale_price: number } | undefined)
        : undefined;
    if (!pkg) return refusal(400, "Invalid package");
    lines.push({ kind: "package", itemId: pkg.id, name: pkg.name, price: pkg.sale_price });
  }
  const notes = typeof body.notes === "string" ? body.notes : null;
  return sold(db.transaction(() => createSaleInvoice(db, center, guest, lines, now, notes))());
}

type GiftCardOrder = Omit<GiftCardOrderRow, "invoice_item_id"> & { image_id: string | null; name: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
/** Dollars with at most two decimals. */
const wholeCents = (value: number) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;

/** One card of a gift-card sale, checked as the clinic's template and occasions allow; its order, or why not. */
function giftCardOrder(db: SandboxDb, center: CenterRow, card: unknown, today: string): GiftCardOrder | Refusal {
  if (!isObject(card)) return refusal(400, "Each gift card must be an object");
  const template =
    typeof card.template_id === "string"
      ? (db
          .prepare(
            "SELECT t.* FROM giftcard_templates t JOIN center_giftcard_templates ct ON ct.template_id = t.id WHERE ct.center_id = ? AND t.id_key = ?",
          )
          .get(center.id, normalizeId(card.template_id)) as TemplateRow | undefined)
      : undefined;
  if (!template) return refusal(400, "Invalid template_id: the template is not sold at this center");
  let value: number;
  const amount = card.custom_amount;
  if (template.value === null) {
    if (!isObject(amount)) return refusal(400, "custom_amount is required for this template");
    const { price, value: wanted } = amount;
    if (typeof wanted !== "number" || !Number.isFinite(wanted))
      return refusal(400, "custom_amount.value must be a number");
    if (!wholeCents(wanted)) return refusal(400, "custom_amount.value must have at most 2 decimals");
    if (wanted < (template.min_amount ?? 0) || wanted > (template.max_amount ?? Infinity)) {
      return refusal(400, `custom_amount.value must be between ${template.min_amount} and ${template.max_amount}`);
    }
    if (price !== wanted) return refusal(400, "custom_amount.price must equal custom_amount.value");
    value = wanted;
  } else {
    if (amount !== undefined && amount !== null) return refusal(400, "custom_amount is not allowed for this template");
    value = template.value;
  }
  // Zenoti's own spelling: "recepient" and "occassion".
  const to = card.recepient;
  if (!isObject(to)) return refusal(400, "recepient is required");
  const name = typeof to.name === "string" ? to.name.trim() : "";
  if (!name || name.length > MAX_NAME)
    return refusal(400, `recepient.name is required (${MAX_NAME} characters at most)`);
  const email = typeof to.email === "string" ? to.email.trim() : "";
  if (!EMAIL.test(email) || email.length > 254) return refusal(400, "recepient.email is not a valid email address");
  const occasion = card.occassion;
  if (!isObject(occasion)) return refusal(400, "occassion is required");
  const known =
    typeof occasion.id === "string" ? findRow<OccasionRow>(db, "giftcard_occasions", occasion.id) : undefined;
  if (!known) return refusal(400, "Invalid occassion.id");
  // The organisation's occasions have no images to choose from.
  if (occasion.image_id !== undefined && occasion.image_id !== null && occasion.image_id !== "")
    return refusal(400, "Invalid occassion.image_id");
  const message = occasion.message ?? "";
  if (typeof message !== "string" || message.length > MAX_MESSAGE)
    return refusal(400, `occassion.message must be text of ${MAX_MESSAGE} characters at most`);
  const schedule = card.schedule_time ?? null;
  if (schedule !== null) {
    const valid =
      typeof schedule === "string" &&
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(schedule) &&
      dayjs(schedule, LOCAL_FORMAT, true).isValid();
    if (!valid) return refusal(400, "schedule_time must be YYYY-MM-DDTHH:mm:ss, the center's local time");
    if (schedule.slice(0, 10) < today) return refusal(400, "schedule_time must not be before today at the center");
  }
  return {
    template_id: template.id,
    name: template.name,
    value,
    recipient_name: name,
    recipient_email: email,
    message,
    occasion_id: known.id,
    image_id: null,
    schedule_time: schedule as string | null,
  };
}

/** Zenoti's gift-card sale from templates: an invoice of the cards, each card's order kept for its issue on close. */
export function sellGiftCards(db: SandboxDb, body: Record<string, unknown>, now: number): Sale | Refusal {
  const center = centerOf(db, body.center_id);
  if (!center) return refusal(502, "Invalid center_id");
  const guest = guestOf(db, body.guest_id);
  if (!guest) return refusal(414, "Guest not found");
  const cards = body.giftcards;
  if (!Array.isArray(cards) || cards.length === 0 || cards.length > MAX_LINES)
    return refusal(400, "giftcards is required");
  const today = clinicToday(db, center.id, now);
  const orders: GiftCardOrder[] = [];
  for (const card of cards) {
    const order = giftCardOrder(db, center, card, today);
    if (isRefusal(order)) return order;
    orders.push(order);
  }
  const invoice = db.transaction(() => {
    const created = createSaleInvoice(
      db,
      center,
      guest,
      orders.map((o) => ({ kind: "giftcard" as const, itemId: o.template_id, name: o.name, price: o.value })),
      now,
    );
    const insert = db.prepare(
      `INSERT INTO giftcard_orders (invoice_item_id, invoice_id, template_id, value, recipient_name, recipient_email, message, occasion_id, image_id, schedule_time)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    orders.forEach((o, i) => {
      insert.run(
        created.itemIds[i],
        created.id,
        o.template_id,
        o.value,
        o.recipient_name,
        o.recipient_email,
        o.message,
        o.occasion_id,
        o.image_id,
        o.schedule_time,
      );
    });
    return created;
  })();
  return sold(invoice);
}

/** A refusal met part-way through a change: thrown, it undoes the change. */
class Refused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
  }
}

/** Twelve random digits no other card has. */
function newCardNumber(db: SandboxDb): string {
  for (;;) {
    const number = String(randomInt(100_000_000_000, 1_000_000_000_000));
    if (!db.prepare("SELECT 1 FROM gift_cards WHERE number = ?").get(number)) return number;
  }
}

/** What a closed sale gives the guest: each line's membership, package or gift cards. */
function fulfil(db: SandboxDb, invoice: InvoiceRow, now: number) {
  const lines = (
    db
      .prepare("SELECT * FROM invoice_items WHERE invoice_id = ? AND removed = 0 ORDER BY position")
      .all(invoice.id) as LineRow[]
  ).filter((l) => isSaleKind(l.kind));
  if (lines.length === 0) return;
  const today = clinicToday(db, invoice.center_id, now);
  const { no, receiptNo } = invoiceNumbers(db, invoice);
  // The card the sale was paid with renews a renewing membership.
  const lastPayment = db
    .prepare("SELECT account_id FROM transactions WHERE invoice_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1")
    .get(invoice.id) as { account_id: string } | undefined;
  for (const line of lines) {
    if (line.kind === "membership") {
      const given = giveMembership(
        db,
        invoice.guest_id,
        { membership_id: line.service_id, center_id: invoice.center_id },
        now,
        randomUUID(),
        {
          id: invoice.id,
          no,
          receiptNo,
          itemId: line.id,
          recurringAccountId: lastPayment?.account_id ?? null,
        },
      );
      if (isRefusal(given)) throw new Refused(given);
    } else if (line.kind === "package") {
      const pkg = db.prepare("SELECT * FROM packages WHERE id = ?").get(line.service_id) as PackageRow;
      const id = randomUUID();
      db.prepare(
        `INSERT INTO guest_packages (user_package_id, id_key, guest_id, center_id, package_id, invoice_id, invoice_item_id, start_date, end_date, price, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        id,
        normalizeId(id),
        invoice.guest_id,
        invoice.center_id,
        pkg.id,
        invoice.id,
        line.id,
        today,
        addDays(today, pkg.validity_days),
        toDollars(toCents(line.price) - toCents(line.discount)),
        now,
      );
      const insert = db.prepare(
        "INSERT INTO guest_package_services (user_package_id, service_id, quantity, position) VALUES (?, ?, ?, ?)",
      );
      packageServices(db, pkg).forEach((service, position) => {
        insert.run(id, service.id, service.quantity, position);
      });
    } else {
      const order = db
        .prepare("SELECT * FROM giftcard_orders WHERE invoice_item_id = ?")
        .get(line.id) as GiftCardOrderRow;
      const template = db
        .prepare("SELECT * FROM giftcard_templates WHERE id = ?")
        .get(order.template_id) as TemplateRow;
      const id = randomUUID();
      db.prepare(
        `INSERT INTO gift_cards (id, id_key, number, template_id, center_id, value, balance, buyer_guest_id, recipient_name, recipient_email, recipient_email_key,
           message, occasion_id, schedule_time, issued_on, expiry_date, invoice_id, invoice_item_id, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        id,
        normalizeId(id),
        newCardNumber(db),
        template.id,
        invoice.center_id,
        order.value,
        order.value,
        invoice.guest_id,
        order.recipient_name,
        order.recipient_email,
        order.recipient_email.toLowerCase(),
        order.message,
        order.occasion_id,
        order.schedule_time,
        today,
        addDays(today, template.validity_days),
        invoice.id,
        line.id,
        now,
      );
    }
  }
}

/**
 * Zenoti's close of an invoice: only when fully paid, never with an appointment still to come, and
 * once. Closing a sale gives the guest what it sold, in the same transaction. A visit's invoice is
 * the front desk's to close once the guest has been: the desk takes what is still owed there, which
 * the sandbox does not model, so a visit's balance is not checked.
 */
export function closeInvoice(db: SandboxDb, invoiceId: string, now: number): { closed: true } | Refusal {
  const close = db.transaction((): { closed: true } | Refusal => {
    const invoice = findRow<InvoiceRow>(db, "invoices", invoiceId);
    if (!invoice) return refusal(428, "Request invoices are invalid");
    if (invoice.is_closed) return refusal(1114, "Invoice is already closed");
    if (invoice.is_cancelled) return refusal(502, "Invoice cannot be closed");
    const nowLocal = dayjs(now).tz(zoneOf(db, invoice.center_id)).format(LOCAL_FORMAT);
    const ahead = db
      .prepare("SELECT 1 FROM appointments WHERE invoice_id = ? AND status IN (0, 2, 4) AND start_local > ?")
      .get(invoice.id, nowLocal);
    if (ahead) return refusal(1113, "This invoice has a future appointment and will not be closed.");
    if (invoice.booking_id === null) {
      if (invoiceTotals(db, invoice.id).balance > 0) return refusal(1112, "Invoice is not fully paid");
      db.prepare("UPDATE invoices SET is_closed = 1, status = 4 WHERE id = ?").run(invoice.id);
    } else if (!closeVisit(db, invoice.id)) {
      return refusal(502, "Invoice cannot be closed");
    }
    fulfil(db, invoice, now);
    return { closed: true };
  });
  try {
    return close.immediate();
  } catch (error) {
    if (error instanceof Refused) return error.refusal;
    throw error;
  }
}

/**
 * Zenoti's send of a closed sale's gift cards: one email per card into the sandbox's outbox, to be
 * delivered on its scheduled day (from the start of that day at the clinic; Zenoti does not say at
 * what hour its scheduled emails go) or now. Sending again queues nothing more.
 */
export function sendGiftCardEmails(db: SandboxDb, invoiceId: string, now: number): { queued: number } | Refusal {
  const invoice = findRow<InvoiceRow>(db, "invoices", invoiceId);
  if (!invoice) return refusal(428, "Request invoices are invalid");
  if (!invoice.is_closed) return refusal(1115, "Invoice is not closed");
  const cards = db
    .prepare("SELECT * FROM gift_cards WHERE invoice_id = ? ORDER BY created_at, number")
    .all(invoice.id) as GiftCardRow[];
  if (cards.length === 0) return refusal(400, "This invoice has no gift cards");
  const zone = zoneOf(db, invoice.center_id);
  const buyer = db.prepare("SELECT first_name, last_name FROM guests WHERE id = ?").get(invoice.guest_id) as {
    first_name: string;
    last_name: string;
  };
  const insert = db.prepare(
    `INSERT OR IGNORE INTO giftcard_emails (gift_card_id, to_email, to_email_key, to_name, card_number, value, message, occasion_name, buyer_name, deliver_at, queued_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  let queued = 0;
  db.transaction(() => {
    for (const card of cards) {
      const occasion = db.prepare("SELECT name FROM giftcard_occasions WHERE id = ?").get(card.occasion_id) as {
        name: string;
      };
      const scheduled = card.schedule_time ? dayjs.tz(card.schedule_time.slice(0, 10), DAY, zone).valueOf() : now;
      queued += insert.run(
        card.id,
        card.recipient_email,
        card.recipient_email.toLowerCase(),
        card.recipient_name,
        card.number,
        card.value,
        card.message,
        occasion.name,
        `${buyer.first_name} ${buyer.last_name}`.trim(),
        Math.max(scheduled, now),
        now,
      ).changes;
    }
  })();
  return { queued };
}

/** Package statuses are not published: the sandbox reuses the membership codes 1 Active, 5 Expired, 6 Closed (every session used). */
function packageStatus(row: GuestPackageRow, services: PackageServiceRow[], today: string): 1 | 5 | 6 {
  if (row.end_date !== null && row.end_date < today) return 5;
  return services.every((s) => s.redeemed >= s.quantity) ? 6 : 1;
}

function guestPackageServices(db: SandboxDb, userPackageId: string): PackageServiceRow[] {
  return db
    .prepare(
      `SELECT ps.service_id, s.name, s.duration, ps.quantity, ps.redeemed FROM guest_package_services ps JOIN services s ON s.id = ps.service_id
       WHERE ps.user_package_id = ? ORDER BY ps.position`,
    )
    .all(userPackageId) as PackageServiceRow[];
}

function guestPackageJson(db: SandboxDb, row: GuestPackageRow, services: PackageServiceRow[], status: number) {
  const pkg = db.prepare("SELECT * FROM packages WHERE id = ?").get(row.package_id) as PackageRow;
  const invoice = db.prepare("SELECT * FROM invoices WHERE id = ?").get(row.invoice_id) as InvoiceRow;
  const { no, receiptNo } = invoiceNumbers(db, invoice);
  return {
    user_package_id: row.user_package_id,
    user_package_state: status,
    status,
    package: { id: pkg.id, name: pkg.name, type: 0 },
    invoice: { id: invoice.id, no, receipt_no: receiptNo, status: invoice.is_closed ? 4 : 0 },
    date: {
      start: zenotiDay(row.start_date),
      end: zenotiDay(row.end_date),
      end_date_with_grace: zenotiDay(row.end_date),
    },
    // As Zenoti's Guest Package sample gives a package's services (its per-session money and
    // category codes, whose meaning Zenoti does not publish, are left out).
    services: services.map((s) => ({
      service_type_info: { id: s.service_id, name: s.name, duration: s.duration, has_segments: false },
      exists_in_current_center: Boolean(
        db
          .prepare("SELECT 1 FROM center_services WHERE center_id = ? AND service_id = ?")
          .get(row.center_id, s.service_id),
      ),
      total: s.quantity,
      used: s.redeemed,
      balance: Math.max(0, s.quantity - s.redeemed),
      price: null,
      sale_as_part_of_package_or_membership_only: false,
    })),
    products: [],
    never_expires: row.end_date === null,
    start_validity_at_first_redemption: false,
    expiration_days: pkg.validity_days,
    purchase_price: row.price,
  };
}

function giftCardStatus(db: SandboxDb, card: GiftCardRow, now: number): "Active" | "Expired" {
  return card.expiry_date !== null && card.expiry_date < clinicToday(db, card.center_id, now) ? "Expired" : "Active";
}

/**
 * Zenoti documents the path of a package redemption on an invoice, not its body or answer: the
 * sandbox takes `package_redemptions: [{ user_package_id, invoice_item_id }]`. Each line must be an
 * open treatment line of the invoice, not yet redeemed, whose service the invoice's guest's package
 * covers with a session left; the line then owes nothing. All the redemptions or none.
 */
export function redeemPackages(
  db: SandboxDb,
  invoiceId: string,
  body: Record<string, unknown>,
  now: number,
): true | Refusal {
  const invoice = findRow<InvoiceRow>(db, "invoices", invoiceId);
  if (!invoice) return refusal(428, "Request invoices are invalid");
  if (invoice.is_closed || invoice.is_cancelled) return refusal(400, "Invoice is closed");
  const redemptions = body.package_redemptions;
  if (!Array.isArray(redemptions) || redemptions.length === 0 || redemptions.length > MAX_LINES)
    return refusal(400, "package_redemptions is required");
  const today = clinicToday(db, invoice.center_id, now);
  const refuse = (code: number, message: string) => new Refused(refusal(code, message));
  const redeem = db.transaction(() => {
    for (const redemption of redemptions as unknown[]) {
      const { user_package_id: packageId, invoice_item_id: itemId } = isObject(redemption) ? redemption : {};
      const owned =
        typeof packageId === "string" ? findRow<GuestPackageRow>(db, "guest_packages", packageId) : undefined;
      if (!owned || owned.guest_id !== invoice.guest_id) throw refuse(400, "Invalid user_package_id");
      const line = typeof itemId === "string" ? findRow<LineRow>(db, "invoice_items", itemId) : undefined;
      if (!line || line.invoice_id !== invoice.id || line.removed || isSaleKind(line.kind))
        throw refuse(429, "Invoice item not found");
      if (line.redeemed_user_package_id) throw refuse(400, "The invoice item is already redeemed");
      if (owned.end_date !== null && owned.end_date < today) throw refuse(400, "The package has expired");
      const cover = db
        .prepare("SELECT quantity, redeemed FROM guest_package_services WHERE user_package_id = ? AND service_id = ?")
        .get(owned.user_package_id, line.service_id) as { quantity: number; redeemed: number } | undefined;
      if (!cover) throw refuse(400, "The package does not cover this service");
      if (cover.redeemed >= cover.quantity) throw refuse(400, "The package has no sessions of this service left");
      db.prepare("UPDATE invoice_items SET discount = price, redeemed_user_package_id = ? WHERE id = ?").run(
        owned.user_package_id,
        line.id,
      );
      db.prepare(
        "UPDATE guest_package_services SET redeemed = redeemed + 1 WHERE user_package_id = ? AND service_id = ?",
      ).run(owned.user_package_id, line.service_id);
    }
  });
  try {
    redeem.immediate();
    return true;
  } catch (error) {
    if (error instanceof Refused) return error.refusal;
    throw error;
  }
}

export function mountSales(router: Router, db: SandboxDb, options: { now: () => number; tenant: TenantProfile }) {
  const { now } = options;
  const bodyOf = (body: unknown) => (isObject(body) ? body : {});

  router.get("/v1/centers/:centerId/packages", (req, res) => {
    const center = findRow<CenterRow>(db, "centers", req.params.centerId);
    if (!center) return v1Error(res, 200, 502, "Invalid center_id", { packages: null, page_info: null });
    const paging = readPaging(req, res);
    if (!paging) return;
    const total = (
      db.prepare("SELECT COUNT(*) AS n FROM center_packages WHERE center_id = ?").get(center.id) as { n: number }
    ).n;
    const rows = db
      .prepare(
        `SELECT p.*, cp.sale_price FROM packages p JOIN center_packages cp ON cp.package_id = p.id
         WHERE cp.center_id = ? ORDER BY p.display_order LIMIT ? OFFSET ?`,
      )
      .all(center.id, paging.size, (paging.page - 1) * paging.size) as (PackageRow & { sale_price: number })[];
    res.json({
      packages: rows.map((pkg) => packageJson(db, pkg, center.id, pkg.sale_price)),
      page_info: { total, page: paging.page, size: paging.size },
      error: null,
    });
  });

  router.get("/v1/giftcards/templates", (req, res) => {
    const center = centerOf(db, req.query.center_id);
    if (!center) return v1Error(res, 200, 502, "Invalid center_id", { templates: null });
    const rows = db
      .prepare(
        "SELECT t.* FROM giftcard_templates t JOIN center_giftcard_templates ct ON ct.template_id = t.id WHERE ct.center_id = ? ORDER BY t.display_order",
      )
      .all(center.id) as TemplateRow[];
    res.json({ templates: rows.map(templateJson), error: null });
  });

  router.get("/v1/giftcards/occasions", (_req, res) => {
    const rows = db.prepare("SELECT id, name FROM giftcard_occasions ORDER BY display_order").all() as OccasionRow[];
    res.json({ occasions: rows.map((o) => ({ id: o.id, name: o.name, images: [] })), error: null });
  });

  router.post("/v1/invoices/memberships", (req, res) => {
    const sale = sellMemberships(db, bodyOf(req.body), now());
    if (isRefusal(sale)) return v1Error(res, 200, sale.code, sale.message, { success: false, invoice_id: null });
    res.json({ success: true, invoice_id: sale.invoiceId, invoice_number: sale.invoiceNumber, error: null });
  });

  router.post("/v1/invoices/packages", (req, res) => {
    const sale = sellPackages(db, bodyOf(req.body), now());
    if (isRefusal(sale)) return v1Error(res, 200, sale.code, sale.message, { invoice_id: null });
    res.json({ invoice_id: sale.invoiceId, invoice_number: sale.invoiceNumber, error: null });
  });

  router.post("/v1/invoices/giftcards", (req, res) => {
    const sale = sellGiftCards(db, bodyOf(req.body), now());
    if (isRefusal(sale)) return v1Error(res, 200, sale.code, sale.message, { invoice_id: null });
    res.json({ invoice_id: sale.invoiceId, invoice_number: sale.invoiceNumber, error: null });
  });

  router.post("/v1/invoices/:invoiceId/close", (req, res) => {
    const closed = closeInvoice(db, req.params.invoiceId, now());
    // `success` besides Zenoti's `is_invoice_closed`: the front desk's helpers in the browser tests read it.
    if (isRefusal(closed))
      return v1Error(res, 200, closed.code, closed.message, { is_invoice_closed: false, success: false });
    res.json({ is_invoice_closed: true, success: true, error: null });
  });

  router.post("/v1/invoices/:invoiceId/send_giftcard_email", (req, res) => {
    const sent = sendGiftCardEmails(db, req.params.invoiceId, now());
    if (isRefusal(sent)) return v1Error(res, 200, sent.code, sent.message, { success: false });
    res.json({ success: true, error: null });
  });

  router.post("/v1/invoices/:invoiceId/redemptions/packages", (req, res) => {
    const redeemed = redeemPackages(db, req.params.invoiceId, bodyOf(req.body), now());
    if (isRefusal(redeemed)) return v1Error(res, 200, redeemed.code, redeemed.message, { success: false });
    res.json({ success: true, error: null });
  });

  router.get("/v1/giftcards/:number/balance", (req, res) => {
    const number = req.params.number.replace(/[\s-]/g, "");
    const card = db.prepare("SELECT * FROM gift_cards WHERE number = ?").get(number) as GiftCardRow | undefined;
    if (!card) return v1Error(res, 200, 404, "Gift card not found", { gift_card: null });
    res.json({
      gift_card: {
        number: card.number,
        value: card.value,
        balance: card.balance,
        expiry_date: zenotiDay(card.expiry_date),
        status: giftCardStatus(db, card, now()),
      },
      error: null,
    });
  });

  /** The cards a guest bought, and the cards sent to their email once the email has gone out. */
  router.get("/v1/guests/:guestId/gift_cards", (req, res) => {
    const guest = findRow<GuestRow>(db, "guests", req.params.guestId);
    if (!guest) return v1Error(res, 200, 414, "Guest not found", { gift_cards: null });
    const rows = db
      .prepare(
        `SELECT g.* FROM gift_cards g WHERE g.buyer_guest_id = ?
           OR (g.recipient_email_key = ? AND EXISTS (SELECT 1 FROM giftcard_emails e WHERE e.gift_card_id = g.id AND e.deliver_at <= ?))
         ORDER BY g.created_at DESC, g.number`,
      )
      .all(guest.id, guest.email?.toLowerCase() ?? "", now()) as GiftCardRow[];
    res.json({
      gift_cards: rows.map((card) => {
        const buyer = db
          .prepare("SELECT id, first_name, last_name FROM guests WHERE id = ?")
          .get(card.buyer_guest_id) as { id: string; first_name: string; last_name: string };
        return {
          id: card.id,
          number: card.number,
          value: card.value,
          balance: card.balance,
          expiry_date: zenotiDay(card.expiry_date),
          issued_on: zenotiDay(card.issued_on),
          status: giftCardStatus(db, card, now()),
          purchased_by: { id: buyer.id, first_name: buyer.first_name, last_name: buyer.last_name },
          recipient: { name: card.recipient_name, email: card.recipient_email },
          invoice_id: card.invoice_id,
        };
      }),
      error: null,
    });
  });

  // Zenoti's path has a capital P; the router ignores case, so "packages" is the same route.
  router.get("/v1/guests/:guestId/Packages", (req, res) => {
    const guest = findRow<GuestRow>(db, "guests", req.params.guestId);
    if (!guest) return v1Error(res, 200, 414, "Guest not found", { packages: null, page_info: null });
    const centerId = typeof req.query.center_id === "string" && req.query.center_id ? req.query.center_id : null;
    const center = centerId ? findRow<CenterRow>(db, "centers", centerId) : null;
    if (centerId && !center) return v1Error(res, 200, 502, "Invalid center_id", { packages: null, page_info: null });
    const paging = readPaging(req, res, { page: "page_num", size: "page_size" });
    if (!paging) return;
    const redeemableOnly = String(req.query.show_redeemable ?? "").toLowerCase() === "true";
    const rows = db
      .prepare(
        "SELECT * FROM guest_packages WHERE guest_id = ? AND (? IS NULL OR center_id = ?) ORDER BY created_at DESC, start_date DESC",
      )
      .all(guest.id, center?.id ?? null, center?.id ?? null) as GuestPackageRow[];
    const listed = rows.flatMap((row) => {
      const services = guestPackageServices(db, row.user_package_id);
      const status = packageStatus(row, services, clinicToday(db, row.center_id, now()));
      // Redeemable: sessions left, not expired.
      return redeemableOnly && status !== 1 ? [] : [{ row, services, status }];
    });
    const page = listed.slice((paging.page - 1) * paging.size, paging.page * paging.size);
    res.json({
      packages: page.map(({ row, services, status }) => guestPackageJson(db, row, services, status)),
      page_info: { total: listed.length, page: paging.page, size: paging.size },
      error: null,
    });
  });

  // The sandbox's own control, not a Zenoti call: the gift-card emails delivered to an address, newest first.
  router.get("/v1/sandbox/giftcard_emails", (req, res) => {
    const email = typeof req.query.email === "string" ? req.query.email.trim().toLowerCase() : "";
    if (!email) return v1Error(res, 200, 400, "email is required", { emails: null });
    const rows = db
      .prepare(
        "SELECT * FROM giftcard_emails WHERE to_email_key = ? AND deliver_at <= ? ORDER BY deliver_at DESC, queued_at DESC, card_number",
      )
      .all(email, now()) as {
      to_email: string;
      to_name: string;
      card_number: string;
      value: number;
      message: string;
      occasion_name: string;
      buyer_name: string;
      deliver_at: number;
    }[];
    res.json({
      emails: rows.map((e) => ({
        to: { name: e.to_name, email: e.to_email },
        from: e.buyer_name,
        card_number: e.card_number,
        value: e.value,
        occasion: e.occasion_name,
        message: e.message,
        delivered_at: new Date(e.deliver_at).toISOString(),
      })),
      error: null,
    });
  });
}
