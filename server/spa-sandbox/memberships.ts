import type { Router } from "express";
import { randomUUID } from "node:crypto";
import { dayjs } from "../../app/lib/dayjs";
import { toIanaTimeZone } from "../spa/time-zones.server";
import { readPaging } from "./catalog";
import { findRow, normalizeId, seedGuid, type SandboxDb } from "./db";
import { isRefusal, refusal, v1Error, type Refusal } from "./errors";
import { planDiscountedServices } from "./member-prices";

/**
 * Memberships and loyalty points: the plans a clinic sells (`/v1/centers/{id}/memberships`), a
 * guest's memberships and points, and the sandbox's own controls that give a guest a membership or
 * points for tests (a membership given that way names a made-up invoice; one sold through `POST
 * /v1/invoices/memberships` names its sale invoice, see sales.ts).
 */

const USD = 148;
const DAY = "YYYY-MM-DD";
/** Zenoti writes a day as midnight, without an offset. */
const zenotiDay = (day: string | null) => (day ? `${day}T00:00:00` : null);

/** Zenoti's guest membership statuses (there is no 11). */
export const MEMBERSHIP_STATUS_CODES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12] as const;

type PlanRow = {
  id: string;
  code: string;
  name: string;
  description: string;
  price: number;
  payment_frequency: string;
  is_recurring: number;
  terms: string | null;
  covered_services: string;
  display_order: number;
  /** Member prices: the percent off the clinic's other treatments and add-ons (member-prices.ts). */
  service_discount_percent: number;
};
type Cover = { service: string; quantity: number };
type GuestRow = { id: string; center_id: string; first_name: string; last_name: string; email: string | null };
type GuestMembershipRow = {
  user_membership_id: string;
  guest_id: string;
  membership_id: string;
  center_id: string;
  status: number;
  recurrence_status: number;
  member_since: string;
  expiry_date: string | null;
  credit_total: number;
  credit_service: number;
  credit_product: number;
  credit_other: number;
  invoice_id: string;
  invoice_no: string;
  receipt_no: string;
  invoice_item_id: string;
};
type PointsRow = { date: string; points: number; reason: string };

export function clinicToday(db: SandboxDb, centerId: string, now: number): string {
  const center = db.prepare("SELECT time_zone_name FROM centers WHERE id = ?").get(centerId) as {
    time_zone_name: string;
  };
  return dayjs(now).tz(toIanaTimeZone(center.time_zone_name)).format(DAY);
}

const isDay = (value: unknown): value is string =>
  typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) && dayjs(value, DAY, true).isValid();

/** "12 Months" → 12; other frequencies (days, weeks, years) in months where they are whole ones. */
function termMonths(paymentFrequency: string): number | null {
  const match = /^\s*(\d+)\s*(month|year)s?\s*$/i.exec(paymentFrequency);
  if (!match) return null;
  return Number(match[1]) * (match[2].toLowerCase() === "year" ? 12 : 1);
}

/** The services a plan covers, with their ids, names and categories, in the plan's order. */
function coveredServices(db: SandboxDb, plan: PlanRow) {
  return (JSON.parse(plan.covered_services) as Cover[]).flatMap((cover) => {
    const service = db.prepare("SELECT id, name, category_name FROM services WHERE code = ?").get(cover.service) as
      | { id: string; name: string; category_name: string }
      | undefined;
    return service ? [{ ...service, quantity: cover.quantity }] : [];
  });
}

function planJson(db: SandboxDb, plan: PlanRow, centerId: string, salePrice: number) {
  const services = coveredServices(db, plan);
  return {
    id: plan.id,
    version_id: plan.id,
    name: plan.name,
    code: plan.code,
    description: plan.description,
    html_description: `<p>${plan.description}</p>`,
    price: { currency_id: USD, sales: salePrice, tax: 0, final: salePrice },
    can_book: true,
    show_price: true,
    display_name: null,
    display_price: null,
    image_paths: [],
    is_recurring_membership: plan.is_recurring === 1,
    // Zenoti's samples show 1 on a recurring plan and 0 on the other.
    membership_type: plan.is_recurring === 1 ? 1 : 0,
    first_collection_after: 0,
    terms_and_conditions: plan.terms,
    terms_and_conditions_acceptance: null,
    enforce_mandatory_fields: false,
    payment_frequency: plan.payment_frequency,
    // Each plan's own benefits, besides the answer's shared list below.
    benefits: {
      services: services.map((s) => ({ id: s.id, name: s.name, quantity: s.quantity })),
      classes: [],
      workshops: [],
      products: [],
      // Member prices: the plan's percent off each other treatment and add-on the clinic sells.
      discounts: {
        classes: [],
        services: planDiscountedServices(db, plan, centerId).map((s) => ({
          id: s.id,
          name: s.name,
          discount_percentage: plan.service_discount_percent,
        })),
      },
    },
  };
}

