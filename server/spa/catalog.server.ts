import { z } from "zod";
import { list, optional, text } from "./lenient.server";
import {
  centerSlug,
  type CenterList,
  type ClinicWithoutTimeZone,
  type Service,
  type Therapist,
  type WorkingDay,
} from "~/domain/catalog";
import { centsFromDollars } from "~/domain/money";
import { logger } from "../observability/logger.server";
import { SpaError } from "./errors.server";
import type { SpaHttp } from "./http.server";
import {
  NO_TIME_ZONE_SETTINGS,
  resolveCenterTimeZone,
  zoneFromNames,
  zoneIdOf,
  type TimeZoneSettings,
} from "./time-zones.server";

export const PAGE_SIZE = 100;

/**
 * Lenient reading (decision 015). Zenoti's element shapes are only partly public, and one list
 * answers for every clinic or every service: a strict schema would turn one odd element into an
 * error page for all. So the envelope only needs its list, each element is parsed on its own, an
 * element without what we cannot do without (an id, a name, a duration) is dropped and logged,
 * and an optional block of the wrong shape reads as absent.
 */
const PageInfoSchema = optional(z.object({ total: z.number() }));

const CenterInfoSchema = z.object({
  id: z.string().min(1),
  code: text,
  name: z.string(),
  display_name: text,
  description: text,
  state: optional(z.object({ code: text, short_name: text })),
  // Zenoti's "lattitude" spelling, and the correct one, are both read.
  location: optional(
    z.object({
      lattitude: optional(z.number()),
      latitude: optional(z.number()),
      longitude: optional(z.number()),
      time_zone: optional(
        z.object({
          id: optional(z.union([z.number(), z.string()])),
          name: text,
          standard_name: text,
          identifier_name: text,
          abbreviation: text,
        }),
      ),
    }),
  ),
  address_info: optional(z.object({ address_1: text, address_2: text, city: text, zip_code: text })),
  contact_info: optional(z.object({ phone_1: optional(z.object({ number: text })), email: text })),
  working_hours: optional(z.array(z.unknown())),
});

const CentersResponseSchema = z.object({ centers: list, page_info: PageInfoSchema });

/**
 * A catalog picture's address. Zenoti's reference types `image_paths` as a string and publishes no
 * filled sample: a string is read, and so is a list (its first address); anything else reads as
 * none, never as a broken element (decision 060).
 */
const imageAddress = optional(
  z.union([
    z.string(),
    z
      .array(z.unknown())
      .transform((items) => items.find((item): item is string => typeof item === "string" && item.trim() !== "")),
  ]),
);

const TherapistSchema = z.object({
  id: z.string().min(1),
  // The employee record's picture (Zenoti's employee samples); whether the therapist list carries it is not published.
  vanity_image_url: imageAddress,
  personal_info: optional(z.object({ first_name: text, last_name: text, name: text, nick_name: text })),
  job_info: optional(z.object({ name: text })),
});

const TherapistsResponseSchema = z.object({ therapists: list });

const ServiceSchema = z.object({
  id: z.string().min(1),
  code: text,
  name: z.string(),
  description: text,
  duration: z.number().nonnegative(),
  recovery_time: optional(z.number()),
  price_info: optional(z.object({ sale_price: z.number(), final_price: optional(z.number()) })),
  additional_info: optional(
    z.object({
      html_description: text,
      category: optional(z.object({ name: z.string() })),
      sub_category: optional(z.object({ name: z.string() })),
    }),
  ),
  catalog_info: optional(
    z.object({ show_in_catalog: optional(z.boolean()), can_book: optional(z.boolean()), display_name: text }),
  ),
  add_ons_info: optional(z.object({ is_add_on: optional(z.boolean()), add_ons_list: optional(z.array(z.unknown())) })),
  image_paths: imageAddress,
});

const ServicesResponseSchema = z.object({ services: list, page_info: PageInfoSchema });

const OneCenterResponseSchema = z.object({ center: z.object({ id: z.string(), name: z.string() }) });

