import { z } from "zod";
import { list, optional, text } from "./lenient.server";
import { centsFromDollars, dollarsFromCents, type Cents } from "~/domain/money";
import { logger } from "../observability/logger.server";
import { isInvalidCenter, PAGE_SIZE, parseEach, readAllPages } from "./catalog.server";
import { SpaError } from "./errors.server";
import type { SpaHttp } from "./http.server";

/**
 * Sales of memberships, packages and gift cards: the clinic's packages and gift-card templates, a
 * sale invoice asked for (the back end prices it), closed once paid (which is when the guest gets
 * what they bought), the gift cards' emails; then a guest's packages and gift cards, a card's
 * balance and a package redeemed on a visit's line. Lists are read element by element (decision
 * 015): one odd package or card is dropped and logged, not the list.
 */

/** A package a clinic sells: sessions of services, used within `validityDays` of the sale (null: no limit given). */
export type PackagePlan = {
  id: string;
  name: string;
  description: string;
  priceCents: Cents;
  validityDays: number | null;
  services: { serviceId: string; name: string; quantity: number }[];
};

/** A gift-card template: a preset (value and price) or a custom amount between `custom.minCents` and `custom.maxCents`. */
export type GiftCardTemplate = {
  id: string;
  name: string;
  valueCents: Cents | null;
  priceCents: Cents | null;
  custom: { minCents: Cents; maxCents: Cents } | null;
  validityDays: number | null;
};

export type GiftCardOccasion = { id: string; name: string };

/** One of a guest's packages, its sessions per service. */
export type GuestPackage = {
  userPackageId: string;
  packageId: string;
  name: string;
  /** The back end's status code, as sent (Zenoti does not publish the list). */
  status: number | null;
  /** YYYY-MM-DD. */
  startDate: string | null;
  /** YYYY-MM-DD. */
  endDate: string | null;
  services: { serviceId: string; name: string; total: number; redeemed: number; left: number }[];
  purchasePriceCents: Cents | null;
};

/** A gift card a guest bought, or one sent to them. */
export type GuestGiftCard = {
  id: string;
  number: string;
  valueCents: Cents;
  balanceCents: Cents;
  /** YYYY-MM-DD. */
  expiryDate: string | null;
  /** YYYY-MM-DD. */
  issuedOn: string | null;
  status: string;
  boughtByGuestId: string | null;
  recipientName: string | null;
  recipientEmail: string | null;
};

export type GiftCardBalance = {
  number: string;
  valueCents: Cents;
  balanceCents: Cents;
  expiryDate: string | null;
  status: string;
};

/** A gift card to sell: a template, the amount on the custom one, and who it is for. */
export type GiftCardSale = {
  templateId: string;
  customAmountCents: Cents | null;
  occasionId: string;
  message: string;
  recipientName: string;
  recipientEmail: string;
  /** The clinic's wall clock, YYYY-MM-DDTHH:mm:ss: when the card is emailed; null for as soon as it is sent. */
  scheduleTime: string | null;
};

/** Zenoti's invoice item types (`Invoice.items[].type`). */
export const INVOICE_ITEM_TYPE = { service: 0, product: 2, membership: 3, package: 4, giftCard: 6 } as const;

const count = optional(z.number().int().nonnegative());
const Id = z.string().min(1);
const Dollars = z.number().nonnegative();

/** Zenoti's day: "2026-09-02T00:00:00" (or a bare day); "0001-01-01…", "" and null are none. */
const ZenotiDay = z
  .string()
  .nullish()
  .refine((value) => !value || /^\d{4}-\d{2}-\d{2}/.test(value), "Expected a date")
  .transform((value) => (value && !value.startsWith("0001-01-01") ? value.slice(0, 10) : null));

const PackageServiceSchema = z.object({
  id: Id,
  item_type: optional(z.number()),
  quantity: z.number().int().positive(),
  name: text,
});

