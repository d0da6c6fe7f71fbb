import type { Router } from "express";
import { randomBytes, randomUUID } from "node:crypto";
import { dayjs } from "~/lib/dayjs";
import type { CampaignBenefit } from "./campaigns";
import { readPaging } from "./catalog";
import { findRow, normalizeId, seedGuid, type SandboxDb } from "./db";
import { isRefusal, refusal, v1Error, type Refusal } from "./errors";
import { seedCouponDiscounts, seedDemoCoupons } from "./seed-data";

/**
 * Guest coupons, as Zenoti's custom coupons are: one guest's, with a number, a description (the
 * text of the discount it was made from), an expiry, used once (decision 044). Listed by
 * `GET /v1/guests/{guest_id}/coupons`; applied to an invoice through the campaign discount call
 * with the coupon's number as the offer code, which prices the invoice by the coupon's discount
 * and sets its status to CouponApplied (3).
 */
type CouponRow = {
  id: string;
  number: string;
  guest_id: string;
  center_id: string;
  description: string;
  rules: string;
  issue_date: string;
  expiry_date: string | null;
  redeemable_by_all: number;
  redeemed_invoice_id: string | null;
  created_at: number;
};

const DAY = "YYYY-MM-DD";

/** Zenoti writes these datetimes without an offset. */
const zenotiDateTime = (day: string) => `${day}T00:00:00`;

/** The coupon with this number (case aside), or undefined. */
function couponByNumber(db: SandboxDb, number: string): CouponRow | undefined {
  return db.prepare("SELECT * FROM coupons WHERE upper(number) = ?").get(number.trim().toUpperCase()) as
    | CouponRow
    | undefined;
}

/** The invoice a coupon is used on, while that invoice still has a line: a visit undone gives the coupon back. */
function redeemedOn(db: SandboxDb, coupon: CouponRow): string | null {
  if (!coupon.redeemed_invoice_id) return null;
  const live = db
    .prepare("SELECT COUNT(*) AS n FROM invoice_items WHERE invoice_id = ? AND removed = 0")
    .get(coupon.redeemed_invoice_id) as { n: number };
  return live.n > 0 ? coupon.redeemed_invoice_id : null;
}

/** The discount benefits of the coupon with this number, for pricing an invoice; null for none. */
export function couponBenefits(
  db: SandboxDb,
  number: string,
): { rules: CampaignBenefit[]; validFrom: null; validTo: string | null } | null {
  const coupon = couponByNumber(db, number);
  return coupon
    ? { rules: JSON.parse(coupon.rules) as CampaignBenefit[], validFrom: null, validTo: coupon.expiry_date }
    : null;
}

/**
 * A coupon applied to an invoice: refused when it is not the invoice's guest's (and not redeemable
 * by all), is used on another invoice, or has expired by the visit's day. The codes of these
 * refusals are not published; these are the sandbox's own.
 */
export function redeemCoupon(
  db: SandboxDb,
  invoice: { id: string; guest_id: string },
  number: string,
  visitDay: string,
): { couponId: string } | Refusal | null {
  const coupon = couponByNumber(db, number);
  if (!coupon) return null;
  if (normalizeId(coupon.guest_id) !== normalizeId(invoice.guest_id) && !coupon.redeemable_by_all)
    return refusal(4045, "Invalid offer code");
  const usedOn = redeemedOn(db, coupon);
  if (usedOn && usedOn !== invoice.id) return refusal(4047, "Coupon is already redeemed");
  if (coupon.expiry_date && visitDay > coupon.expiry_date)
    return refusal(4046, "Coupon has expired for the appointment date");
  db.prepare("UPDATE coupons SET redeemed_invoice_id = ? WHERE id = ?").run(invoice.id, coupon.id);
  return { couponId: coupon.id };
}

/** The benefits of a discount coupons are made from, by service id, in dollars. */
function discountRules(description: string): CampaignBenefit[] | null {
  const discount = seedCouponDiscounts.find((d) => d.description === description);
  return discount
    ? discount.rules.map((r) => ({
        discount_type: r.discount_type,
        discount_value: r.discount_value,
        service_id: r.service ? seedGuid(`service:${r.service}`) : null,
        service_type: r.service_type,
      }))
    : null;
}

export type CouponGrant = {
  description?: unknown;
  number?: unknown;
  expiry_date?: unknown;
  redeemable_by_all?: unknown;
};

