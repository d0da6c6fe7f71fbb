import type { Router } from "express";
import { randomUUID } from "node:crypto";
import { findRow, normalizeId, type SandboxDb } from "./db";
import { readPaging } from "./catalog";
import { isRefusal, refusal, v1Error, type Refusal } from "./errors";
import type { TenantProfile } from "./tenant-profiles";

type GuestRow = {
  id: string;
  center_id: string;
  code: string;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  payload: string;
  created_at: number;
};

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
const EMPTY_DATE = "0001-01-01T00:00:00";

function guestJson(row: GuestRow) {
  const payload = JSON.parse(row.payload) as Record<string, unknown>;
  const personal = (payload.personal_info ?? {}) as Record<string, unknown>;
  return {
    id: row.id,
    code: row.code,
    center_id: row.center_id,
    personal_info: {
      first_name: row.first_name,
      last_name: row.last_name,
      middle_name: null,
      user_name: personal.user_name ?? row.email,
      email: row.email,
      mobile_phone: row.phone ? { country_code: 225, number: row.phone, display_number: row.phone } : null,
      gender: personal.gender ?? -1,
      // Zenoti answers a date of birth as a date and time, and its empty date for none.
      date_of_birth:
        typeof personal.date_of_birth === "string" && personal.date_of_birth
          ? `${personal.date_of_birth.slice(0, 10)}T00:00:00`
          : EMPTY_DATE,
      anniversary_date: EMPTY_DATE,
    },
    address_info: payload.address_info ?? null,
    preferences: payload.preferences ?? null,
    tags: payload.tags ?? [],
    referral: payload.referral ?? null,
    primary_employee: null,
    error: null,
  };
}

type Profile = { first: string; last: string; email: string; phone: string };

/**
 * The organisation's guest settings: which contact fields a guest must have. Zenoti: "you must
 * fill ... the mandatory fields that are set in the organization guest settings" (code 481).
 */
export type GuestSettings = { mandatoryFields: MandatoryGuestField[] };
export type MandatoryGuestField = "email" | "mobile_phone" | "date_of_birth" | "gender";

/** Zenoti's guest genders: -1 NotSpecified, 0 Female, 1 Male, 3 Other. */
const GUEST_GENDERS = new Set([-1, 0, 1, 3]);

/** A date Zenoti's model reads: YYYY-MM-DD, with a time or not; its empty date (0001-01-01) is "none". */
function readDate(value: unknown): "none" | "invalid" | string {
  if (value === undefined || value === null || value === "") return "none";
  if (typeof value !== "string") return "invalid";
  const match = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z?)?$/.exec(value);
  if (!match) return "invalid";
  const day = match[1];
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== day) return "invalid";
  return day.startsWith("0001-") ? "none" : day;
}

/**
 * A guest's language, kept with its preferences as `culture_id` (decision 043): Zenoti numbers
 * cultures with positive integers (its samples show 44, 46, 54, 202); none is null or absent.
 */
function isCultureId(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === "number" && Number.isInteger(value) && value > 0);
}

type ProfileBody = {
  personal_info?: {
    first_name?: string;
    last_name?: string;
    email?: string;
    mobile_phone?: { number?: string } | null;
    date_of_birth?: unknown;
    gender?: unknown;
  };
  preferences?: { culture_id?: unknown } | null;
  referral?: { referral_source?: { id?: string } | null; referred_by?: { id?: string } | null } | null;
};

