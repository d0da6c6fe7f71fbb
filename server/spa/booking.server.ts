import { z } from "zod";
import { centsFromDollars, type Cents } from "~/domain/money";
import { isRealDate } from "~/domain/booking";
import { logger } from "../observability/logger.server";
import { parseEach } from "./catalog.server";
import { SpaError } from "./errors.server";
import type { SpaHttp } from "./http.server";
import { clinicInstant, clinicLocal, parseZenotiTime } from "./local-time.server";

/**
 * One of Zenoti's clinic times, "2026-12-01T09:30:00", read leniently (seconds, fractions and an
 * offset are accepted) so that a format detail never turns a booking into an error page.
 */
const LocalTime = z.string().refine((value) => parseZenotiTime(value) !== null, "Expected a date and time");

const GuestSchema = z.object({
  id: z.string(),
  center_id: z.string().nullish(),
  personal_info: z.object({
    first_name: z.string().nullish(),
    last_name: z.string().nullish(),
    email: z.string().nullish(),
    mobile_phone: z.object({ number: z.string().nullish() }).nullish(),
    // Read leniently: a value we cannot use is "not known", never an error page.
    gender: z.number().int().nullish().catch(null),
    date_of_birth: z.string().nullish().catch(null),
  }),
  address_info: z
    .object({ address_1: z.string().nullish(), city: z.string().nullish(), zip_code: z.string().nullish() })
    .nullish(),
  preferences: z
    .object({
      receive_marketing_email: z.boolean().nullish(),
      receive_marketing_sms: z.boolean().nullish(),
      receive_transactional_email: z.boolean().nullish(),
      receive_transactional_sms: z.boolean().nullish(),
      culture_id: z.number().int().nullish().catch(null),
    })
    .nullish(),
});

export type SpaGuest = {
  id: string;
  centerId: string;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  address: { line1: string; city: string; zip: string } | null;
  /** Null when the back end holds no consent record for the guest. */
  consents: {
    marketingEmail: boolean;
    marketingSms: boolean;
    transactionalEmail: boolean;
    transactionalSms: boolean;
  } | null;
  /** YYYY-MM-DD; null when none is on file (Zenoti's empty date, 0001-01-01). */
  birthDate: string | null;
  /** Zenoti's guest gender: 1 Male, 0 Female, -1 Not specified, 3 Other; null when not sent. */
  gender: number | null;
  /** The guest's language as Zenoti numbers it (`preferences.culture_id`, decision 043); null when none is on file. */
  language: number | null;
};

/** A language on file: Zenoti's culture ids are positive; nothing else is a language. */
function languageOf(cultureId: number | null | undefined): number | null {
  return cultureId && cultureId > 0 ? cultureId : null;
}

/** Zenoti's date of birth as a day, or null for its empty date and anything that is not a date. */
function birthDateOf(value: string | null | undefined): string | null {
  const day = value?.slice(0, 10) ?? "";
  return /^\d{4}-\d{2}-\d{2}$/.test(day) && !day.startsWith("0001-") ? day : null;
}

function toGuest(raw: z.infer<typeof GuestSchema>): SpaGuest {
  const p = raw.preferences;
  return {
    id: raw.id.toLowerCase(),
    centerId: raw.center_id?.toLowerCase() ?? "",
    firstName: raw.personal_info.first_name ?? "",
    lastName: raw.personal_info.last_name ?? "",
    email: raw.personal_info.email ?? null,
    phone: raw.personal_info.mobile_phone?.number || null,
    address: raw.address_info
      ? {
          line1: raw.address_info.address_1 ?? "",
          city: raw.address_info.city ?? "",
          zip: raw.address_info.zip_code ?? "",
        }
      : null,
    consents: p
      ? {
          marketingEmail: p.receive_marketing_email ?? false,
          marketingSms: p.receive_marketing_sms ?? false,
          transactionalEmail: p.receive_transactional_email ?? true,
          transactionalSms: p.receive_transactional_sms ?? true,
        }
      : null,
    birthDate: birthDateOf(raw.personal_info.date_of_birth),
    gender: raw.personal_info.gender ?? null,
    language: languageOf(p?.culture_id),
  };
}

