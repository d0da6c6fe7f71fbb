import type { Request, Response, Router } from "express";
import { normalizeId, seedGuid, type SandboxDb } from "./db";
import { windowsDisplayName } from "../spa/time-zones.server";
import { catalogPictureOf } from "./catalog-images";
import { dotNetError, v1Error } from "./errors";
import type { TenantProfile } from "./tenant-profiles";

type CenterRow = {
  id: string;
  code: string;
  name: string;
  display_name: string;
  description: string;
  address_1: string;
  address_2: string | null;
  city: string;
  state_code: string;
  state_name: string;
  zip_code: string;
  phone: string;
  email: string;
  latitude: number;
  longitude: number;
  time_zone_id: number;
  time_zone_name: string;
  working_hours: string;
};
type TherapistRow = {
  id: string;
  code: string;
  first_name: string;
  last_name: string;
  gender: string;
  job_name: string;
};
type ServiceRow = {
  id: string;
  code: string;
  name: string;
  description: string;
  category_name: string;
  sub_category_name: string | null;
  duration: number;
  recovery_time: number;
  is_add_on: number;
  add_on_codes: string;
  display_order: number;
  sale_price: number;
};

const USD = 148;
const US = { id: 225, code: "US", name: "United States", phone_code: "+1", nationality: "American" };

/**
 * `page` defaults to 1 and `size` to 10; over 100 is refused with code 422, on HTTP 200. A few
 * calls name them otherwise (loyalty history: `page_num` and `num_records`).
 */
export function readPaging(
  req: Request,
  res: Response,
  names: { page: string; size: string } = { page: "page", size: "size" },
): { page: number; size: number } | null {
  const page = req.query[names.page] === undefined ? 1 : Number(req.query[names.page]);
  const size = req.query[names.size] === undefined ? 10 : Number(req.query[names.size]);
  if (!Number.isInteger(page) || page < 1 || !Number.isInteger(size) || size < 1) {
    dotNetError(res, 400, 400, "The request is invalid.");
    return null;
  }
  if (size > 100) {
    dotNetError(res, 200, 422, "You cannot request more than 100 items");
    return null;
  }
  return { page, size };
}

function expands(req: Request): Set<string> {
  const raw = req.query.expand;
  const values = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  return new Set(values.flatMap((v) => String(v).split(",")).map((v) => v.trim().toLowerCase()));
}

function centerInfo(row: CenterRow, withHours: boolean, tenant: TenantProfile) {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    display_name: row.display_name,
    description: row.description,
    online_booking_start_date: "2020-01-01T00:00:00",
    enable_parallel_services_at_center: false,
    culture_code_at_center: "en-US",
    is_fbe_enabled: false,
    zone: null,
    country: US,
    state: {
      id: row.state_code.charCodeAt(0) * 100 + row.state_code.charCodeAt(1),
      code: row.state_code,
      name: row.state_name,
      short_name: row.state_code,
    },
    // Zenoti spells it "lattitude". Its time zone is .NET's: `name` is the display string public
    // code parses ("(UTC-05:00) Eastern Time (US & Canada)"), `standard_name` the Windows name; a
    // strict tenant gives the id alone, every name null, as Zenoti's webhook samples do.
    location: {
      lattitude: row.latitude,
      longitude: row.longitude,
      time_zone: tenant.zoneNamesNull
        ? { id: row.time_zone_id, name: null, standard_name: null, identifier_name: null, abbreviation: null }
        : {
            id: row.time_zone_id,
            name: windowsDisplayName(row.time_zone_name) ?? row.time_zone_name,
            standard_name: row.time_zone_name,
          },
    },
    currency: { id: USD, code: "USD", symbol: "$" },
    address_info: { address_1: row.address_1, address_2: row.address_2, city: row.city, zip_code: row.zip_code },
    contact_info: { phone_1: { country_id: US.id, number: row.phone, display_number: row.phone }, email: row.email },
    settings: null,
    working_hours: withHours ? workingHours(row, tenant) : null,
    additional_info: null,
  };
}

type WorkingDayRow = { day_of_week: number; start_time: string | null; end_time: string | null; is_closed: boolean };
const DAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/**
 * The seed's hours ("09:00", days 0-6, closed days flagged); a tenant with `hoursAsHhmm` answers in
 * the one form Zenoti publishes, `{ "day_of_week": "Monday", "start_time": "800", "end_time": "2200" }`,
 * which has no closed flag: a closed day has no entry.
 */
function workingHours(row: CenterRow, tenant: TenantProfile) {
  const days = JSON.parse(row.working_hours) as WorkingDayRow[];
  if (!tenant.hoursAsHhmm) return days;
  const hhmm = (time: string) => String(Number(time.replace(":", "")));
  return days
    .filter((day) => !day.is_closed && day.start_time && day.end_time)
    .map((day) => ({
      day_of_week: DAY_NAMES[day.day_of_week],
      start_time: hhmm(day.start_time!),
      end_time: hhmm(day.end_time!),
    }));
}

/**
 * A service's catalog picture, addressed like the rest of the organisation's images: absolute, at
 * the host the API was called on. Zenoti's reference types `image_paths` as a string.
 */
function pictureAddress(req: Request, category: string): string | null {
  const name = catalogPictureOf(category);
  return name ? `${req.protocol}://${req.get("host")}${req.baseUrl}/images/${name}.svg` : null;
}

