import { ruleFromDollars, type PromoCode } from "~/domain/discounts";
import { centsFromDollars } from "~/domain/money";
import type { Stores } from "../store/stores.server";
import { seedGuid } from "./db";
import { seedCenters, seedPromos, seedServices } from "./seed-data";

/**
 * With the sandbox as the back end, the embedded stores get the first-party records that belong
 * with the seeded chain: the promo codes and, for prepaid clinics, their center pricing. The seed
 * lists prices in dollars, as the sandbox's catalog serves them; the stores keep cents.
 */
export async function seedEmbeddedStores(stores: Pick<Stores, "promoCodes" | "centerPricing">): Promise<void> {
  if (await stores.promoCodes.get(seedPromos[0].code)) return;
  for (const promo of seedPromos) {
    const record: PromoCode = {
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
    await stores.promoCodes.put(record);
  }
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
