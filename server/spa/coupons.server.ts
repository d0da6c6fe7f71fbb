import { z } from "zod";
import type { GuestCoupon } from "~/domain/coupons";
import { readEndDate } from "~/domain/sentinel-dates";
import { PAGE_SIZE, parseEach, readAllPages } from "./catalog.server";
import { SpaError } from "./errors.server";
import type { SpaHttp } from "./http.server";

/**
 * One coupon of Zenoti's "List all coupons of a guest" (docs.zenoti.com/reference/list-all-coupons-of-a-guest):
 * id, number, invoice_id, invoice_number, reciept_number (sic), description, issue_date,
 * issued_center, expiry_date, redemption, redeemed_center, redeemable_by_all, status. No sample
 * answer is published: only id and number are required here; what the text fields hold is read
 * leniently (decision 044 lists what is not known).
 */
const CouponSchema = z.object({
  id: z.string().min(1),
  number: z.string().trim().min(1),
  description: z.string().nullish(),
  expiry_date: z.string().nullish(),
  redemption: z.union([z.string(), z.boolean()]).nullish(),
});

/** The page: `coupons` is documented as an object that holds the list; an object alone is read as a list of one. */
const CouponsResponseSchema = z.object({
  coupons: z.union([z.array(z.unknown()), z.looseObject({}).transform((one) => [one])]).nullish(),
  page_info: z.object({ total: z.number().nullish() }).nullish(),
});

/**
 * Whether Zenoti's `redemption` says the coupon is used. Its values are not published; the coupon
 * redemption report speaks of coupons "redeemed, not redeemed, or expired". Only an empty value or
 * a "not redeemed" one leaves a coupon usable: any other word is taken as used, so an unknown
 * value is never offered (the back end stays the judge when it is applied).
 */
export function isRedeemed(redemption: string | boolean | null | undefined): boolean {
  if (redemption === null || redemption === undefined || redemption === false) return false;
  if (redemption === true) return true;
  const word = redemption
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, "");
  return !(word === "" || word === "notredeemed" || word === "unredeemed" || word === "available" || word === "active");
}

function toCoupon(raw: z.infer<typeof CouponSchema>): GuestCoupon {
  const end = readEndDate(raw.expiry_date);
  return {
    id: raw.id.toLowerCase(),
    number: raw.number,
    description: raw.description?.trim() ?? "",
    expiresOn: end?.kind === "day" ? end.day : null,
    redeemed: isRedeemed(raw.redemption),
  };
}

export function couponCalls(http: SpaHttp) {
  return {
    /** The guest's coupons, used and not (Zenoti's coupon history of the guest); an unknown guest has none. */
    async guestCoupons(guestId: string): Promise<GuestCoupon[]> {
      try {
        const raw = await readAllPages(async (page) => {
          const body = await http.request({
            method: "GET",
            path: `/v1/guests/${encodeURIComponent(guestId)}/coupons`,
            query: { page, size: PAGE_SIZE },
            schema: CouponsResponseSchema,
          });
          return { items: body.coupons ?? [], total: body.page_info?.total ?? null };
        });
        return parseEach(raw, CouponSchema, "coupon").map(toCoupon);
      } catch (error) {
        // Zenoti's code for an unknown guest, answered on HTTP 200.
        if (error instanceof SpaError && error.kind === "rejected" && Number(error.code) === 414) return [];
        throw error;
      }
    },
  };
}