/** Where the first problem is, never the value: the logs must not carry anyone's data. */
function reasonOf(error: z.ZodError): string {
  const issue = error.issues[0];
  return `${issue.path.join(".") || "(element)"}: ${issue.code}`;
}

function idOf(raw: unknown): string | null {
  const id = (raw as { id?: unknown } | null)?.id;
  return typeof id === "string" ? id : null;
}

/** Parses each element on its own; a bad one is logged by id and reason and left out. */
export function parseEach<T>(
  items: unknown[],
  schema: z.ZodType<T>,
  kind: string,
  context: Record<string, string> = {},
): T[] {
  const parsed: T[] = [];
  for (const item of items) {
    const result = schema.safeParse(item);
    if (result.success) parsed.push(result.data);
    else logger.warn("spa catalog entry dropped", { kind, id: idOf(item), reason: reasonOf(result.error), ...context });
  }
  return parsed;
}

const DAY_NAMES = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];

/** 0 = Sunday, as .NET counts; a day name or its first three letters are read too. */
export function readDayOfWeek(value: unknown): number | null {
  if (typeof value === "number") return Number.isInteger(value) && value >= 0 && value <= 6 ? value : null;
  if (typeof value !== "string") return null;
  const word = value.trim().toLowerCase();
  if (/^[0-6]$/.test(word)) return Number(word);
  const index = word.length >= 3 ? DAY_NAMES.findIndex((day) => day.startsWith(word)) : -1;
  return index >= 0 ? index : null;
}

/**
 * "09:00", "9:00:00", "2020-01-01T09:00:00" or "9:00 AM" as "09:00"; also the one form Zenoti
 * publishes, hours times 100 plus minutes ("800", "0800", "2200", or the number 800); null when
 * unreadable.
 */
export function readClockTime(value: unknown): string | null {
  const written = typeof value === "number" && Number.isInteger(value) && value >= 0 ? String(value) : value;
  if (typeof written !== "string") return null;
  const trimmed = written.trim();
  const hhmm = /^\d{1,4}$/.test(trimmed) ? /^(\d{2})(\d{2})$/.exec(trimmed.padStart(4, "0")) : null;
  const match = hhmm ?? /(?:^|T|\s)(\d{1,2}):(\d{2})(?::\d{2}(?:\.\d+)?)?\s*(am|pm)?\s*$/i.exec(trimmed);
  if (!match) return null;
  let hours = Number(match[1]);
  const minutes = Number(match[2]);
  const meridiem = match[3]?.toLowerCase();
  if (meridiem) {
    if (hours < 1 || hours > 12) return null;
    hours = (hours % 12) + (meridiem === "pm" ? 12 : 0);
  }
  if (hours > 24 || minutes > 59 || (hours === 24 && minutes > 0)) return null;
  return `${String(hours).padStart(2, "0")}:${String(minutes).padStart(2, "0")}`;
}

type DayHours = { dayOfWeek: number; opens: string | null; closes: string | null };

/** One working_hours entry; null (and logged) when its day or its open hours cannot be read. */
function readWorkingDay(raw: unknown, centerId: string): DayHours | null {
  const entry = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
  const dayOfWeek = readDayOfWeek(entry.day_of_week ?? entry.day);
  const drop = (reason: string) => {
    logger.warn("spa working day dropped", { kind: "working_hours", id: centerId, reason });
    return null;
  };
  if (dayOfWeek === null) return drop("day_of_week unreadable");
  if (entry.is_closed === true) return { dayOfWeek, opens: null, closes: null };
  const opens = readClockTime(entry.start_time);
  const closes = readClockTime(entry.end_time);
  if (entry.start_time == null && entry.end_time == null) return { dayOfWeek, opens: null, closes: null };
  if (!opens || !closes || closes <= opens) return drop("start_time or end_time unreadable");
  return { dayOfWeek, opens, closes };
}