/**
 * A covered service in the answer's shared `benefits` list, keyed by `membership_id` as Zenoti's
 * published sample keys its class benefits: the item in `category` (is_category false), its
 * category in `parent`.
 */
function benefitJson(membershipId: string, service: ReturnType<typeof coveredServices>[number]) {
  return {
    membership_id: membershipId,
    id: service.id,
    name: service.name,
    category: { id: service.id, name: service.name },
    parent: { id: seedGuid(`category:${service.category_name}`), name: service.category_name },
    grand_parent: { id: null, name: null },
    level: 2,
    assigned_count: 1,
    is_category: false,
    quantity: service.quantity,
    allowed_quantity_in_frequency: 0,
    frequency_mode: -1,
    frequency: null,
    expiration_days: 0,
    peak_discount: 0,
    off_peak_discount: 0,
    post_credit_consumption_peak_discount: 0,
    post_credit_consumption_off_peak_discount: 0,
  };
}

function guestMembershipJson(db: SandboxDb, row: GuestMembershipRow, guest: GuestRow) {
  const plan = db.prepare("SELECT * FROM membership_plans WHERE id = ?").get(row.membership_id) as PlanRow;
  const credit = {
    total: row.credit_total,
    service: row.credit_service,
    product: row.credit_product,
    other: row.credit_other,
    comments: null,
  };
  return {
    user_membership_id: row.user_membership_id,
    status: row.status,
    is_refunded: row.status === 9,
    recurrence_status: row.recurrence_status,
    membership: {
      id: plan.id,
      name: plan.name,
      code: plan.code,
      type: plan.is_recurring === 1 ? 1 : 0,
      description: plan.description,
      freeze_fee_reason_enabled: false,
    },
    // Closed (4): the sale was paid.
    invoice: {
      id: row.invoice_id,
      no: row.invoice_no,
      receipt_no: row.receipt_no,
      status: 4,
      item_id: row.invoice_item_id,
    },
    expiry_date: zenotiDay(row.expiry_date),
    member_since: zenotiDay(row.member_since),
    credit_balance: credit,
    // Public code that reads this answer types credit_amount as a balance block too.
    credit_amount: credit,
    guestpass_total: 0,
    guestpass_balance: 0,
    guest: { personal_info: { first_name: guest.first_name, last_name: guest.last_name, email: guest.email } },
  };
}

export type MembershipGrant = {
  membership_id?: unknown;
  /** Default: the guest's own clinic. */
  center_id?: unknown;
  /** Default 1 (Active). */
  status?: unknown;
  /** Default 1 for a recurring plan, 0 for the other. */
  recurrence_status?: unknown;
  /** YYYY-MM-DD; default the clinic's today. */
  member_since?: unknown;
  /** YYYY-MM-DD or null; default the end of the term for a plan that does not renew, none for one that does. */
  expiry_date?: unknown;
  /** Dollars; the total is their sum. */
  credit_balance?: { service?: unknown; product?: unknown; other?: unknown } | null;
};

/** The sale invoice a membership came from, and the card that renews a renewing one. */
export type MembershipInvoice = {
  id: string;
  no: string;
  receiptNo: string;
  itemId: string;
  recurringAccountId: string | null;
};

/**
 * Gives a guest a membership, as a paid sale does: the closing of a sale invoice names it in
 * `invoice`; the sandbox's control (not a Zenoti call) leaves a made-up invoice reference. The new
 * user membership's id (`id`, for the seed, or a new one), or why not.
 */