/** A guest to create: what we know of them, in our terms. */
export type NewGuest = {
  centerId: string;
  firstName: string;
  lastName: string;
  /** The organisation may make both mandatory (Zenoti's code 481); we always send the customer's own. */
  email: string;
  phone: string;
  address?: { line1: string; city: string; zip: string };
  consents: { marketingEmail: boolean; marketingSms: boolean; transactionalEmail: boolean; transactionalSms: boolean };
  tags: string[];
  /** YYYY-MM-DD as the guest gave it; left out when they gave none (Zenoti then files its empty date). */
  birthDate?: string | null;
  /** Zenoti's guest gender; left out when not given. */
  gender?: number | null;
  /** The guest's language (Zenoti's culture id); left out when they chose none. */
  language?: number | null;
  /**
   * The GUID of one of the organisation's configured referral sources (SPA_REFERRAL_SOURCE_ID),
   * never the code a customer typed: Zenoti knows sources by id, not referral codes.
   */
  referralSourceId?: string | null;
  /**
   * The guest who referred this one (a referral code's owner): Zenoti's referral programme needs it
   * at creation, as it cannot be added to a profile afterwards.
   */
  referredByGuestId?: string | null;
};

/** The one place a guest create payload (the spec's registration) is built. */
export function guestCreatePayload(guest: NewGuest): GuestRegistration {
  const language = languageOf(guest.language);
  return {
    center_id: guest.centerId,
    personal_info: {
      first_name: guest.firstName,
      last_name: guest.lastName,
      user_name: guest.email,
      email: guest.email,
      // Only the guest's own birth date: Zenoti takes a guest without one (decision 039).
      ...(guest.birthDate ? { date_of_birth: guest.birthDate } : {}),
      ...(guest.gender === undefined || guest.gender === null ? {} : { gender: guest.gender }),
      mobile_phone: { country_code: 225, number: guest.phone },
    },
    ...(guest.address
      ? {
          address_info: {
            address_1: guest.address.line1,
            address_2: "",
            city: guest.address.city,
            country_id: 225,
            state_id: -1,
            state_other: "",
            zip_code: guest.address.zip,
          },
        }
      : {}),
    preferences: {
      receive_marketing_email: guest.consents.marketingEmail,
      receive_marketing_sms: guest.consents.marketingSms,
      receive_transactional_email: guest.consents.transactionalEmail,
      receive_transactional_sms: guest.consents.transactionalSms,
      // Where Zenoti keeps a guest's language (decision 043); only one the guest chose.
      ...(language ? { culture_id: language } : {}),
    },
    tags: guest.tags,
    ...(guest.referralSourceId || guest.referredByGuestId
      ? {
          referral: {
            ...(guest.referralSourceId ? { referral_source: { id: guest.referralSourceId } } : {}),
            ...(guest.referredByGuestId ? { referred_by: { id: guest.referredByGuestId } } : {}),
          },
        }
      : {}),
  };
}

/** The spec's guest registration payload. */
type GuestRegistration = {
  center_id: string;
  personal_info: {
    first_name: string;
    last_name: string;
    user_name: string;
    email: string;
    date_of_birth?: string;
    gender?: number;
    mobile_phone: { country_code: number; number: string };
  };
  address_info?: {
    address_1: string;
    address_2: string;
    city: string;
    country_id: number;
    state_id: number;
    state_other: string;
    zip_code: string;
  };
  preferences: {
    receive_marketing_email: boolean;
    receive_marketing_sms: boolean;
    receive_transactional_email: boolean;
    receive_transactional_sms: boolean;
    culture_id?: number;
  };
  tags: string[];
  referral?: { referral_source?: { id: string }; referred_by?: { id: string } } | null;
};

/** What a profile save changes; everything else the back end holds about the guest is kept. */
export type GuestChange = Partial<{
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  address: { line1: string; city: string; zip: string };
  consents: Partial<{ marketingEmail: boolean; marketingSms: boolean }>;
  /** Added to the guest's tags; tags set by staff stay. */
  addTags: string[];
  /** YYYY-MM-DD; a birth date on file stays when none is given. */
  birthDate: string;
  gender: number;
  /** The guest's language (Zenoti's culture id); a language on file stays when none is given. */
  language: number;
}>;

/**
 * The parts of a guest Zenoti sends only when asked for with `expand` ("Guest object supports
 * multiple parameters like tags, referrals, address_info, preferences ... Pass the required parameters
 * using expand query parameter to include the same in the response"); without them `preferences`
 * may be null and the guest's consents unknown.
 */
const GUEST_PARTS = ["address_info", "preferences", "tags", "referral"];

/** The guest as the back end sends it, unknown fields included, so an update can send them back. */
const RawGuestSchema = z.looseObject({
  center_id: z.string().nullish(),
  personal_info: z.looseObject({ mobile_phone: z.looseObject({}).nullish() }),
  address_info: z.looseObject({}).nullish(),
  preferences: z.looseObject({}).nullish(),
  tags: z.array(z.string()).nullish(),
});
type RawGuest = z.infer<typeof RawGuestSchema>;

/**
 * The whole profile for Zenoti's update, which replaces rather than patches: what was read, with
 * the change on top. Tags, a birthday, gender or language the change does not name, referral, other
 * phones and anything we do not know of survive a save.
 */
