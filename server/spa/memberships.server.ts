import { z } from "zod";
import { list, optional, text } from "./lenient.server";
import { centsFromDollars, type Cents } from "~/domain/money";
import { logger } from "../observability/logger.server";
import { isInvalidCenter, PAGE_SIZE, parseEach, readAllPages } from "./catalog.server";
import { SpaError } from "./errors.server";
import type { SpaHttp } from "./http.server";

/** A membership plan a clinic sells; its price in cents. */
export type MembershipPlan = {
  id: string;
  name: string;
  description: string;
  priceCents: Cents;
  /** Zenoti's payment_frequency as sent, e.g. "1 Months", "12 Months" (it may be "" on a plan that does not renew). */
  billingCycle: string;
  recurring: boolean;
  coveredServices: { serviceId: string; name: string; quantity: number }[];
  /**
   * Member prices: the percent off (0 to 100) a member's visit has on each service listed, from the
   * plan's `benefits.discounts.services`; a service not listed has none.
   */
  serviceDiscounts: { serviceId: string; percent: number }[];
  terms: string | null;
};

/** One of a guest's memberships; credits in cents. */
export type GuestMembership = {
  userMembershipId: string;
  membershipId: string;
  name: string;
  /** Zenoti's status code: 1 Active, 2 Inactive, 3 Frozen, 4 Cancelled, 5 Expired, 6 Closed, 7 NotStarted, 8 Suspended, 9 Refund, 10 Deleted, 12 Failed. */
  status: number;
  /** recurrence_status === 1. */
  recurring: boolean;
  /** YYYY-MM-DD. */
  memberSince: string | null;
  /** YYYY-MM-DD. */
  expiryDate: string | null;
  creditCents: { total: Cents; service: Cents; product: Cents; other: Cents };
};

/** A guest's loyalty points: the balance, and the history (earned +, redeemed -) as the back end gives it. */
export type LoyaltyPoints = {
  balance: number;
  history: { date: string /* YYYY-MM-DD */; points: number; reason: string }[];
};

/**
 * A covered service. Zenoti's published sample lists benefits for the whole answer, each naming
 * its plan in `membership_id`, the item in `category` (`is_category` false) or a whole category
 * (`is_category` true); the sandbox also gives each plan its own list with `{ id, name, quantity }`.
 */
const BenefitSchema = z.object({
  membership_id: text,
  id: text,
  name: text,
  category: optional(z.object({ id: text, name: text })),
  is_category: optional(z.boolean()),
  quantity: optional(z.number()),
});
type Benefit = z.infer<typeof BenefitSchema>;

/** A plan's discount on a service (member prices): `{ id, name, discount_percentage }`. */
const ServiceDiscountSchema = z.object({
  id: z.string().min(1),
  discount_percentage: z.number().min(0).max(100),
});

const BenefitsSchema = optional(
  z.object({
    services: optional(z.array(z.unknown())),
    discounts: optional(z.object({ services: optional(z.array(z.unknown())) })),
  }),
);

/** A plan of Zenoti's centre memberships list: its published shape, element by element. */
const PlanSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  description: text,
  price: z.object({ sales: z.number(), final: optional(z.number()) }),
  can_book: optional(z.boolean()),
  is_recurring_membership: optional(z.boolean()),
  payment_frequency: text,
  terms_and_conditions: text,
  benefits: BenefitsSchema,
});
type RawPlan = z.infer<typeof PlanSchema>;

const PlansResponseSchema = z.object({
  memberships: list,
  total_no_of_memberships: optional(z.number()),
  benefits: BenefitsSchema,
  page_info: optional(z.object({ total: z.number() })),
});

/** Zenoti's day: "2026-09-02T00:00:00" (or a bare day); "0001-01-01…", "" and null are none. */
const ZenotiDay = z
  .string()
  .nullish()
  .refine((value) => !value || /^\d{4}-\d{2}-\d{2}/.test(value), "Expected a date")
  .transform((value) => (value && !value.startsWith("0001-01-01") ? value.slice(0, 10) : null));

const Dollars = z.number().nullish();