/**
 * The `item_type` of a benefit listed under `benefits.services` that we read as a bookable service.
 * Zenoti publishes no list of these values; its one sample (`GET /v1/centers/{id}/packages`) gives
 * every service benefit `item_type: 2`, and 0 is a service in its other item types (an invoice's
 * items, the sales report). Any other value, whatever it stands for, is dropped and logged rather
 * than shown as sessions of a service.
 */
const SERVICE_BENEFIT_TYPES = new Set([0, 2]);

/** A package of Zenoti's centre packages list (reference §3.5), element by element. */
const PackageSchema = z.object({
  id: Id,
  name: z.string().min(1),
  description: text,
  catalog_info: optional(
    z.object({ show_in_catalog: optional(z.boolean()), can_book: optional(z.boolean()), display_name: text }),
  ),
  centers: z.array(z.object({ center_id: z.string(), sale_price: Dollars })).min(1),
  benefits: optional(z.object({ services: optional(z.array(z.unknown())) })),
  validity_days: count,
});

const PackagesResponseSchema = z.object({ packages: list, page_info: optional(z.object({ total: z.number() })) });

const TemplateSchema = z.object({
  id: Id,
  name: z.string().min(1),
  value: Dollars.nullish(),
  price: Dollars.nullish(),
  allow_custom_amount: optional(z.boolean()),
  min_amount: Dollars.nullish(),
  max_amount: Dollars.nullish(),
  validity_days: count,
});

const OccasionSchema = z.object({ id: Id, name: z.string().min(1) });

const GuestPackageSchema = z.object({
  user_package_id: Id,
  status: optional(z.number()),
  package: z.object({ id: Id, name: z.string() }),
  date: optional(z.object({ start: ZenotiDay.catch(null), end: ZenotiDay.catch(null) })),
  services: list,
  purchase_price: optional(Dollars),
});

/**
 * One service of a guest's package as Zenoti's Guest Package sample gives it: the service in
 * `service_type_info`, and its sessions `total`, `used` and `balance`. `balance` is what can still
 * be booked, and need not be `total - used` (the sample has total 1, used 0, balance 0); when it is
 * missing it is worked out from the other two.
 */
const GuestPackageServiceSchema = z
  .object({
    service_type_info: z.object({ id: Id, name: text }),
    total: z.number().int().nonnegative(),
    used: count,
    balance: count,
  })
  .refine((s) => s.used != null || s.balance != null, "Expected used or balance");

const GiftCardSchema = z.object({
  id: Id,
  number: z.union([z.string().min(1), z.number()]).transform(String),
  value: Dollars,
  balance: Dollars,
  expiry_date: ZenotiDay.catch(null),
  issued_on: ZenotiDay.catch(null),
  status: text,
  purchased_by: optional(z.object({ id: text })),
  recipient: optional(z.object({ name: text, email: text })),
});

const BalanceSchema = z.object({
  gift_card: z.object({
    number: z.union([z.string().min(1), z.number()]).transform(String),
    value: Dollars,
    balance: Dollars,
    expiry_date: ZenotiDay.catch(null),
    status: text,
  }),
});

const SaleSchema = z.object({ invoice_id: Id });
const Ok = z.looseObject({});

/** Zenoti's refusal codes for a close: not fully paid, already closed. */
const NOT_PAID = 1112;
const ALREADY_CLOSED = 1114;
/** Zenoti's code for an unknown gift card. */
const GIFT_CARD_NOT_FOUND = 404;

/** A business refusal: HTTP 200 with an error in the body. */
function isRefusal(error: unknown): error is SpaError {
  return error instanceof SpaError && error.kind === "rejected" && error.status === 200;
}

const refusalCode = (error: SpaError) => Number(error.code);