/** A day with no readable entry is shown closed; the clinic stays. */
function toWorkingHours(rows: unknown[] | null | undefined, centerId: string): WorkingDay[] {
  const days = (rows ?? []).map((row) => readWorkingDay(row, centerId)).filter((day) => day !== null);
  return Array.from(
    { length: 7 },
    (_, dayOfWeek) => days.find((d) => d.dayOfWeek === dayOfWeek) ?? { dayOfWeek, opens: null, closes: null },
  );
}

type CenterInfo = z.infer<typeof CenterInfoSchema>;

function toClinic(info: CenterInfo): ClinicWithoutTimeZone {
  const name = info.display_name || info.name;
  return {
    id: info.id.toLowerCase(),
    code: info.code ?? "",
    name,
    slug: centerSlug(name),
    description: info.description ?? "",
    address: {
      line1: info.address_info?.address_1 ?? "",
      line2: info.address_info?.address_2 ?? null,
      city: info.address_info?.city ?? "",
      state: info.state?.short_name ?? info.state?.code ?? "",
      zip: info.address_info?.zip_code ?? "",
    },
    phone: info.contact_info?.phone_1?.number ?? "",
    email: info.contact_info?.email ?? "",
    latitude: info.location?.lattitude ?? info.location?.latitude ?? 0,
    longitude: info.location?.longitude ?? 0,
    zoneId: zoneIdOf(info.location?.time_zone),
    workingHours: toWorkingHours(info.working_hours, info.id),
  };
}

/**
 * Each center with its zone resolved (decision 035). A center no setting, name or sibling resolves
 * is kept apart, logged with what to set: its pages say online booking is unavailable, rather than
 * show times in a zone it may not be in.
 */
export function toCenterList(infos: CenterInfo[], settings: TimeZoneSettings = NO_TIME_ZONE_SETTINGS): CenterList {
  // A zone id one center names stands for the same zone at the others: Zenoti's ids are its own global table.
  const learned = new Map<number, string>();
  for (const info of infos) {
    const id = zoneIdOf(info.location?.time_zone);
    const named = zoneFromNames(info.location?.time_zone);
    if (id !== null && named && !learned.has(id)) learned.set(id, named);
  }
  const list: CenterList = { centers: [], withoutTimeZone: [] };
  for (const info of infos) {
    const clinic = toClinic(info);
    const zone = resolveCenterTimeZone(clinic.id, info.location?.time_zone, settings, learned);
    if (zone) {
      const { zoneId: _zoneId, ...rest } = clinic;
      list.centers.push({ ...rest, timeZone: zone.timeZone });
    } else {
      logger.error("clinic refused: its time zone is unknown", {
        center: clinic.id,
        name: clinic.name,
        zoneId: clinic.zoneId,
        fix:
          clinic.zoneId === null
            ? `set SPA_CENTER_TIME_ZONES=${clinic.id}=<IANA zone>`
            : `set SPA_TIME_ZONE_IDS=${clinic.zoneId}=<IANA zone> or SPA_CENTER_TIME_ZONES=${clinic.id}=<IANA zone>`,
      });
      list.withoutTimeZone.push(clinic);
    }
  }
  return list;
}

/** An add-on entry is `{ id }`; a bare id string is read too. Others are dropped. */
const AddOnEntrySchema = z.union([
  z.string().min(1),
  z.object({ id: z.string().min(1) }).transform((entry) => entry.id),
]);

function toService(raw: z.infer<typeof ServiceSchema>): Service {
  const addOns = parseEach(raw.add_ons_info?.add_ons_list ?? [], AddOnEntrySchema, "add_on", { service: raw.id });
  return {
    id: raw.id.toLowerCase(),
    code: raw.code ?? "",
    name: raw.name,
    displayName: raw.catalog_info?.display_name || raw.name.replace(/\s*\(addon\)\s*/i, " ").trim(),
    description: raw.description ?? "",
    category: raw.additional_info?.category?.name ?? "",
    subCategory: raw.additional_info?.sub_category?.name ?? null,
    durationMinutes: raw.duration,
    recoveryMinutes: raw.recovery_time ?? 0,
    price: centsFromDollars(raw.price_info?.sale_price ?? 0),
    isAddOn: raw.add_ons_info?.is_add_on ?? false,
    addOnIds: addOns.map((id) => id.toLowerCase()),
    canBook: (raw.catalog_info?.show_in_catalog ?? true) && (raw.catalog_info?.can_book ?? true),
    imageUrl: raw.image_paths?.trim() || null,
  };
}