/** A guest's membership: the published fields we rely on, read strictly (a membership is money). */
const GuestMembershipSchema = z.object({
  user_membership_id: z.string().min(1),
  status: z.number().int(),
  recurrence_status: z.number().nullish(),
  membership: z.object({ id: z.string().min(1), name: z.string() }),
  member_since: ZenotiDay,
  expiry_date: ZenotiDay,
  credit_balance: z.object({ total: Dollars, service: Dollars, product: Dollars, other: Dollars }).nullish(),
});

const GuestMembershipsResponseSchema = z.object({
  guest_memberships: z
    .array(GuestMembershipSchema)
    .nullable()
    .transform((items) => items ?? []),
});

/** Zenoti's code for an unknown guest. */
const GUEST_NOT_FOUND = 414;

function isGuestNotFound(error: unknown): boolean {
  return error instanceof SpaError && Number(error.code) === GUEST_NOT_FOUND;
}

/** A business refusal: HTTP 200 with an error in the body. */
function isRefusal(error: unknown): error is SpaError {
  return error instanceof SpaError && error.kind === "rejected" && error.status === 200;
}

function toCoveredService(benefit: Benefit): MembershipPlan["coveredServices"][number] | null {
  // A whole category is not one service: left out.
  if (benefit.is_category) return null;
  const serviceId = benefit.id || benefit.category?.id;
  const name = benefit.name || benefit.category?.name;
  if (!serviceId || !name) return null;
  return { serviceId: serviceId.toLowerCase(), name, quantity: benefit.quantity ?? 1 };
}

function toPlan(raw: RawPlan, shared: Benefit[]): MembershipPlan {
  const own = parseEach(raw.benefits?.services ?? [], BenefitSchema, "membership_benefit", { membership: raw.id });
  const benefits = own.length > 0 ? own : shared.filter((b) => b.membership_id?.toLowerCase() === raw.id.toLowerCase());
  return {
    id: raw.id.toLowerCase(),
    name: raw.name,
    description: raw.description ?? "",
    priceCents: centsFromDollars(raw.price.sales),
    billingCycle: raw.payment_frequency ?? "",
    recurring: raw.is_recurring_membership ?? false,
    coveredServices: benefits.map(toCoveredService).filter((s) => s !== null),
    serviceDiscounts: parseEach(raw.benefits?.discounts?.services ?? [], ServiceDiscountSchema, "membership_discount", {
      membership: raw.id,
    }).map((d) => ({
      serviceId: d.id.toLowerCase(),
      percent: d.discount_percentage,
    })),
    terms: raw.terms_and_conditions || null,
  };
}

function toGuestMembership(raw: z.infer<typeof GuestMembershipSchema>): GuestMembership {
  const credit = raw.credit_balance;
  const service = centsFromDollars(credit?.service ?? 0);
  const product = centsFromDollars(credit?.product ?? 0);
  const other = centsFromDollars(credit?.other ?? 0);
  return {
    userMembershipId: raw.user_membership_id.toLowerCase(),
    membershipId: raw.membership.id.toLowerCase(),
    name: raw.membership.name,
    status: raw.status,
    recurring: raw.recurrence_status === 1,
    memberSince: raw.member_since,
    expiryDate: raw.expiry_date,
    creditCents: {
      total: credit?.total != null ? centsFromDollars(credit.total) : service + product + other,
      service,
      product,
      other,
    },
  };
}

// Loyalty points: Zenoti publishes the call, not its answer. Read leniently, from what a
// reasonable answer could hold: a `points` block (or the body itself) with a balance, and a history.

type Json = Record<string, unknown>;

const asObject = (value: unknown): Json | null =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : null;

function asNumber(value: unknown): number | null {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof number === "number" && Number.isFinite(number) ? number : null;
}

const first = (record: Json, keys: string[]): unknown =>
  keys.map((key) => record[key]).find((value) => value !== undefined && value !== null);

/** The block that holds the balance: `points`, `loyalty_points`, or the body itself. */
function pointsBlock(body: unknown): Json | null {
  const record = asObject(body);
  if (!record) return null;
  return asObject(record.points) ?? asObject(record.loyalty_points) ?? record;
}

function readBalance(block: Json): number | null {
  return asNumber(first(block, ["balance", "Balance", "points_balance", "available_points", "total_available_points"]));
}