function toPackage(raw: z.infer<typeof PackageSchema>, centerId: string): PackagePlan | null {
  // The clinic's price; an answer with one price entry is that clinic's.
  const price =
    raw.centers.find((c) => c.center_id.toLowerCase() === centerId.toLowerCase()) ??
    (raw.centers.length === 1 ? raw.centers[0] : null);
  if (!price) {
    logger.warn("spa catalog entry dropped", {
      kind: "package",
      id: raw.id,
      reason: "no price for this center",
      center: centerId,
    });
    return null;
  }
  const services = parseEach(raw.benefits?.services ?? [], PackageServiceSchema, "package_benefit", { package: raw.id })
    .filter((s) => {
      if (s.item_type == null || SERVICE_BENEFIT_TYPES.has(s.item_type)) return true;
      logger.warn("spa catalog entry dropped", {
        kind: "package_benefit",
        id: s.id,
        reason: `item_type ${s.item_type}`,
        package: raw.id,
      });
      return false;
    })
    .map((s) => ({ serviceId: s.id.toLowerCase(), name: s.name ?? "", quantity: s.quantity }));
  return {
    id: raw.id.toLowerCase(),
    name: raw.catalog_info?.display_name || raw.name,
    description: raw.description ?? "",
    priceCents: centsFromDollars(price.sale_price),
    validityDays: raw.validity_days ?? null,
    services,
  };
}

function toTemplate(raw: z.infer<typeof TemplateSchema>): GiftCardTemplate | null {
  const dropped = (reason: string) => {
    logger.warn("spa catalog entry dropped", { kind: "giftcard_template", id: raw.id, reason });
    return null;
  };
  if (raw.allow_custom_amount) {
    if (raw.min_amount == null || raw.max_amount == null || raw.min_amount > raw.max_amount)
      return dropped("custom amount without its bounds");
    return {
      id: raw.id.toLowerCase(),
      name: raw.name,
      valueCents: null,
      priceCents: null,
      custom: { minCents: centsFromDollars(raw.min_amount), maxCents: centsFromDollars(raw.max_amount) },
      validityDays: raw.validity_days ?? null,
    };
  }
  if (raw.value == null) return dropped("no value");
  const valueCents = centsFromDollars(raw.value);
  return {
    id: raw.id.toLowerCase(),
    name: raw.name,
    valueCents,
    priceCents: raw.price == null ? valueCents : centsFromDollars(raw.price),
    custom: null,
    validityDays: raw.validity_days ?? null,
  };
}

function toGuestPackage(raw: z.infer<typeof GuestPackageSchema>): GuestPackage {
  return {
    userPackageId: raw.user_package_id.toLowerCase(),
    packageId: raw.package.id.toLowerCase(),
    name: raw.package.name,
    status: raw.status ?? null,
    startDate: raw.date?.start ?? null,
    endDate: raw.date?.end ?? null,
    services: parseEach(raw.services, GuestPackageServiceSchema, "guest_package_service", {
      package: raw.user_package_id,
    }).map((s) => ({
      serviceId: s.service_type_info.id.toLowerCase(),
      name: s.service_type_info.name ?? "",
      total: s.total,
      redeemed: s.used ?? Math.max(0, s.total - s.balance!),
      left: s.balance ?? Math.max(0, s.total - s.used!),
    })),
    purchasePriceCents: raw.purchase_price == null ? null : centsFromDollars(raw.purchase_price),
  };
}

function toGuestGiftCard(raw: z.infer<typeof GiftCardSchema>): GuestGiftCard {
  return {
    id: raw.id.toLowerCase(),
    number: raw.number,
    valueCents: centsFromDollars(raw.value),
    balanceCents: centsFromDollars(raw.balance),
    expiryDate: raw.expiry_date,
    issuedOn: raw.issued_on,
    status: raw.status ?? "",
    boughtByGuestId: raw.purchased_by?.id?.toLowerCase() || null,
    recipientName: raw.recipient?.name || null,
    recipientEmail: raw.recipient?.email || null,
  };
}

/** A sale's invoice id, lower-cased as getInvoice gives it. */
const saleOf = (body: z.infer<typeof SaleSchema>) => ({ invoiceId: body.invoice_id.toLowerCase() });