export function giveMembership(
  db: SandboxDb,
  guestId: string,
  grant: MembershipGrant,
  now: number,
  id: string = randomUUID(),
  invoice?: MembershipInvoice,
): { userMembershipId: string } | Refusal {
  const guest = findRow<GuestRow>(db, "guests", guestId);
  if (!guest) return refusal(414, "Guest not found");
  const center = findRow<{ id: string; code: string }>(
    db,
    "centers",
    typeof grant.center_id === "string" && grant.center_id ? grant.center_id : guest.center_id,
  );
  if (!center) return refusal(502, "Invalid center_id");
  const plan =
    typeof grant.membership_id === "string" ? findRow<PlanRow>(db, "membership_plans", grant.membership_id) : undefined;
  if (
    !plan ||
    !db
      .prepare("SELECT 1 FROM center_membership_plans WHERE center_id = ? AND membership_id = ?")
      .get(center.id, plan.id)
  ) {
    return refusal(400, "Invalid membership_id");
  }
  const status = grant.status ?? 1;
  if (!MEMBERSHIP_STATUS_CODES.includes(status as (typeof MEMBERSHIP_STATUS_CODES)[number]))
    return refusal(400, "Invalid status");
  const recurrence = grant.recurrence_status ?? (plan.is_recurring ? 1 : 0);
  if (recurrence !== 0 && recurrence !== 1) return refusal(400, "Invalid recurrence_status");
  if (grant.member_since !== undefined && !isDay(grant.member_since)) return refusal(400, "Invalid member_since");
  const since = (grant.member_since as string | undefined) ?? clinicToday(db, center.id, now);
  let expiry: string | null;
  if (grant.expiry_date === undefined) {
    const months = plan.is_recurring ? null : termMonths(plan.payment_frequency);
    expiry = months ? dayjs(since, DAY).add(months, "month").subtract(1, "day").format(DAY) : null;
  } else if (grant.expiry_date === null || isDay(grant.expiry_date)) {
    expiry = grant.expiry_date;
  } else {
    return refusal(400, "Invalid expiry_date");
  }
  const credit = { service: 0, product: 0, other: 0 };
  for (const kind of ["service", "product", "other"] as const) {
    const value = grant.credit_balance?.[kind] ?? 0;
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
      return refusal(400, `Invalid credit_balance.${kind}`);
    credit[kind] = value;
  }
  const count = (db.prepare("SELECT COUNT(*) AS n FROM guest_memberships").get() as { n: number }).n;
  const from = invoice ?? {
    id: randomUUID(),
    no: `${center.code}M${1001 + count}`,
    receiptNo: `${center.code}MR${1001 + count}`,
    itemId: randomUUID(),
    recurringAccountId: null,
  };
  db.prepare(
    `INSERT INTO guest_memberships (user_membership_id, id_key, guest_id, membership_id, center_id, status, recurrence_status, member_since,
       expiry_date, credit_total, credit_service, credit_product, credit_other, invoice_id, invoice_no, receipt_no, invoice_item_id, created_at,
       recurring_account_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    normalizeId(id),
    guest.id,
    plan.id,
    center.id,
    status,
    recurrence,
    since,
    expiry,
    credit.service + credit.product + credit.other,
    credit.service,
    credit.product,
    credit.other,
    from.id,
    from.no,
    from.receiptNo,
    from.itemId,
    now,
    plan.is_recurring ? from.recurringAccountId : null,
  );
  return { userMembershipId: id };
}

export function pointsBalance(db: SandboxDb, guestId: string): number {
  return (
    db.prepare("SELECT COALESCE(SUM(points), 0) AS n FROM guest_points WHERE guest_id = ?").get(guestId) as {
      n: number;
    }
  ).n;
}

/**
 * Adds a row to a guest's points (not a Zenoti call): earned (+) or redeemed (-), never below
 * nothing; the new balance, or why not.
 */
export function addPoints(
  db: SandboxDb,
  guestId: string,
  change: { points?: unknown; reason?: unknown; date?: unknown },
  now: number,
): { balance: number } | Refusal {
  const guest = findRow<GuestRow>(db, "guests", guestId);
  if (!guest) return refusal(414, "Guest not found");
  const { points, reason } = change;
  if (typeof points !== "number" || !Number.isInteger(points) || points === 0)
    return refusal(400, "points must be a whole number, not 0");
  if (typeof reason !== "string" || !reason.trim() || reason.length > 200)
    return refusal(400, "reason is required (200 characters at most)");
  if (change.date !== undefined && !isDay(change.date)) return refusal(400, "Invalid date");
  const balance = pointsBalance(db, guest.id) + points;
  if (balance < 0) return refusal(400, "Not enough points to redeem");
  const date = (change.date as string | undefined) ?? clinicToday(db, guest.center_id, now);
  db.prepare("INSERT INTO guest_points (guest_id, date, points, reason) VALUES (?, ?, ?, ?)").run(
    guest.id,
    date,
    points,
    reason.trim(),
  );
  return { balance };
}

export function mountMemberships(router: Router, db: SandboxDb, options: { now: () => number }) {
  const { now } = options;

  router.get("/v1/centers/:centerId/memberships", (req, res) => {
    const center = findRow<{ id: string }>(db, "centers", req.params.centerId);
    if (!center) return v1Error(res, 200, 502, "Invalid center_id", { memberships: null, page_info: null });
    const paging = readPaging(req, res);
    if (!paging) return;
    // Every plan the sandbox sells is shown in the catalog, so show_in_catalog=true leaves them all.
    const total = (
      db.prepare("SELECT COUNT(*) AS n FROM center_membership_plans WHERE center_id = ?").get(center.id) as {
        n: number;
      }
    ).n;
    const rows = db
      .prepare(
        `SELECT p.*, cp.sale_price FROM membership_plans p JOIN center_membership_plans cp ON cp.membership_id = p.id
         WHERE cp.center_id = ? ORDER BY p.display_order LIMIT ? OFFSET ?`,
      )
      .all(center.id, paging.size, (paging.page - 1) * paging.size) as (PlanRow & { sale_price: number })[];
    res.json({
      memberships: rows.map((plan) => planJson(db, plan, center.id, plan.sale_price)),
      total_no_of_memberships: total,
      // Zenoti's published sample lists the benefits of the page's plans here, each naming its plan.
      benefits: {
        services: rows.flatMap((plan) => coveredServices(db, plan).map((service) => benefitJson(plan.id, service))),
        classes: [],
        workshops: [],
        products: [],
        // The member prices are listed with each plan, in `benefits.discounts`, as the client reads them.
        discounts: { classes: [], services: [] },
      },
      page_info: { total, page: paging.page, size: paging.size },
      error: null,
    });
  });

  router.get("/v1/guests/:guestId/memberships", (req, res) => {
    const guest = findRow<GuestRow>(db, "guests", req.params.guestId);
    if (!guest) return v1Error(res, 200, 414, "Guest not found", { guest_memberships: null });
    const centerId = typeof req.query.center_id === "string" && req.query.center_id ? req.query.center_id : null;
    const center = centerId ? findRow<{ id: string }>(db, "centers", centerId) : null;
    if (centerId && !center) return v1Error(res, 200, 502, "Invalid center_id", { guest_memberships: null });
    const rows = db
      .prepare(
        "SELECT * FROM guest_memberships WHERE guest_id = ? AND (? IS NULL OR center_id = ?) ORDER BY member_since DESC, created_at DESC",
      )
      .all(guest.id, center?.id ?? null, center?.id ?? null) as GuestMembershipRow[];
    res.json({ guest_memberships: rows.map((row) => guestMembershipJson(db, row, guest)), error: null });
  });

  /**
   * Zenoti's answer to the points call is not published (only its path and query are): this shape
   * follows the legacy summary (Balance, TierName, EnrollmentStatus) in snake_case, with the
   * history, newest first, paged by `page_num` and `num_records`. The client reads it leniently.
   */
  router.get("/v1/guests/:guestId/points", (req, res) => {
    const guest = findRow<GuestRow>(db, "guests", req.params.guestId);
    if (!guest) return v1Error(res, 200, 414, "Guest not found", { points: null });
    const paging = readPaging(req, res, { page: "page_num", size: "num_records" });
    if (!paging) return;
    const total = (
      db.prepare("SELECT COUNT(*) AS n FROM guest_points WHERE guest_id = ?").get(guest.id) as { n: number }
    ).n;
    const rows = db
      .prepare(
        "SELECT date, points, reason FROM guest_points WHERE guest_id = ? ORDER BY date DESC, id DESC LIMIT ? OFFSET ?",
      )
      .all(guest.id, paging.size, (paging.page - 1) * paging.size) as PointsRow[];
    res.json({
      points: {
        balance: pointsBalance(db, guest.id),
        tier_name: null,
        enrollment_status: total > 0 ? "Enrolled" : "NotEnrolled",
        history: rows.map((row) => ({
          date: zenotiDay(row.date),
          points: row.points,
          type: row.points < 0 ? "redeemed" : "earned",
          reason: row.reason,
        })),
      },
      page_info: { total, page: paging.page, size: paging.size },
      error: null,
    });
  });

  // The sandbox's own controls, not Zenoti calls, for tests: a membership, and points.
  router.post("/v1/sandbox/guests/:guestId/memberships", (req, res) => {
    const given = giveMembership(db, req.params.guestId, (req.body ?? {}) as MembershipGrant, now());
    if (isRefusal(given)) return v1Error(res, 200, given.code, given.message);
    res.json({ user_membership_id: given.userMembershipId, error: null });
  });

  router.post("/v1/sandbox/guests/:guestId/points", (req, res) => {
    const added = addPoints(
      db,
      req.params.guestId,
      (req.body ?? {}) as { points?: unknown; reason?: unknown; date?: unknown },
      now(),
    );
    if (isRefusal(added)) return v1Error(res, 200, added.code, added.message);
    res.json({ balance: added.balance, error: null });
  });
}