/** Zenoti's checks on a guest profile, with its legacy error codes; `selfId` is the guest being updated. */
function checkProfile(
  db: SandboxDb,
  settings: GuestSettings,
  body: unknown,
  selfId: string | null,
): Profile | { code: number; message: string } {
  const { personal_info: personal = {}, preferences, referral } = (body ?? {}) as ProfileBody;
  const first = personal.first_name?.trim() ?? "";
  const last = personal.last_name?.trim() ?? "";
  const email = personal.email?.trim() ?? "";
  const phone = personal.mobile_phone?.number?.replace(/\D/g, "") ?? "";
  const birthDate = readDate(personal.date_of_birth);
  if (birthDate === "invalid") return { code: 400, message: "Invalid date_of_birth" };
  const gender = personal.gender ?? -1;
  if (typeof gender !== "number" || !GUEST_GENDERS.has(gender)) return { code: 400, message: "Invalid gender" };
  if (!isCultureId(preferences?.culture_id)) return { code: 400, message: "Invalid culture_id" };
  const given: Record<string, string> = {
    first_name: first,
    last_name: last,
    email,
    mobile_phone: phone,
    date_of_birth: birthDate === "none" ? "" : birthDate,
    gender: gender === -1 ? "" : String(gender),
  };
  const missing = ["first_name", "last_name", ...settings.mandatoryFields].filter((field) => !given[field]);
  if (missing.length > 0) return { code: 481, message: `Mandatory fields are missing: ${missing.join(", ")}` };
  if (email && !EMAIL.test(email)) return { code: 443, message: "Invalid email address" };
  if (phone && phone.length !== 10) return { code: 482, message: "Invalid mobile number length" };
  if (
    email &&
    db.prepare("SELECT 1 FROM guests WHERE email_key = ? AND id != ?").get(email.toLowerCase(), selfId ?? "")
  ) {
    return { code: 442, message: "Email already exists. A guest with this email is a duplicate" };
  }
  // A referral source is one the organisation configured, named by its GUID; free text is refused.
  const sourceId = referral?.referral_source?.id;
  if (sourceId && !findRow(db, "referral_sources", sourceId)) return { code: 400, message: "Invalid referral source" };
  // The referrer is another guest of the organisation, named by id.
  const referrerId = referral?.referred_by?.id;
  if (
    referrerId !== undefined &&
    (typeof referrerId !== "string" ||
      !findRow(db, "guests", referrerId) ||
      (selfId !== null && referrerId.toLowerCase() === selfId.toLowerCase()))
  ) {
    return { code: 400, message: "Invalid referred by guest" };
  }
  return { first, last, email, phone };
}

/**
 * Zenoti's create-a-guest: the profile checked as Zenoti checks it, then written with a new id (or
 * the one given, for the seed); the guest, or why not.
 */