export function salesCalls(http: SpaHttp) {
  return {
    /** The packages a clinic sells online, priced in cents; null for an unknown clinic. */
    async listPackages(centerId: string): Promise<PackagePlan[] | null> {
      try {
        const raw = await readAllPages(async (page) => {
          const body = await http.request({
            method: "GET",
            path: `/v1/centers/${encodeURIComponent(centerId)}/packages`,
            query: { page, size: PAGE_SIZE },
            schema: PackagesResponseSchema,
          });
          return { items: body.packages, total: body.page_info?.total ?? null };
        });
        return parseEach(raw, PackageSchema, "package", { center: centerId }).flatMap((pkg) => {
          if (pkg.catalog_info?.can_book === false || pkg.catalog_info?.show_in_catalog === false) return [];
          const plan = toPackage(pkg, centerId);
          return plan ? [plan] : [];
        });
      } catch (error) {
        if (isInvalidCenter(error)) return null;
        throw error;
      }
    },

    /** The clinic's gift-card templates, amounts in cents; null for an unknown clinic. */
    async listGiftCardTemplates(centerId: string): Promise<GiftCardTemplate[] | null> {
      try {
        const body = await http.request({
          method: "GET",
          path: "/v1/giftcards/templates",
          query: { center_id: centerId },
          schema: z.object({ templates: list }),
        });
        return parseEach(body.templates, TemplateSchema, "giftcard_template", { center: centerId }).flatMap((t) => {
          const template = toTemplate(t);
          return template ? [template] : [];
        });
      } catch (error) {
        if (isInvalidCenter(error)) return null;
        throw error;
      }
    },

    async listGiftCardOccasions(): Promise<GiftCardOccasion[]> {
      const body = await http.request({
        method: "GET",
        path: "/v1/giftcards/occasions",
        schema: z.object({ occasions: list }),
      });
      return parseEach(body.occasions, OccasionSchema, "giftcard_occasion").map((o) => ({
        id: o.id.toLowerCase(),
        name: o.name,
      }));
    },

    /** A sale invoice for one membership, at the clinic's price. */
    async sellMembership(centerId: string, guestId: string, membershipId: string): Promise<{ invoiceId: string }> {
      const body = await http.request({
        method: "POST",
        path: "/v1/invoices/memberships",
        // Public code sends the ids as one comma-separated string.
        body: { center_id: centerId, user_id: guestId, membership_ids: membershipId },
        schema: SaleSchema,
      });
      return saleOf(body);
    },

    /** A sale invoice for one package, at the clinic's price. */
    async sellPackage(centerId: string, guestId: string, packageId: string): Promise<{ invoiceId: string }> {
      const body = await http.request({
        method: "POST",
        path: "/v1/invoices/packages",
        body: { guest_id: guestId, center_id: centerId, package_details: [{ id: packageId }] },
        schema: SaleSchema,
      });
      return saleOf(body);
    },

    /** A sale invoice for one gift card from a template (Zenoti spells the keys "occassion" and "recepient"). */
    async sellGiftCard(centerId: string, guestId: string, sale: GiftCardSale): Promise<{ invoiceId: string }> {
      const amount = sale.customAmountCents === null ? undefined : dollarsFromCents(sale.customAmountCents);
      const body = await http.request({
        method: "POST",
        path: "/v1/invoices/giftcards",
        body: {
          center_id: centerId,
          guest_id: guestId,
          giftcards: [
            {
              template_id: sale.templateId,
              ...(amount === undefined ? {} : { custom_amount: { price: amount, value: amount } }),
              ...(sale.scheduleTime ? { schedule_time: sale.scheduleTime } : {}),
              occassion: { id: sale.occasionId, message: sale.message },
              recepient: { name: sale.recipientName, email: sale.recipientEmail },
            },
          ],
        },
        schema: SaleSchema,
      });
      return saleOf(body);
    },

    /**
     * Closes a paid sale invoice, which gives the guest what it sold. "already-closed" and "not-paid"
     * are Zenoti's refusals 1114 and 1112; any other refusal is thrown.
     */
    async closeInvoice(invoiceId: string): Promise<"closed" | "already-closed" | "not-paid"> {
      const path = `/v1/invoices/${encodeURIComponent(invoiceId)}/close`;
      try {
        const body = await http.request({
          method: "POST",
          path,
          body: {},
          schema: z.object({ is_invoice_closed: z.boolean() }),
        });
        if (!body.is_invoice_closed)
          throw new SpaError({
            kind: "invalid-response",
            status: 200,
            message: "A close answer that did not close the invoice",
            path,
          });
        return "closed";
      } catch (error) {
        if (isRefusal(error) && refusalCode(error) === ALREADY_CLOSED) return "already-closed";
        if (isRefusal(error) && refusalCode(error) === NOT_PAID) return "not-paid";
        throw error;
      }
    },

    /** Emails a closed sale's gift cards to their recipients (each on its scheduled day); sending again sends nothing more. */
    async sendGiftCardEmail(invoiceId: string): Promise<void> {
      await http.request({
        method: "POST",
        path: `/v1/invoices/${encodeURIComponent(invoiceId)}/send_giftcard_email`,
        body: {},
        schema: Ok,
      });
    },

    /** A gift card's value and balance in cents; null for a number the back end does not know. */
    async giftCardBalance(number: string): Promise<GiftCardBalance | null> {
      try {
        const body = await http.request({
          method: "GET",
          path: `/v1/giftcards/${encodeURIComponent(number)}/balance`,
          schema: BalanceSchema,
        });
        const card = body.gift_card;
        return {
          number: card.number,
          valueCents: centsFromDollars(card.value),
          balanceCents: centsFromDollars(card.balance),
          expiryDate: card.expiry_date,
          status: card.status ?? "",
        };
      } catch (error) {
        if (isRefusal(error) && refusalCode(error) === GIFT_CARD_NOT_FOUND) return null;
        throw error;
      }
    },

    /** The gift cards a guest bought and those sent to them. An unknown guest is Zenoti's refusal 414, thrown. */
    async guestGiftCards(guestId: string): Promise<GuestGiftCard[]> {
      const body = await http.request({
        method: "GET",
        path: `/v1/guests/${encodeURIComponent(guestId)}/gift_cards`,
        schema: z.object({ gift_cards: list }),
      });
      return parseEach(body.gift_cards, GiftCardSchema, "gift_card", { guest: guestId }).map(toGuestGiftCard);
    },

    /**
     * A guest's packages (at one clinic when `centerId` is given; only those with sessions left and
     * not expired with `redeemableOnly`), every page. An unknown guest is Zenoti's refusal 414, thrown.
     */
    async guestPackages(
      guestId: string,
      options: { centerId?: string; redeemableOnly?: boolean } = {},
    ): Promise<GuestPackage[]> {
      const raw = await readAllPages(async (page) => {
        const body = await http.request({
          method: "GET",
          path: `/v1/guests/${encodeURIComponent(guestId)}/Packages`,
          query: {
            center_id: options.centerId,
            show_redeemable: options.redeemableOnly ?? false,
            page_num: page,
            page_size: PAGE_SIZE,
          },
          schema: z.object({ packages: list, page_info: optional(z.object({ total: z.number() })) }),
        });
        return { items: body.packages, total: body.page_info?.total ?? null };
      });
      return parseEach(raw, GuestPackageSchema, "guest_package", { guest: guestId }).map(toGuestPackage);
    },

    /** Redeems a session of the guest's package on an invoice's treatment line (it then owes nothing); false when refused. */
    async redeemPackage(invoiceId: string, userPackageId: string, invoiceItemId: string): Promise<boolean> {
      try {
        const body = await http.request({
          method: "POST",
          path: `/v1/invoices/${encodeURIComponent(invoiceId)}/redemptions/packages`,
          body: { package_redemptions: [{ user_package_id: userPackageId, invoice_item_id: invoiceItemId }] },
          schema: z.object({ success: z.boolean().nullish() }),
        });
        return body.success !== false;
      } catch (error) {
        if (isRefusal(error)) return false;
        throw error;
      }
    },
  };
}

export type SalesCalls = ReturnType<typeof salesCalls>;