export function mergeGuestChange(current: RawGuest, change: GuestChange): Record<string, unknown> {
  const {
    id: _id,
    code: _code,
    error: _error,
    ...kept
  } = current as RawGuest & { id?: unknown; code?: unknown; error?: unknown };
  const personal = { ...current.personal_info };
  if (change.firstName !== undefined) personal.first_name = change.firstName;
  if (change.lastName !== undefined) personal.last_name = change.lastName;
  if (change.email !== undefined) Object.assign(personal, { email: change.email, user_name: change.email });
  if (change.phone !== undefined)
    personal.mobile_phone = { ...(current.personal_info.mobile_phone ?? {}), country_code: 225, number: change.phone };
  if (change.birthDate !== undefined) personal.date_of_birth = change.birthDate;
  if (change.gender !== undefined) personal.gender = change.gender;
  const address = change.address
    ? {
        country_id: 225,
        state_id: -1,
        address_2: "",
        ...(current.address_info ?? {}),
        address_1: change.address.line1,
        city: change.address.city,
        zip_code: change.address.zip,
      }
    : current.address_info;
  const consents = change.consents
    ? {
        receive_transactional_email: true,
        receive_transactional_sms: true,
        ...(current.preferences ?? {}),
        ...(change.consents.marketingEmail === undefined
          ? {}
          : { receive_marketing_email: change.consents.marketingEmail }),
        ...(change.consents.marketingSms === undefined ? {} : { receive_marketing_sms: change.consents.marketingSms }),
      }
    : current.preferences;
  // The language sits with the guest's preferences (decision 043); none given keeps the one on file.
  const language = languageOf(change.language);
  const preferences = language ? { ...(consents ?? {}), culture_id: language } : consents;
  const tags = [...new Set([...(current.tags ?? []), ...(change.addTags ?? [])])];
  return { ...kept, personal_info: personal, address_info: address ?? null, preferences: preferences ?? null, tags };
}

export type BookingRequest = {
  centerId: string;
  date: string;
  guestId: string;
  serviceId: string;
  therapistId: string | null;
  addOnIds: string[];
  /** Zenoti's reschedule: the booking carries the visit's invoice and its treatment's invoice line. */
  reschedule?: { invoiceId: string; invoiceItemId: string };
};

const SlotsSchema = z.object({
  slots: z.array(z.object({ Time: LocalTime, Available: z.boolean() })).nullish(),
  future_days: z.array(z.object({ Day: z.string(), IsAvailable: z.boolean() })).nullish(),
  next_available_day: z.string().nullish(),
});

export type SlotList = {
  times: string[];
  nextAvailableDay: string | null;
  /**
   * What the answer says of the other days of its week (Zenoti's `future_days`): whether each has
   * openings. A date strip marks the days without any from it, without a read per day.
   */
  weekDays?: { date: string; open: boolean }[];
};

/**
 * The open times of the requested day only. When that day has none Zenoti answers with times of
 * another day of the week: those are never listed under the requested day, and the first later
 * one names the next day with openings.
 */
export function slotsOfDay(body: z.infer<typeof SlotsSchema>, date: string): SlotList {
  const open = (body.slots ?? []).filter((s) => s.Available).map((s) => clinicLocal(s.Time)!);
  const laterDays = open
    .map((t) => t.slice(0, 10))
    .filter((day) => day > date)
    .sort();
  const named = body.next_available_day?.slice(0, 10);
  return {
    times: open.filter((t) => t.slice(0, 10) === date),
    nextAvailableDay: laterDays[0] ?? (named && named > date ? named : null),
    weekDays: (body.future_days ?? [])
      .map((d) => ({ date: d.Day.slice(0, 10), open: d.IsAvailable }))
      .filter((d) => d.date !== date && isRealDate(d.date)),
  };
}

/** How long a hold lasts when Zenoti does not say (it answers its expiry_time; this is a fallback). */
export const DEFAULT_HOLD_MS = 5 * 60_000;

const ReserveSchema = z.object({
  is_reserved: z.boolean(),
  reservation_id: z.string().nullish(),
  expiry_time: z.string().nullish(),
});

const ConfirmSchema = z.object({
  is_confirmed: z.boolean(),
  invoice: z
    .object({
      invoice_id: z.string(),
      items: z.array(
        z.object({
          appointment_id: z.string(),
          invoice_item_id: z.string(),
          item: z.object({ id: z.string(), name: z.string() }),
          therapist: z.object({ id: z.string().nullish(), full_name: z.string().nullish() }).nullish(),
          start_time: LocalTime,
          end_time: LocalTime,
        }),
      ),
    })
    .nullish(),
});