/** The page's history entries that can be read, and how many the page held. */
function readHistory(body: unknown, block: Json): { entries: LoyaltyPoints["history"]; count: number } {
  const record = asObject(body) ?? {};
  const raw = first(block, ["history", "History", "points_history"]) ?? first(record, ["history", "points_history"]);
  if (!Array.isArray(raw)) return { entries: [], count: 0 };
  const entries = raw.flatMap((item) => {
    const entry = asObject(item);
    const date = entry ? first(entry, ["date", "Date", "transaction_date", "created_date"]) : null;
    const points = entry ? asNumber(first(entry, ["points", "Points"])) : null;
    if (!entry || typeof date !== "string" || !/^\d{4}-\d{2}-\d{2}/.test(date) || points === null) {
      logger.warn("spa points entry dropped", { kind: "points_history", reason: "date or points unreadable" });
      return [];
    }
    const type = String(first(entry, ["type", "Type"]) ?? "").toLowerCase();
    const reason = first(entry, ["reason", "Reason", "description", "comments"]);
    return [
      {
        date: date.slice(0, 10),
        points: type.includes("redeem") && points > 0 ? -points : points,
        reason: typeof reason === "string" ? reason : "",
      },
    ];
  });
  return { entries, count: raw.length };
}

function readTotal(body: unknown): number | null {
  const record = asObject(body) ?? {};
  const info = asObject(record.page_info) ?? asObject(record.page_Info);
  return info ? asNumber(info.total) : null;
}

export function membershipCalls(http: SpaHttp) {
  return {
    /** The membership plans a clinic sells online, with their prices in cents; null for an unknown clinic. */
    async listMembershipPlans(centerId: string): Promise<MembershipPlan[] | null> {
      try {
        const pages = await readAllPages(async (page) => {
          const body = await http.request({
            method: "GET",
            path: `/v1/centers/${encodeURIComponent(centerId)}/memberships`,
            query: { show_in_catalog: true, page, size: PAGE_SIZE },
            schema: PlansResponseSchema,
          });
          const shared = parseEach(body.benefits?.services ?? [], BenefitSchema, "membership_benefit", {
            center: centerId,
          });
          return {
            items: body.memberships.map((raw) => ({ raw, shared })),
            total: body.page_info?.total ?? body.total_no_of_memberships ?? null,
          };
        });
        return pages.flatMap(({ raw, shared }) => {
          const [plan] = parseEach([raw], PlanSchema, "membership", { center: centerId });
          return plan && plan.can_book !== false ? [toPlan(plan, shared)] : [];
        });
      } catch (error) {
        if (isInvalidCenter(error)) return null;
        throw error;
      }
    },

    /**
     * A guest's memberships, of every status (at one clinic when `centerId` is given). An unknown
     * guest is Zenoti's refusal 414, thrown.
     */
    async guestMemberships(guestId: string, centerId?: string): Promise<GuestMembership[]> {
      const body = await http.request({
        method: "GET",
        path: `/v1/guests/${encodeURIComponent(guestId)}/memberships`,
        query: { center_id: centerId },
        schema: GuestMembershipsResponseSchema,
      });
      return body.guest_memberships.map(toGuestMembership);
    },

    /**
     * A guest's points balance and whole history; null when the back end gives none (no balance in
     * its answer, or a refusal other than an unknown guest, which is thrown).
     */
    async loyaltyPoints(guestId: string): Promise<LoyaltyPoints | null> {
      const path = `/v1/guests/${encodeURIComponent(guestId)}/points`;
      let balance: number | null = null;
      const history: LoyaltyPoints["history"] = [];
      let read = 0;
      try {
        for (let page = 1; page <= 50; page++) {
          const body = await http.request({
            method: "GET",
            path,
            query: { page_num: page, num_records: PAGE_SIZE },
            schema: z.unknown(),
          });
          const block = pointsBlock(body);
          if (!block) break;
          if (page === 1) balance = readBalance(block);
          if (balance === null) return null;
          const { entries, count } = readHistory(body, block);
          history.push(...entries);
          read += count;
          const total = readTotal(body);
          if (count < PAGE_SIZE || (total !== null && read >= total)) break;
        }
      } catch (error) {
        if (isRefusal(error) && !isGuestNotFound(error)) {
          logger.warn("spa points refused", { code: error.code === null ? null : String(error.code) });
          return null;
        }
        throw error;
      }
      return balance === null ? null : { balance, history };
    },
  };
}

export type MembershipCalls = ReturnType<typeof membershipCalls>;
