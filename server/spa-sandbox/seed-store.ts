import { randomUUID } from "node:crypto";
import { ruleFromDollars, type PromoCode } from "~/domain/discounts";
import { centsFromDollars } from "~/domain/money";
import { DEFAULT_PRICE_TIER } from "~/domain/pricing";
import { hashPassword, type PasswordCost, STANDARD_COST } from "../accounts/passwords.server";
import type { Stores } from "../store/stores.server";
import { seedGuid } from "./db";
import { DEMO_GUEST_ID } from "./demo-guest";
import { couponDiscountKey } from "~/domain/coupons";
import {
  LATER_PROMO_CODES,
  SEED_DEMO_GUEST,
  seedCenterPrices,
  seedCenters,
  seedCouponDiscounts,
  seedOfferTiers,
  seedPartners,
  seedPriceTiers,
  seedPromos,
  seedServices,
} from "./seed-data";

/** The demo guest's password: the README gives it, to sign in with straight after the first start. */
export const DEMO_ACCOUNT_PASSWORD = "Glow!Demo2026";

/**
 * With the sandbox as the back end, the embedded stores get the first-party records that belong
 * with the seeded chain: the promo codes, for prepaid clinics their center pricing, and the demo
 * guest's account. The seed lists prices in dollars, as the sandbox's catalog serves them; the
 * stores keep cents. Seeded on the stores' first start, as the sandbox seeds a new database: a
 * sandbox from before has no demo guest for the account to open. The demo password is hashed at
 * `passwordCost`, the one the account service uses.
 */
export async function seedEmbeddedStores(
  stores: Pick<Stores, "promoCodes" | "centerPricing" | "accounts" | "guestDetails" | "pricing">,
  passwordCost: PasswordCost = STANDARD_COST,
): Promise<void> {
  if (!(await stores.promoCodes.get(seedPromos[0].code))) await seedFirstStart(stores, passwordCost);
  await seedGrowth(stores);
  await seedLaterCodes(stores);
}

/**
 * The promo codes and coupon discounts that came after the first seed (the $200-off promo, the
 * guest coupons' discounts, decision 044): each added once, to stores made before them too.
 */
async function seedLaterCodes(stores: Pick<Stores, "promoCodes">): Promise<void> {
  for (const promo of seedPromos.filter((p) => (LATER_PROMO_CODES as readonly string[]).includes(p.code))) {
    if (!(await stores.promoCodes.get(promo.code))) await stores.promoCodes.put(promoRecord(promo));
  }
  for (const discount of seedCouponDiscounts) {
    const code = couponDiscountKey(discount.description);
    if (await stores.promoCodes.get(code)) continue;
    await stores.promoCodes.put({
      code,
      rules: discount.rules.map((r) =>
        ruleFromDollars({
          discount_type: r.discount_type,
          discount_value: r.discount_value,
          service_id: r.service ? seedGuid(`service:${r.service}`) : null,
          service_type: r.service_type,
        }),
      ),
      validFrom: null,
      validTo: null,
      maxUsesPerGuest: 1,
      couponDiscount: true,
    });
  }
}

async function seedFirstStart(
  stores: Pick<Stores, "promoCodes" | "centerPricing" | "accounts" | "guestDetails">,
  passwordCost: PasswordCost,
): Promise<void> {
  await seedDemoAccount(stores, passwordCost);
  for (const promo of seedPromos) await stores.promoCodes.put(promoRecord(promo));
  for (const center of seedCenters.filter((c) => c.prepaid)) {
    for (const service of seedServices.filter((s) => !s.isAddOn)) {
      await stores.centerPricing.put({
        centerId: seedGuid(`center:${center.code}`),
        serviceId: seedGuid(`service:${service.code}`),
        price: centsFromDollars(Math.round(service.price * center.priceLevel)),
        isPrepaidService: true,
      });
    }
  }
}

type SeedPromo = (typeof seedPromos)[number];

function promoRecord(promo: SeedPromo): PromoCode {
  return {
    code: promo.code,
    rules: promo.rules.map((r) =>
      ruleFromDollars({
        discount_type: r.discount_type,
        discount_value: r.discount_value,
        service_id: r.service ? seedGuid(`service:${r.service}`) : null,
        service_type: r.service_type,
      }),
    ),
    validFrom: promo.validFrom,
    validTo: promo.validTo,
    maxUsesPerGuest: promo.maxUsesPerGuest,
  };
}

/**
 * The growth configuration (decision 032): the price and offer tiers, a partner's prices and the
 * referral offer's promo code, added to stores made before them too (once: when no tiers exist).
 */
async function seedGrowth(stores: Pick<Stores, "promoCodes" | "pricing" | "centerPricing">): Promise<void> {
  if (await stores.pricing.tiers()) return;
  const service = (code: string) => seedGuid(`service:${code}`);
  for (const center of seedCenters.filter((c) => c.prepaid)) {
    for (const own of seedCenterPrices) {
      await stores.centerPricing.put({
        centerId: seedGuid(`center:${center.code}`),
        serviceId: service(own.service),
        price: centsFromDollars(own.price),
        isPrepaidService: true,
      });
    }
  }
  for (const promo of seedPromos.filter((p) => p.code === DEFAULT_PRICE_TIER))
    await stores.promoCodes.put(promoRecord(promo));
  for (const partner of seedPartners) {
    await stores.pricing.putPartner({
      partnerType: partner.partnerType,
      name: partner.name,
      prices: Object.entries(partner.prices).map(([code, dollars]) => ({
        serviceId: service(code),
        price: centsFromDollars(dollars),
      })),
    });
  }
  // No add-on LHR prices: the sandbox prices each area per clinic, and a chain-wide price by service
  // id would differ from it at the dearer clinics (the collection, when filled, overrides them).
  await stores.pricing.putTiers({
    priceTiers: seedPriceTiers.map((t) => ({
      code: t.code,
      charge: centsFromDollars(t.charge),
      serviceIds: t.services.map(service),
    })),
    defaultPriceTier: DEFAULT_PRICE_TIER,
    offerTiers: seedOfferTiers.map((t) => ({ percent: t.percent, serviceIds: t.services.map(service), code: t.code })),
  });
}

/**
 * The demo guest's account, as registering makes one (docs/decisions/006): linked to her guest,
 * her home clinic, a hashed password, and her guest details marked as having set one. Left as it
 * is when the email already has an account.
 */
async function seedDemoAccount(
  stores: Pick<Stores, "accounts" | "guestDetails">,
  passwordCost: PasswordCost,
): Promise<void> {
  const { email } = SEED_DEMO_GUEST;
  if (await stores.accounts.getByEmail(email)) return;
  const createdAt = Date.now();
  await stores.accounts.create({
    id: randomUUID(),
    email,
    guestId: DEMO_GUEST_ID,
    centerId: seedGuid(`center:${SEED_DEMO_GUEST.centerCode}`),
    passwordHash: await hashPassword(DEMO_ACCOUNT_PASSWORD, passwordCost),
    createdAt,
    passwordChangedAt: createdAt,
    referralCode: null,
  });
  if (await stores.guestDetails.get(email)) await stores.guestDetails.update(email, { is_password_set: true });
  else
    await stores.guestDetails.create({ email, guest_id: DEMO_GUEST_ID, is_password_set: true, is_return_user: false });
}