export type ConfirmedBooking = {
  invoiceId: string;
  items: {
    appointmentId: string;
    invoiceItemId: string;
    serviceId: string;
    serviceName: string;
    therapistName: string;
    start: string;
    end: string;
  }[];
};

/**
 * A guest's saved cards come in two shapes: a bare array (docs.zenoti.com's current reference) or
 * `{ accounts, has_expired_cards, error }` (what public code that calls Zenoti reads). Either way
 * the list is read card by card: a card we cannot use is dropped and logged, not the list.
 */
const CardsSchema = z.union([
  z.array(z.unknown()),
  z.object({ accounts: z.array(z.unknown()).nullable() }).transform((body) => body.accounts ?? []),
]);

const CardSchema = z.object({
  account_id: z.string().min(1),
  card_logo: z.string().nullish().catch(null),
  last_four: z.string().nullish().catch(null),
  expiry_on: z.string().nullish().catch(null),
  created_date_iso: z.string().nullish().catch(null),
});

export type SavedCard = {
  accountId: string;
  brand: string;
  lastFour: string;
  expiry: string;
  createdAt: string | null;
};

/**
 * One entry per card the guest has. The same account listed twice is one card; and a card saved
 * again on the hosted card page (each purchase and each booking that adds a card opens it) is a new
 * account of the same brand, last four digits and expiry: still one card, whose newest account is
 * kept (by `created_date_iso` when both have one, else the later in the list, the order Zenoti
 * lists them in). A card without its last four digits or expiry is told apart by its id only.
 * The kept entries stay in the order read, oldest first: the last is the card saved most recently.
 */
export function oneEntryPerCard(cards: SavedCard[]): SavedCard[] {
  const sameCard = (card: SavedCard) =>
    card.lastFour && card.expiry
      ? `card:${card.brand.trim().toLowerCase()}|${card.lastFour}|${card.expiry.trim()}`
      : `id:${card.accountId.toLowerCase()}`;
  const newer = (a: SavedCard, aAt: number, b: SavedCard, bAt: number) => {
    const [aTime, bTime] = [Date.parse(a.createdAt ?? ""), Date.parse(b.createdAt ?? "")];
    return Number.isFinite(aTime) && Number.isFinite(bTime) && aTime !== bTime ? aTime > bTime : aAt > bAt;
  };
  const keep = (key: (card: SavedCard) => string, list: SavedCard[]) => {
    const chosen = new Map<string, number>();
    list.forEach((card, at) => {
      const held = chosen.get(key(card));
      if (held === undefined || newer(card, at, list[held], held)) chosen.set(key(card), at);
    });
    return list.filter((card, at) => chosen.get(key(card)) === at);
  };
  return keep(
    sameCard,
    keep((card) => card.accountId.toLowerCase(), cards),
  );
}

const InvoiceSchema = z.object({
  invoice: z.object({
    id: z.string(),
    invoice_number: z.union([z.string(), z.number()]).nullish(),
    invoice_number_prefix: z.string().nullish(),
    is_closed: z.boolean().nullish(),
    invoice_dues: z.object({ total: z.number(), paid: z.number(), balance: z.number() }),
    invoice_items: z
      .array(
        z.object({
          invoice_item_id: z.string(),
          id: z.string(),
          name: z.string(),
          type: z.number().nullish(),
          price: z.object({ sales: z.number(), final: z.number(), discount: z.number().nullish() }),
        }),
      )
      .nullish(),
  }),
});

/** An invoice in cents; Zenoti's decimal dollars are converted when it is read. */
export type Invoice = {
  id: string;
  /** The number the clinic knows the invoice by, with its prefix ("CMEMGM117798"); null when none is given. */
  reference: string | null;
  /** Closed: paid and final (Zenoti's is_closed; false when it is not sent). */
  closed: boolean;
  total: Cents;
  paid: Cents;
  balance: Cents;
  /** `type` is Zenoti's item type (INVOICE_ITEM_TYPE in sales.server.ts: 0 service, 3 membership, 4 package, 6 gift card), null when not sent. */
  items: {
    invoiceItemId: string;
    serviceId: string;
    name: string;
    type: number | null;
    price: Cents;
    discount: Cents;
    final: Cents;
  }[];
};

/** Either a transaction (paid) or a hosted page (3-D Secure); an empty string counts as absent. */
const PaymentSchema = z.object({
  invoice_transaction_id: z.string().nullish(),
  hosted_payment_uri: z
    .url({ protocol: /^https?$/ })
    .or(z.literal(""))
    .nullish(),
});

export type PaymentResult = { kind: "paid"; transactionId: string } | { kind: "verify"; uri: string };