export function createGuest(
  db: SandboxDb,
  settings: GuestSettings,
  body: unknown,
  options: { now: number; id?: string },
): GuestRow | Refusal {
  const centerId = (body as { center_id?: string } | null)?.center_id;
  const center = centerId ? findRow<{ id: string }>(db, "centers", centerId) : undefined;
  if (!center) return refusal(484, "Invalid center");
  const checked = checkProfile(db, settings, body, null);
  if ("code" in checked) return refusal(checked.code, checked.message);
  const { first, last, email, phone } = checked;
  const id = options.id ?? randomUUID();
  const code = `G${String((db.prepare("SELECT COUNT(*) AS n FROM guests").get() as { n: number }).n + 10001)}`;
  db.prepare(
    `INSERT INTO guests (id, id_key, center_id, code, first_name, last_name, email, email_key, phone, payload, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    normalizeId(id),
    center.id,
    code,
    first,
    last,
    email || null,
    email ? email.toLowerCase() : null,
    phone || null,
    JSON.stringify(body),
    options.now,
  );
  return findRow<GuestRow>(db, "guests", id)!;
}

/** `expand` as Zenoti takes it: repeated, or its values separated by commas. */
function expandedParts(expand: unknown): Set<string> {
  const values = Array.isArray(expand) ? expand : expand === undefined ? [] : [expand];
  return new Set(values.flatMap((value) => String(value).split(",")).map((value) => value.trim().toLowerCase()));
}

export function mountGuests(
  router: Router,
  db: SandboxDb,
  options: { now: () => number; tenant: TenantProfile; guestSettings: GuestSettings },
) {
  router.post("/v1/guests", (req, res) => {
    const guest = createGuest(db, options.guestSettings, req.body, { now: options.now() });
    if (isRefusal(guest)) return v1Error(res, 200, guest.code, guest.message);
    res.json(guestJson(guest));
  });

  // Replace, not patch, as Zenoti's update does: the whole profile is sent.
  router.put("/v1/guests/:guestId", (req, res) => {
    const row = findRow<GuestRow>(db, "guests", req.params.guestId);
    if (!row) return v1Error(res, 200, 414, "Guest not found");
    const checked = checkProfile(db, options.guestSettings, req.body, row.id);
    if ("code" in checked) return v1Error(res, 200, checked.code, checked.message);
    const { first, last, email, phone } = checked;
    db.prepare(
      "UPDATE guests SET first_name = ?, last_name = ?, email = ?, email_key = ?, phone = ?, payload = ? WHERE id = ?",
    ).run(
      first,
      last,
      email || null,
      email ? email.toLowerCase() : null,
      phone || null,
      JSON.stringify(req.body),
      row.id,
    );
    res.json(guestJson(findRow<GuestRow>(db, "guests", row.id)!));
  });

  router.get("/v1/guests/search", (req, res) => {
    const paging = readPaging(req, res);
    if (!paging) return;
    const email = typeof req.query.email === "string" ? req.query.email.trim().toLowerCase() : "";
    const phone = typeof req.query.phone === "string" ? req.query.phone.replace(/\D/g, "") : "";
    if (!email && !phone) return v1Error(res, 200, 503, "Search input is missing");
    // Zenoti: "SearchAcrossCenter = False && center_id = Null => Error"; with center_id, one center only.
    const centerId = typeof req.query.center_id === "string" ? normalizeId(req.query.center_id) : "";
    if (!centerId && !options.tenant.searchAcrossCenters) {
      return v1Error(
        res,
        200,
        400,
        "center_id is required: searching guests across centers is not enabled for this organization",
        { guests: null },
      );
    }
    const rows = db
      .prepare(
        `SELECT * FROM guests WHERE ((? != '' AND email_key = ?) OR (? != '' AND phone = ?))
         AND (? = '' OR replace(lower(center_id), '-', '') = ?) ORDER BY created_at LIMIT ? OFFSET ?`,
      )
      .all(email, email, phone, phone, centerId, centerId, paging.size, (paging.page - 1) * paging.size) as GuestRow[];
    // Zenoti spells it page_Info here.
    res.json({ guests: rows.map(guestJson), page_Info: { total: rows.length, page: paging.page, size: paging.size } });
  });

  router.get("/v1/guests/:guestId", (req, res) => {
    const row = findRow<GuestRow>(db, "guests", req.params.guestId);
    if (!row) return v1Error(res, 200, 414, "Guest not found");
    const guest = guestJson(row);
    if (!options.tenant.preferencesOnlyOnExpand) return res.json(guest);
    // Zenoti sends these parts of a guest only when they are asked for with `expand`.
    const asked = expandedParts(req.query.expand);
    res.json({
      ...guest,
      address_info: asked.has("address_info") ? guest.address_info : null,
      preferences: asked.has("preferences") ? guest.preferences : null,
    });
  });

  router.get("/v1/guests/:guestId/appointments", (req, res) => {
    const guest = findRow<GuestRow>(db, "guests", req.params.guestId);
    if (!guest) return v1Error(res, 200, 414, "Guest not found", { appointments: null });
    const paging = readPaging(req, res);
    if (!paging) return;
    const start = typeof req.query.start_date === "string" ? req.query.start_date : "0000";
    // Cancelled and no-show visits are left out unless asked for.
    const withCancelled = String(req.query.include_no_show_cancel ?? "").toLowerCase() === "true";
    const end = typeof req.query.end_date === "string" ? `${req.query.end_date}T99` : "9999";
    const rows = db
      .prepare(
        `SELECT a.*, s.name AS service_name, s.duration AS service_duration, s.is_add_on, t.first_name AS t_first, t.last_name AS t_last,
           COALESCE(cs.sale_price, 0) AS sale_price FROM appointments a
         JOIN services s ON s.id = a.service_id JOIN therapists t ON t.id = a.therapist_id
         LEFT JOIN center_services cs ON cs.center_id = a.center_id AND cs.service_id = a.service_id
         WHERE a.guest_id = ? AND a.start_local >= ? AND a.start_local <= ? AND (? OR a.status NOT IN (-1, -2)) ORDER BY a.start_local`,
      )
      .all(guest.id, start, end, withCancelled ? 1 : 0) as {
      id: string;
      invoice_id: string;
      invoice_item_id: string;
      center_id: string;
      service_id: string;
      service_name: string;
      service_duration: number;
      is_add_on: number;
      start_local: string;
      end_local: string;
      status: number;
      progress: number;
      t_first: string;
      t_last: string;
      therapist_id: string;
      therapist_requested: number;
      sale_price: number;
    }[];
    const price = (sales: number) => ({ currency_id: 148, sales, tax: 0, final: sales });
    const byInvoice = new Map<string, typeof rows>();
    for (const row of rows) byInvoice.set(row.invoice_id, [...(byInvoice.get(row.invoice_id) ?? []), row]);
    const groups = [...byInvoice.entries()];
    const invoiceStatus = new Map(
      groups.map(([invoiceId]) => {
        const row = db.prepare("SELECT is_closed FROM invoices WHERE id = ?").get(invoiceId) as
          | { is_closed: number }
          | undefined;
        return [invoiceId, row?.is_closed ? 4 : 0] as const;
      }),
    );
    const pageGroups = groups.slice((paging.page - 1) * paging.size, paging.page * paging.size);
    res.json({
      appointments: pageGroups.map(([invoiceId, services]) => ({
        // The keys of Zenoti's published sample, with the values a web booking has.
        appointment_group_id: invoiceId,
        no_of_guests: 1,
        invoice_id: invoiceId,
        // Open until the guest has been and the invoice is closed (4).
        invoice_status: invoiceStatus.get(invoiceId) ?? 0,
        is_rebooking: false,
        notes: null,
        center_id: services[0].center_id,
        appointment_services: services.map((s) => ({
          appointment_id: s.id,
          invoice_item_id: s.invoice_item_id,
          cart_item_id: s.invoice_item_id,
          // Zenoti puts the duration on the service, not on the appointment (its public sample).
          service: {
            id: s.service_id,
            name: s.service_name,
            display_name: s.service_name,
            price: price(s.sale_price),
            duration: s.service_duration,
            category_id: null,
            is_addon: s.is_add_on === 1,
            has_addons: null,
            addons: null,
            is_variant: null,
            has_variant: null,
            parent_service_id: null,
          },
          requested_therapist_gender: 0,
          start_time: s.start_local,
          end_time: s.end_local,
          room: null,
          equipment: null,
          appointment_status: s.status,
          // The nurse the guest asked for; the empty id when any nurse would do (the one assigned is not told).
          requested_therapist_id: s.therapist_requested ? s.therapist_id : "00000000-0000-0000-0000-000000000000",
          quantity: 0,
          service_custom_data_indicator: "",
          actual_start_time: null,
          completed_time: null,
          progress: s.progress,
          parent_appointment_id: null,
          service_custom_Data: null,
          item_actions: "",
          is_membership_applied: false,
          is_addon: s.is_add_on === 1,
          addon_appointment_id: null,
          has_service_form: false,
          has_segments: false,
          segments: null,
        })),
        appointment_packages: [],
        price: price(services.reduce((sum, s) => sum + s.sale_price, 0)),
        group_invoice_id: null,
        is_feedback_submitted: false,
      })),
      page_info: { total: groups.length, page: paging.page, size: paging.size },
      error: null,
    });
  });
}