/** Issues a coupon to a guest, as a clinic's custom coupon does: of a known discount, with a number of its own unless one is given. */
export function issueCoupon(
  db: SandboxDb,
  guestId: string,
  grant: CouponGrant,
  now: number,
): { id: string; number: string } | Refusal {
  const guest = findRow<{ id: string; center_id: string }>(db, "guests", guestId);
  if (!guest) return refusal(414, "Guest not found");
  const description = typeof grant.description === "string" ? grant.description : "";
  const rules = discountRules(description);
  if (!rules) return refusal(400, "Unknown discount");
  const number =
    typeof grant.number === "string" && /^[A-Za-z0-9-]{4,20}$/.test(grant.number)
      ? grant.number.toUpperCase()
      : randomBytes(6).toString("hex").toUpperCase();
  if (couponByNumber(db, number)) return refusal(400, "Coupon number is in use");
  const expiry = grant.expiry_date === null || grant.expiry_date === undefined ? null : String(grant.expiry_date);
  if (expiry !== null && !dayjs(expiry, DAY, true).isValid()) return refusal(400, "expiry_date must be YYYY-MM-DD");
  const id = randomUUID();
  db.prepare(
    `INSERT INTO coupons (id, id_key, number, guest_id, center_id, description, rules, issue_date, expiry_date, redeemable_by_all, redeemed_invoice_id, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)`,
  ).run(
    id,
    normalizeId(id),
    number,
    guest.id,
    guest.center_id,
    description,
    JSON.stringify(rules),
    dayjs(now).utc().format(DAY),
    expiry,
    grant.redeemable_by_all === true ? 1 : 0,
    now,
  );
  return { id, number };
}

/** The demo guest's coupons, added once (to a sandbox made before them too) when she exists. */
export function seedDemoGuestCoupons(db: SandboxDb, guestId: string, now: number): void {
  if (!findRow(db, "guests", guestId)) return;
  const today = dayjs(now).utc();
  for (const seed of seedDemoCoupons) {
    if (couponByNumber(db, seed.number)) continue;
    const issued = issueCoupon(
      db,
      guestId,
      {
        description: seed.description,
        number: seed.number,
        expiry_date: today.add(seed.expiresInDays, "day").format(DAY),
      },
      now,
    );
    if (isRefusal(issued)) throw new Error(`The demo coupon ${seed.number} was refused: ${issued.message}`);
    // The one she used, on her first visit, which the clinic closed.
    const visit = db
      .prepare("SELECT id FROM invoices WHERE guest_id = ? AND is_closed = 1 ORDER BY number LIMIT 1")
      .get(findRow<{ id: string }>(db, "guests", guestId)!.id) as { id: string } | undefined;
    if (seed.redeemed && visit)
      db.prepare("UPDATE coupons SET redeemed_invoice_id = ? WHERE id = ?").run(visit.id, issued.id);
  }
}

/** Zenoti's redemption word for a coupon: "Redeemed", "Expired" or "Not Redeemed" (the coupon report's three states). */
function redemptionOf(db: SandboxDb, coupon: CouponRow, today: string): string {
  if (redeemedOn(db, coupon)) return "Redeemed";
  if (coupon.expiry_date && coupon.expiry_date < today) return "Expired";
  return "Not Redeemed";
}

function couponJson(db: SandboxDb, coupon: CouponRow, today: string) {
  const center = (id: string) =>
    (db.prepare("SELECT name FROM centers WHERE id = ?").get(id) as { name: string } | undefined)?.name ?? null;
  const usedOn = redeemedOn(db, coupon);
  const invoice = usedOn
    ? (db.prepare("SELECT center_id FROM invoices WHERE id = ?").get(usedOn) as { center_id: string } | undefined)
    : undefined;
  return {
    id: coupon.id,
    number: coupon.number,
    invoice_id: null,
    invoice_number: null,
    reciept_number: null,
    description: coupon.description,
    issue_date: zenotiDateTime(coupon.issue_date),
    issued_center: center(coupon.center_id),
    expiry_date: coupon.expiry_date ? zenotiDateTime(coupon.expiry_date) : null,
    redemption: redemptionOf(db, coupon, today),
    redeemed_center: invoice ? center(invoice.center_id) : null,
    redeemable_by_all: coupon.redeemable_by_all ? "Yes" : "No",
    status: "Closed",
  };
}

export function mountCoupons(router: Router, db: SandboxDb, options: { now: () => number }) {
  router.get("/v1/guests/:guestId/coupons", (req, res) => {
    const guest = findRow<{ id: string }>(db, "guests", req.params.guestId);
    if (!guest) return v1Error(res, 200, 414, "Guest not found", { coupons: null });
    const paging = readPaging(req, res);
    if (!paging) return;
    const total = (db.prepare("SELECT COUNT(*) AS n FROM coupons WHERE guest_id = ?").get(guest.id) as { n: number }).n;
    const rows = db
      .prepare("SELECT * FROM coupons WHERE guest_id = ? ORDER BY created_at DESC, number LIMIT ? OFFSET ?")
      .all(guest.id, paging.size, (paging.page - 1) * paging.size) as CouponRow[];
    const today = dayjs(options.now()).utc().format(DAY);
    res.json({
      coupons: rows.map((row) => couponJson(db, row, today)),
      page_info: { total, page: paging.page, size: paging.size },
      error: null,
    });
  });

  // The sandbox's own control, not a Zenoti call, for tests: a coupon issued to a guest.
  router.post("/v1/sandbox/guests/:guestId/coupons", (req, res) => {
    const issued = issueCoupon(db, req.params.guestId, (req.body ?? {}) as CouponGrant, options.now());
    if (isRefusal(issued)) return v1Error(res, 200, issued.code, issued.message);
    res.json({ id: issued.id, number: issued.number, error: null });
  });
}