const AppointmentsSchema = z.object({
  appointments: z.array(
    z.object({
      appointment_group_id: z.string().nullish(),
      invoice_id: z.string().nullish(),
      center_id: z.string().nullish(),
      appointment_services: z.array(
        z.object({
          appointment_id: z.string(),
          invoice_item_id: z.string().nullish(),
          appointment_status: z.number(),
          start_time: LocalTime,
          end_time: LocalTime.nullish(),
          /** Not where Zenoti puts it (see service.duration); read when a back end sends it here. */
          duration: z.number().nullish(),
          service: z.object({
            id: z.string().nullish(),
            name: z.string(),
            display_name: z.string().nullish(),
            duration: z.number().nullish(),
            is_addon: z.boolean().nullish(),
          }),
          is_addon: z.boolean().nullish(),
          requested_therapist_id: z.string().nullish(),
          item_actions: z.string().nullish(),
        }),
      ),
    }),
  ),
  page_info: z.object({ total: z.number().nullish() }).nullish(),
});

/** Zenoti's way of saying "none" in an id field. */
const EMPTY_ID = /^0{8}-0{4}-0{4}-0{4}-0{12}$/;

/** One visit: the services booked together on one invoice, with their times on the clinic's clock. */
export type GuestAppointment = {
  /** Zenoti's appointment group; the invoice id when the back end leaves it out. */
  groupId: string | null;
  invoiceId: string | null;
  centerId: string | null;
  services: {
    appointmentId: string;
    invoiceItemId: string | null;
    serviceId: string | null;
    status: number;
    start: string;
    /** Null when the back end does not say. */
    end: string | null;
    durationMinutes: number;
    name: string;
    isAddOn: boolean;
    /** The nurse asked for, when the back end names one. */
    therapistId: string | null;
    /** Zenoti's item_actions text; it may carry a discount's name in parentheses. */
    itemActions: string;
  }[];
};

export type AppointmentQuery = {
  startDate?: string;
  endDate?: string;
  page?: number;
  size?: number;
  /** Cancelled and no-show visits too (Zenoti leaves them out unless asked). */
  includeNoShowCancel?: boolean;
};

function toGuestAppointment(a: z.infer<typeof AppointmentsSchema>["appointments"][number]): GuestAppointment {
  const lower = (id: string | null | undefined) => id?.toLowerCase() ?? null;
  return {
    groupId: lower(a.appointment_group_id) ?? lower(a.invoice_id),
    invoiceId: lower(a.invoice_id),
    centerId: lower(a.center_id),
    services: a.appointment_services.map((s) => ({
      appointmentId: s.appointment_id.toLowerCase(),
      invoiceItemId: lower(s.invoice_item_id),
      serviceId: lower(s.service.id),
      status: s.appointment_status,
      start: clinicLocal(s.start_time)!,
      end: s.end_time ? clinicLocal(s.end_time) : null,
      durationMinutes: s.service.duration ?? s.duration ?? 0,
      name: s.service.display_name || s.service.name,
      isAddOn: Boolean(s.is_addon ?? s.service.is_addon),
      // A nurse the guest asked for; an empty id, as some Zenoti answers carry, is none.
      therapistId: EMPTY_ID.test(s.requested_therapist_id ?? "") ? null : lower(s.requested_therapist_id),
      itemActions: s.item_actions ?? "",
    })),
  };
}

const ReasonsSchema = z.object({
  reasons: z
    .array(
      z.object({
        id: z.string(),
        name: z.string(),
        object_type: z.number().nullish(),
        action_type: z.number().nullish(),
        active: z.boolean().nullish(),
        show_in_online_booking: z.boolean().nullish(),
      }),
    )
    .nullish(),
});

export type CancelReason = { id: string; name: string };

const Ok = z.looseObject({});

/** Zenoti answers "not reserved" / "not confirmed" as a business result, not an outage. */
function isRefusal(error: unknown): error is SpaError {
  return error instanceof SpaError && error.kind === "rejected" && error.status === 200;
}

/**
 * Zenoti's organisation setting "Search Guest Across Centers" decides how a guest is found
 * (decision 035). On, a search without `center_id` covers every center (and `center_id` narrows it
 * to one); off, a search without `center_id` is refused. `auto` searches across centers until Zenoti
 * refuses that once, then per center.
 */
export type GuestSearchScope = "auto" | "across-centers" | "per-center";

export type GuestSearchSettings = {
  scope: GuestSearchScope;
  /** Guests of the organisation's own (the availability guest) that no visitor may ever be matched to. */
  hiddenGuestIds: string[];
  /** Every center to search in turn, per center, when the caller knows none. */
  centerIds: () => Promise<string[]>;
};

/** A refusal of a search because it named no center: the setting is off. */
function refusesSearchWithoutCenter(error: unknown): boolean {
  return (
    error instanceof SpaError && (error.kind === "rejected" || error.status === 400) && /center/i.test(error.message)
  );
}