function findCenter(db: SandboxDb, id: string): CenterRow | undefined {
  return db.prepare("SELECT * FROM centers WHERE id_key = ?").get(normalizeId(id)) as CenterRow | undefined;
}

function pageInfo(total: number, page: number, size: number) {
  return { total, page, size };
}

export function mountCatalog(router: Router, db: SandboxDb, options: { tenant: TenantProfile }) {
  router.get("/v1/centers", (req, res) => {
    const paging = readPaging(req, res);
    if (!paging) return;
    const withHours = expands(req).has("working_hours");
    const total = (db.prepare("SELECT COUNT(*) AS n FROM centers").get() as { n: number }).n;
    const rows = db
      .prepare("SELECT * FROM centers ORDER BY sort_order LIMIT ? OFFSET ?")
      .all(paging.size, (paging.page - 1) * paging.size) as CenterRow[];
    res.json({
      centers: rows.map((row) => centerInfo(row, withHours, options.tenant)),
      requested_centers: null,
      page_info: pageInfo(total, paging.page, paging.size),
      error: null,
    });
  });

  router.get("/v1/centers/:centerId", (req, res) => {
    const row = findCenter(db, req.params.centerId);
    if (!row) return dotNetError(res, 400, 502, "Invalid center_id");
    // The single-center read is thin in Zenoti: no location, no hours.
    res.json({
      center: {
        id: row.id,
        name: row.name,
        code: row.code,
        phone: row.phone,
        time_zone_id: row.time_zone_id,
        currency_id: USD,
        email: row.email,
      },
      error: null,
    });
  });

  router.get("/v1/centers/:centerId/therapists", (req, res) => {
    const center = findCenter(db, req.params.centerId);
    if (!center) return v1Error(res, 200, 502, "Invalid center_id", { therapists: null });
    const rows = db
      .prepare("SELECT * FROM therapists WHERE center_id = ? ORDER BY code")
      .all(center.id) as TherapistRow[];
    res.json({
      therapists: rows.map((t) => ({
        id: t.id,
        code: t.code,
        personal_info: {
          first_name: t.first_name,
          last_name: t.last_name,
          name: `${t.first_name} ${t.last_name}`,
          nick_name: t.first_name,
          gender: t.gender,
        },
        job_info: { id: seedGuid(`job:${t.job_name}`), name: t.job_name },
      })),
      error: null,
    });
  });

  router.get("/v1/centers/:centerId/services", (req, res) => {
    const center = findCenter(db, req.params.centerId);
    if (!center) return v1Error(res, 200, 502, "Invalid center_id", { services: null, page_info: null });
    const paging = readPaging(req, res);
    if (!paging) return;
    const expand = expands(req);
    const total = (
      db.prepare("SELECT COUNT(*) AS n FROM center_services WHERE center_id = ?").get(center.id) as { n: number }
    ).n;
    const rows = db
      .prepare(
        `SELECT s.*, cs.sale_price FROM services s JOIN center_services cs ON cs.service_id = s.id
         WHERE cs.center_id = ? ORDER BY s.display_order LIMIT ? OFFSET ?`,
      )
      .all(center.id, paging.size, (paging.page - 1) * paging.size) as ServiceRow[];
    const byCode = new Map(
      (db.prepare("SELECT id, code, name FROM services").all() as { id: string; code: string; name: string }[]).map(
        (s) => [s.code, s],
      ),
    );
    res.json({
      services: rows.map((s) => {
        const addOnCodes = JSON.parse(s.add_on_codes) as string[];
        return {
          id: s.id,
          code: s.code,
          name: s.name,
          description: s.description,
          duration: s.duration,
          recovery_time: s.recovery_time,
          is_couple_service: false,
          price_info: {
            currency_id: USD,
            sale_price: s.sale_price,
            tax_id: "",
            ssg: 0,
            include_tax: true,
            demand_group_id: "",
            tax: 0,
            price_without_tax: s.sale_price,
            final_price: s.sale_price,
          },
          additional_info: expand.has("additional_info")
            ? {
                html_description: `<p>${s.description}</p>`,
                category: { id: seedGuid(`category:${s.category_name}`), name: s.category_name },
                sub_category: s.sub_category_name
                  ? { id: seedGuid(`sub:${s.sub_category_name}`), name: s.sub_category_name }
                  : null,
                bussiness_unit: { id: seedGuid("bu:clinic"), name: "Clinic" },
              }
            : null,
          catalog_info: expand.has("catalog_info")
            ? {
                show_in_catalog: true,
                can_book: true,
                show_price: true,
                display_name: "",
                display_price: "",
                display_order: String(s.display_order),
                video_url: "",
              }
            : null,
          variants_info: expand.has("variants_info") ? { is_variant: false, has_variant: false } : null,
          add_ons_info: expand.has("add_ons_info")
            ? {
                is_add_on: s.is_add_on === 1,
                has_add_ons: addOnCodes.length > 0,
                add_ons_list: addOnCodes
                  .map((code) => byCode.get(code))
                  .filter(Boolean)
                  .map((a) => ({ id: a!.id, name: a!.name })),
              }
            : null,
          // Filled only when asked for, as every expand block is; a service without a picture stays null.
          image_paths: expand.has("image_paths") ? pictureAddress(req, s.category_name) : null,
          parallel_groups: null,
          parallel_service_groups: null,
          prerequisites_info: null,
          finishing_services_info: null,
        };
      }),
      page_info: pageInfo(total, paging.page, paging.size),
      error: null,
    });
  });
}
