import { z } from "zod";
import { centerSlug, type Center, type Service, type Therapist, type WorkingDay } from "~/domain/catalog";
import { centsFromDollars } from "~/domain/money";
import { SpaError } from "./errors.server";
import type { SpaHttp } from "./http.server";
import { toIanaTimeZone } from "./time-zones.server";

const PAGE_SIZE = 100;

const PageInfoSchema = z.object({ total: z.number(), page: z.number(), size: z.number() }).nullish();

const WorkingHourSchema = z.object({
  day_of_week: z.number().int().min(0).max(6),
  start_time: z.string().nullish(),
  end_time: z.string().nullish(),
  is_closed: z.boolean().nullish(),
});

const CenterInfoSchema = z.object({
  id: z.string(),
  code: z.string().nullish(),
  name: z.string(),
  display_name: z.string().nullish(),
  description: z.string().nullish(),
  state: z.object({ code: z.string().nullish(), short_name: z.string().nullish() }).nullish(),
  // Zenoti's "lattitude" spelling, and the correct one, are both read.
  location: z
    .object({
      lattitude: z.number().nullish(),
      latitude: z.number().nullish(),
      longitude: z.number().nullish(),
      time_zone: z.object({ name: z.string().nullish(), standard_name: z.string().nullish() }).nullish(),
    })
    .nullish(),
  address_info: z
    .object({ address_1: z.string().nullish(), address_2: z.string().nullish(), city: z.string().nullish(), zip_code: z.string().nullish() })
    .nullish(),
  contact_info: z
    .object({ phone_1: z.object({ number: z.string().nullish() }).nullish(), email: z.string().nullish() })
    .nullish(),
  working_hours: z.array(WorkingHourSchema).nullish(),
});

const CentersResponseSchema = z.object({ centers: z.array(CenterInfoSchema), page_info: PageInfoSchema });

const TherapistsResponseSchema = z.object({
  therapists: z.array(
    z.object({
      id: z.string(),
      personal_info: z.object({
        first_name: z.string().nullish(),
        last_name: z.string().nullish(),
        name: z.string().nullish(),
        nick_name: z.string().nullish(),
      }),
      job_info: z.object({ name: z.string().nullish() }).nullish(),
    }),
  ),
});

const ServiceSchema = z.object({
  id: z.string(),
  code: z.string().nullish(),
  name: z.string(),
  description: z.string().nullish(),
  duration: z.number(),
  recovery_time: z.number().nullish(),
  price_info: z.object({ sale_price: z.number(), final_price: z.number().nullish() }).nullish(),
  additional_info: z
    .object({
      html_description: z.string().nullish(),
      category: z.object({ name: z.string() }).nullish(),
      sub_category: z.object({ name: z.string() }).nullish(),
    })
    .nullish(),
  catalog_info: z
    .object({ show_in_catalog: z.boolean().nullish(), can_book: z.boolean().nullish(), display_name: z.string().nullish() })
    .nullish(),
  add_ons_info: z
    .object({ is_add_on: z.boolean().nullish(), add_ons_list: z.array(z.object({ id: z.string() })).nullish() })
    .nullish(),
});

const ServicesResponseSchema = z.object({ services: z.array(ServiceSchema), page_info: PageInfoSchema });

const OneCenterResponseSchema = z.object({ center: z.object({ id: z.string(), name: z.string() }) });

function toWorkingHours(rows: z.infer<typeof WorkingHourSchema>[] | null | undefined): WorkingDay[] {
  return Array.from({ length: 7 }, (_, dayOfWeek) => {
    const row = rows?.find((r) => r.day_of_week === dayOfWeek);
    if (!row || row.is_closed || !row.start_time || !row.end_time) return { dayOfWeek, opens: null, closes: null };
    return { dayOfWeek, opens: row.start_time.slice(0, 5), closes: row.end_time.slice(0, 5) };
  });
}

function toCenter(info: z.infer<typeof CenterInfoSchema>): Center {
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
    timeZone: toIanaTimeZone(info.location?.time_zone?.standard_name ?? info.location?.time_zone?.name),
    workingHours: toWorkingHours(info.working_hours),
  };
}

function toService(raw: z.infer<typeof ServiceSchema>): Service {
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
    addOnIds: (raw.add_ons_info?.add_ons_list ?? []).map((a) => a.id.toLowerCase()),
    canBook: (raw.catalog_info?.show_in_catalog ?? true) && (raw.catalog_info?.can_book ?? true),
  };
}

function toTherapist(raw: z.infer<typeof TherapistsResponseSchema>["therapists"][number]): Therapist {
  const first = raw.personal_info.first_name ?? "";
  const last = raw.personal_info.last_name ?? "";
  return {
    id: raw.id.toLowerCase(),
    firstName: first,
    lastName: last,
    displayName: raw.personal_info.name || `${first} ${last}`.trim(),
    jobTitle: raw.job_info?.name ?? "",
  };
}

/** Reads every page of a paged list; Zenoti pages at 100 items at most. */
async function readAllPages<T>(readPage: (page: number) => Promise<{ items: T[]; total: number | null }>): Promise<T[]> {
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

function isInvalidCenter(error: unknown): boolean {
  return error instanceof SpaError && (error.code === INVALID_CENTER || error.code === String(INVALID_CENTER));
}

export function catalogCalls(http: SpaHttp) {
  return {
    async listCenters(): Promise<Center[]> {
      const centers = await readAllPages(async (page) => {
        const body = await http.request({
          method: "GET",
          path: "/v1/centers",
          query: { catalog_enabled: false, expand: "working_hours", page, size: PAGE_SIZE },
          schema: CentersResponseSchema,
        });
        return { items: body.centers, total: body.page_info?.total ?? null };
      });
      return centers.map(toCenter);
    },

    /** The thin single-center read; null for an unknown id. */
    async centerExists(centerId: string): Promise<boolean> {
      try {
        await http.request({ method: "GET", path: `/v1/Centers/${encodeURIComponent(centerId)}`, schema: OneCenterResponseSchema });
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
        return body.therapists.map(toTherapist);
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
            query: { expand: ["catalog_info", "additional_info", "add_ons_info"], page, size: PAGE_SIZE },
            schema: ServicesResponseSchema,
          });
          return { items: body.services, total: body.page_info?.total ?? null };
        });
        return services.map(toService).filter((s) => s.canBook);
      } catch (error) {
        if (isInvalidCenter(error)) return null;
        throw error;
      }
    },
  };
}

export type CatalogCalls = ReturnType<typeof catalogCalls>;