export function bookingCalls(http: SpaHttp, settings: Partial<GuestSearchSettings> = {}) {
  const hidden = new Set((settings.hiddenGuestIds ?? []).map((id) => id.toLowerCase()));
  let scope: GuestSearchScope = settings.scope ?? "auto";

  async function searchAt(query: { email: string } | { phone: string }, centerId: string | null): Promise<SpaGuest[]> {
    const body = await http.request({
      method: "GET",
      path: "/v1/guests/search",
      query: { ...query, ...(centerId ? { center_id: centerId } : {}), size: 10 },
      schema: z.object({
        guests: z
          .array(GuestSchema)
          .nullable()
          .transform((guests) => guests ?? []),
      }),
    });
    return body.guests.map(toGuest).filter((guest) => !hidden.has(guest.id));
  }

  /** Per center: the center the visitor is at, else each center in turn until one knows them. */
  async function searchPerCenter(
    query: { email: string } | { phone: string },
    centerId: string | undefined,
  ): Promise<SpaGuest[]> {
    if (centerId) return searchAt(query, centerId);
    for (const id of settings.centerIds ? await settings.centerIds() : []) {
      const found = await searchAt(query, id);
      if (found.length > 0) return found;
    }
    return [];
  }

  /** The visitor's own center, when there is one, is where a per-center search looks. */
  async function searchGuests(query: { email: string } | { phone: string }, centerId?: string): Promise<SpaGuest[]> {
    if (scope === "per-center") return searchPerCenter(query, centerId);
    try {
      return await searchAt(query, null);
    } catch (error) {
      if (scope !== "auto" || !refusesSearchWithoutCenter(error)) throw error;
      scope = "per-center";
      logger.warn("guest search across centers is off at this organisation; searching per center", {
        fix: "set SPA_GUEST_SEARCH=per-center",
      });
      return searchPerCenter(query, centerId);
    }
  }

  /** One page of the guest's visits, and how many there are in all. */
  async function guestAppointmentsPage(
    guestId: string,
    options: AppointmentQuery = {},
  ): Promise<{ appointments: GuestAppointment[]; total: number }> {
    const body = await http.request({
      method: "GET",
      path: `/v1/guests/${encodeURIComponent(guestId)}/appointments`,
      query: {
        start_date: options.startDate,
        end_date: options.endDate,
        include_no_show_cancel: options.includeNoShowCancel ? true : undefined,
        page: options.page ?? 1,
        size: options.size ?? 20,
      },
      schema: AppointmentsSchema,
    });
    const appointments = body.appointments.map(toGuestAppointment);
    return { appointments, total: body.page_info?.total ?? appointments.length };
  }

  return {
    async createGuest(guest: NewGuest): Promise<SpaGuest> {
      const body = await http.request({
        method: "POST",
        path: "/v1/guests",
        body: guestCreatePayload(guest),
        schema: GuestSchema,
      });
      return toGuest(body);
    },

    /**
     * Saves a change to the guest's profile. Zenoti's update replaces the whole profile, so the
     * guest is read first (with the parts Zenoti sends only when asked for) and sent back merged.
     */
    async updateGuestProfile(guestId: string, change: GuestChange): Promise<SpaGuest> {
      const path = `/v1/guests/${encodeURIComponent(guestId)}`;
      const current = await http.request({
        method: "GET",
        path,
        query: { expand: GUEST_PARTS },
        schema: RawGuestSchema,
      });
      return toGuest(
        await http.request({ method: "PUT", path, body: mergeGuestChange(current, change), schema: GuestSchema }),
      );
    },

    /** `centerId`: the clinic the visitor is at, where a per-center search looks (decision 035). */
    async findGuestsByEmail(email: string, centerId?: string): Promise<SpaGuest[]> {
      return searchGuests({ email }, centerId);
    },

    /** Guests whose mobile number is these ten digits (Zenoti matches the digits exactly). */
    async findGuestsByPhone(phone: string, centerId?: string): Promise<SpaGuest[]> {
      return searchGuests({ phone: phone.replace(/\D/g, "") }, centerId);
    },

    /** How guests are searched now: `auto` has become `per-center` once Zenoti refused a search across centers. */
    guestSearchScope: () => scope,

    /** The guest with the parts Zenoti sends only when asked for (their consents among them); null for an unknown guest. */
    async getGuest(guestId: string): Promise<SpaGuest | null> {
      try {
        return toGuest(
          await http.request({
            method: "GET",
            path: `/v1/guests/${encodeURIComponent(guestId)}`,
            query: { expand: GUEST_PARTS },
            schema: GuestSchema,
          }),
        );
      } catch (error) {
        if (isRefusal(error) && Number(error.code) === 414) return null;
        throw error;
      }
    },

    guestAppointmentsPage,

    async listGuestAppointments(guestId: string, options: AppointmentQuery = {}): Promise<GuestAppointment[]> {
      return (await guestAppointmentsPage(guestId, options)).appointments;
    },

    /** The reasons a guest may give for cancelling: Zenoti's active, online, appointment-cancel reasons. */
    async listCancelReasons(): Promise<CancelReason[]> {
      const body = await http.request({ method: "GET", path: "/v1/reasons", schema: ReasonsSchema });
      return (body.reasons ?? [])
        .filter(
          (r) => r.object_type === 2 && r.action_type === 0 && r.active !== false && r.show_in_online_booking !== false,
        )
        .map((r) => ({ id: r.id, name: r.name }));
    },

    /**
     * Cancels every appointment on the invoice (Zenoti's only cancel). Whether the clinic's
     * late-cancellation fee was charged comes back; a refusal is a rejected SpaError.
     */
    async cancelInvoice(invoiceId: string, reasonId: string, comments: string): Promise<{ chargeApplied: boolean }> {
      const body = await http.request({
        method: "PUT",
        path: `/v1/invoices/${encodeURIComponent(invoiceId)}/cancel`,
        body: { reason_id: reasonId, comments },
        schema: z.object({ success: z.boolean().nullish(), is_charge_applied: z.boolean().nullish() }),
      });
      if (body.success === false) {
        throw new SpaError({
          kind: "rejected",
          status: 200,
          message: "The cancel was not accepted",
          path: `/v1/invoices/${invoiceId}/cancel`,
        });
      }
      return { chargeApplied: Boolean(body.is_charge_applied) };
    },

    /** A server-side cart for one date; nothing is held yet. */
    async createBooking(request: BookingRequest): Promise<string> {
      const body = await http.request({
        method: "POST",
        path: "/v1/bookings",
        query: { is_double_booking_enabled: false },
        body: {
          center_id: request.centerId,
          date: request.date,
          is_only_catalog_employees: true,
          consider_single_therapist_slot: true,
          guests: [
            {
              id: request.guestId,
              ...(request.reschedule ? { invoice_id: request.reschedule.invoiceId } : {}),
              items: [
                {
                  ...(request.reschedule ? { invoice_item_id: request.reschedule.invoiceItemId } : {}),
                  item: { id: request.serviceId },
                  therapist: request.therapistId ? { id: request.therapistId } : undefined,
                  add_ons: request.addOnIds.map((id) => ({ item: { id } })),
                },
              ],
            },
          ],
        },
        schema: z.object({ id: z.string() }),
      });
      return body.id;
    },

    /** The open times of the booking's date (the date it was created for). */
    async listSlots(bookingId: string, date: string): Promise<SlotList> {
      const body = await http.request({
        method: "GET",
        path: `/v1/bookings/${encodeURIComponent(bookingId)}/slots`,
        query: { check_future_day_availability: true },
        schema: SlotsSchema,
      });
      return slotsOfDay(body, date);
    },

    /**
     * A hold on the slot; null when someone else has it. Zenoti's expiry_time is the clinic's wall
     * clock, so the clinic's zone turns it into the instant the hold ends (ISO UTC).
     */
    async reserveSlot(
      bookingId: string,
      slotTime: string,
      timeZone: string,
    ): Promise<{ reservationId: string; expiresAt: string } | null> {
      try {
        const body = await http.request({
          method: "POST",
          path: `/v1/bookings/${encodeURIComponent(bookingId)}/slots/reserve`,
          body: { slot_time: slotTime },
          schema: ReserveSchema,
        });
        if (!body.is_reserved || !body.reservation_id) return null;
        const expiry = body.expiry_time ? clinicInstant(body.expiry_time, timeZone) : null;
        return {
          reservationId: body.reservation_id,
          expiresAt: new Date(expiry ?? Date.now() + DEFAULT_HOLD_MS).toISOString(),
        };
      } catch (error) {
        if (isRefusal(error)) return null;
        throw error;
      }
    },

    /**
     * Confirms the held slot; null when the hold is gone (Zenoti's 4072: pick a time again). The
     * clinic's zone, when given, places times that come with an offset on the clinic's clock.
     */
    async confirmBooking(bookingId: string, timeZone?: string): Promise<ConfirmedBooking | null> {
      try {
        const body = await http.request({
          method: "POST",
          path: `/v1/bookings/${encodeURIComponent(bookingId)}/slots/confirm`,
          body: {},
          schema: ConfirmSchema,
        });
        if (!body.is_confirmed || !body.invoice) return null;
        return {
          invoiceId: body.invoice.invoice_id.toLowerCase(),
          items: body.invoice.items.map((i) => ({
            appointmentId: i.appointment_id.toLowerCase(),
            invoiceItemId: i.invoice_item_id.toLowerCase(),
            serviceId: i.item.id.toLowerCase(),
            serviceName: i.item.name,
            therapistName: i.therapist?.full_name ?? "",
            start: clinicLocal(i.start_time, timeZone)!,
            end: clinicLocal(i.end_time, timeZone)!,
          })),
        };
      } catch (error) {
        if (isRefusal(error) && Number(error.code) === 4072) return null;
        throw error;
      }
    },

    async startCardCapture(guestId: string, centerId: string, redirectUri: string): Promise<string> {
      const body = await http.request({
        method: "POST",
        path: `/v1/guests/${encodeURIComponent(guestId)}/accounts`,
        body: { center_id: centerId, redirect_uri: redirectUri, source: 1 },
        schema: z.object({ hosted_payment_uri: z.url() }),
      });
      return body.hosted_payment_uri;
    },

    async listCards(guestId: string, centerId: string): Promise<SavedCard[]> {
      const body = await http.request({
        method: "GET",
        path: `/v1/guests/${encodeURIComponent(guestId)}/accounts`,
        query: { center_id: centerId },
        schema: CardsSchema,
      });
      const cards = parseEach(body, CardSchema, "card", { guest: guestId }).map((a) => ({
        accountId: a.account_id,
        brand: a.card_logo ?? "Card",
        lastFour: a.last_four ?? "",
        expiry: a.expiry_on ?? "",
        createdAt: a.created_date_iso ?? null,
      }));
      return oneEntryPerCard(cards);
    },

    async getInvoice(invoiceId: string): Promise<Invoice> {
      const body = await http.request({
        method: "GET",
        path: `/v1/invoices/${encodeURIComponent(invoiceId)}`,
        query: { expand: ["InvoiceItems", "Transactions"] },
        schema: InvoiceSchema,
      });
      const invoice = body.invoice;
      return {
        id: invoice.id.toLowerCase(),
        reference: invoice.invoice_number ? `${invoice.invoice_number_prefix ?? ""}${invoice.invoice_number}` : null,
        closed: invoice.is_closed ?? false,
        total: centsFromDollars(invoice.invoice_dues.total),
        paid: centsFromDollars(invoice.invoice_dues.paid),
        balance: centsFromDollars(invoice.invoice_dues.balance),
        items: (invoice.invoice_items ?? []).map((i) => ({
          invoiceItemId: i.invoice_item_id.toLowerCase(),
          serviceId: i.id.toLowerCase(),
          name: i.name,
          type: i.type ?? null,
          price: centsFromDollars(i.price.sales),
          discount: centsFromDollars(i.price.discount ?? 0),
          final: centsFromDollars(i.price.final),
        })),
      };
    },

    /** Applies an offer code to the invoice; false when the back end refuses it. */
    async applyCampaign(
      invoiceId: string,
      centerId: string,
      code: string,
    ): Promise<{ applied: boolean; message: string | null }> {
      try {
        const body = await http.request({
          method: "POST",
          path: `/v1/invoices/${encodeURIComponent(invoiceId)}/campaign_discount/apply`,
          body: { offer_code: code, center_id: centerId },
          schema: z.object({ discount_applied: z.boolean() }),
        });
        return { applied: body.discount_applied, message: null };
      } catch (error) {
        if (isRefusal(error)) return { applied: false, message: error.message };
        throw error;
      }
    },

    /**
     * Charges the invoice's balance to a saved card. Paid, or (a card that needs 3-D Secure) the page
     * the guest must pass first, which sends them back to `redirectUri`; that answer is returned as is.
     */
    async payInvoice(
      invoiceId: string,
      centerId: string,
      accountId: string,
      redirectUri: string,
    ): Promise<PaymentResult> {
      const path = `/v1/invoices/${encodeURIComponent(invoiceId)}/online_payments`;
      const body = await http.request({
        method: "POST",
        path,
        body: { account_id: accountId, center_id: centerId, source: 1, redirect_uri: redirectUri },
        schema: PaymentSchema,
      });
      if (body.invoice_transaction_id) return { kind: "paid", transactionId: body.invoice_transaction_id };
      if (body.hosted_payment_uri) return { kind: "verify", uri: body.hosted_payment_uri };
      throw new SpaError({
        kind: "invalid-response",
        status: 200,
        message: "A payment answer with neither a transaction nor a page",
        path,
      });
    },

    async removeInvoiceItem(invoiceId: string, invoiceItemId: string, comments: string): Promise<void> {
      await http.request({
        method: "DELETE",
        path: `/v1/invoices/${encodeURIComponent(invoiceId)}/invoiceitems/${encodeURIComponent(invoiceItemId)}`,
        body: { comments },
        schema: Ok,
      });
    },
  };
}
