import { ruleFromDollars, type PromoCode } from "~/domain/discounts";
import { centsFromDollars } from "~/domain/money";
import type { DocumentStore } from "../store/document-store.server";
import { seedGuid } from "./db";
import { seedCenters, seedPromos, seedServices } from "./seed-data";

/**
 * With the sandbox as the back end, the embedded store gets the first-party records that belong
 * with the seeded chain: the promo codes and, for prepaid clinics, their center pricing. The seed
 * lists prices in dollars, as the sandbox's catalog serves them; the store keeps cents.
 */
export async function seedEmbeddedStore(store: DocumentStore): Promise<void> {
  if (await store.getPromoCode(seedPromos[0].code)) return;
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
    await store.putPromoCode(record);
  }
  for (const center of seedCenters.filter((c) => c.prepaid)) {
    for (const service of seedServices.filter((s) => !s.isAddOn)) {
      await store.putCenterPrice({
        centerId: seedGuid(`center:${center.code}`),
        serviceId: seedGuid(`service:${service.code}`),
        price: centsFromDollars(Math.round(service.price * center.priceLevel)),
        isPrepaidService: true,
      });
    }
  }
}