function toTherapist(raw: z.infer<typeof TherapistSchema>): Therapist {
  const first = raw.personal_info?.first_name ?? "";
  const last = raw.personal_info?.last_name ?? "";
  return {
    id: raw.id.toLowerCase(),
    firstName: first,
    lastName: last,
    displayName: raw.personal_info?.name || `${first} ${last}`.trim(),
    jobTitle: raw.job_info?.name ?? "",
    imageUrl: raw.vanity_image_url?.trim() || null,
  };
}

/** Reads every page of a paged list; Zenoti pages at 100 items at most. */
export async function readAllPages<T>(
  readPage: (page: number) => Promise<{ items: T[]; total: number | null }>,
): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; page <= 50; page++) {
    const result = await readPage(page);
    items.push(...result.items);
    if (result.items.length < PAGE_SIZE || (result.total !== null && items.length >= result.total)) break;
  }
  return items;
}

/** Zenoti's code for an unknown center id. */
const INVALID_CENTER = 502;

export function isInvalidCenter(error: unknown): boolean {
  return error instanceof SpaError && (error.code === INVALID_CENTER || error.code === String(INVALID_CENTER));
}

export function catalogCalls(http: SpaHttp, options: { timeZones?: TimeZoneSettings } = {}) {
  return {
    /** Every center, those whose time zone is known apart from those whose zone no one has named. */
    async listCenters(): Promise<CenterList> {
      const centers = await readAllPages(async (page) => {
        const body = await http.request({
          method: "GET",
          path: "/v1/centers",
          query: { catalog_enabled: false, expand: "working_hours", page, size: PAGE_SIZE },
          schema: CentersResponseSchema,
        });
        return { items: body.centers, total: body.page_info?.total ?? null };
      });
      return toCenterList(parseEach(centers, CenterInfoSchema, "center"), options.timeZones);
    },

    /** The thin single-center read; null for an unknown id. */
    async centerExists(centerId: string): Promise<boolean> {
      try {
        await http.request({
          method: "GET",
          path: `/v1/Centers/${encodeURIComponent(centerId)}`,
          schema: OneCenterResponseSchema,
        });
        return true;
      } catch (error) {
        if (isInvalidCenter(error)) return false;
        throw error;
      }
    },

    /** Null for an unknown center. */
    async listTherapists(centerId: string): Promise<Therapist[] | null> {
      try {
        const body = await http.request({
          method: "GET",
          path: `/v1/centers/${encodeURIComponent(centerId)}/therapists`,
          schema: TherapistsResponseSchema,
        });
        return parseEach(body.therapists, TherapistSchema, "therapist", { center: centerId }).map(toTherapist);
      } catch (error) {
        if (isInvalidCenter(error)) return null;
        throw error;
      }
    },

    /** Bookable services with their prices at this center; null for an unknown center. */
    async listServices(centerId: string): Promise<Service[] | null> {
      try {
        const services = await readAllPages(async (page) => {
          const body = await http.request({
            method: "GET",
            path: `/v1/Centers/${encodeURIComponent(centerId)}/services`,
            query: {
              expand: ["catalog_info", "additional_info", "add_ons_info", "image_paths"],
              page,
              size: PAGE_SIZE,
            },
            schema: ServicesResponseSchema,
          });
          return { items: body.services, total: body.page_info?.total ?? null };
        });
        return parseEach(services, ServiceSchema, "service", { center: centerId })
          .map(toService)
          .filter((s) => s.canBook);
      } catch (error) {
        if (isInvalidCenter(error)) return null;
        throw error;
      }
    },
  };
}

export type CatalogCalls = ReturnType<typeof catalogCalls>;
