import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookingTotal, chosenLines } from "~/domain/booking-total";
import type { Center, Service } from "~/domain/catalog";
import { startSandbox, TEST_API_KEY, type TestSandbox } from "../../tests/helpers/sandbox-server";
import { seededServices } from "../../tests/helpers/seeded-services";
import type { Services } from "../services";
import { seedGuid } from "../spa-sandbox/db";
import { createSpaClient } from "../spa/client.server";
import { createSqliteStores } from "../store/sqlite-store.server";
import type { Stores } from "../store/stores.server";
import { requireClinic } from "./catalog-view.server";
import { quote } from "./checkout.server";
import type { Draft } from "./draft.server";
import { draftAsPriced } from "./referral-offer.server";
import { treatmentPricing } from "./treatment-pricing.server";

/**
 * The treatment step totals each choice from one `treatmentPricing` (decision 056); the payment step
 * charges the quote of the draft that choice saves. The two must agree to the cent, for every kind
 * of treatment and with the codes a booking can carry.
 */

const AUSTIN = seedGuid("center:ATX");
const id = (code: string) => seedGuid(`service:${code}`);

let sandbox: TestSandbox;
let stores: Stores;
let services: Services;
let center: Center;
let catalog: Service[];

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => Date.parse("2026-11-30T15:00:00Z"), holdSeconds: 3600 });
  const spa = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
  stores = createSqliteStores(":memory:");
  services = await seededServices(spa, stores);
  ({ center, catalog } = await requireClinic(services, AUSTIN));
});
afterAll(async () => {
  await sandbox.stop();
  await stores.close();
});

/** The step's total of a choice, and the payment step's quote of the draft it saves. */
async function bothTotals(draft: Draft, serviceCode: string, addOnCodes: string[]) {
  const service = catalog.find((s) => s.id === id(serviceCode))!;
  const addOnIds = addOnCodes.map(id);
  const pricing = await treatmentPricing(services, {
    center,
    catalog,
    draft,
    service,
    user: null,
    packageSession: false,
  });
  const step = bookingTotal(chosenLines(pricing.lines, addOnIds), pricing.inputs).total;
  const saved: Draft = { ...draft, serviceId: service.id, addOnIds };
  const charged = await quote(services, center, catalog, await draftAsPriced(services, saved, { service, catalog }));
  return { step, charged: charged.total, subtotal: charged.subtotal };
}

const blank = (extra: Partial<Draft> = {}): Draft => ({ centerId: AUSTIN, addOnIds: [], therapistId: null, ...extra });

describe("the treatment step's total is the payment step's", () => {
  it("for a plain treatment, a facial with add-ons, and laser hair removal by its areas", async () => {
    for (const [service, addOns] of [
      ["SCULPT", []],
      ["FT-NEW", ["ADD-LED", "ADD-MASK", "FIXER"]],
      ["LHR", ["LHR-UNDERARM", "LHR-LOWERLEG"]],
      ["PEEL-GLOW", ["PEEL-AREA-FACE", "PEEL-ADD-NECK"]],
    ] as const) {
      const { step, charged, subtotal } = await bothTotals(blank(), service, [...addOns]);
      expect(subtotal).toBeGreaterThan(0);
      expect(step).toBe(charged);
    }
  });

  it("with a promo code on the booking, on the lines it matches and not on the others", async () => {
    await stores.promoCodes.put({
      code: "STEPTEST",
      rules: [
        { discount_type: "percentage", discount_value: 20, service_id: id("ADD-MASK"), service_type: "addon-service" },
        { discount_type: "amount", discount_value: 2500, service_id: null, service_type: "service" },
      ],
      validFrom: null,
      validTo: null,
      maxUsesPerGuest: null,
    });
    for (const addOns of [[], ["ADD-LED"], ["ADD-MASK", "ADD-LED"]]) {
      const { step, charged, subtotal } = await bothTotals(blank({ promoCode: "STEPTEST" }), "FT-NEW", addOns);
      expect(charged).toBeLessThan(subtotal);
      expect(step).toBe(charged);
    }
  });

  it("with a promo code valid only on other dates: none off on either", async () => {
    await stores.promoCodes.put({
      code: "LATERONLY",
      rules: [{ discount_type: "percentage", discount_value: 50, service_id: null, service_type: "service" }],
      validFrom: "2030-01-01",
      validTo: "2030-01-31",
      maxUsesPerGuest: null,
    });
    const { step, charged, subtotal } = await bothTotals(
      blank({ promoCode: "LATERONLY", date: "2026-12-03" }),
      "SCULPT",
      [],
    );
    expect([step, charged]).toEqual([subtotal, subtotal]);
  });

  it("with the offer tier a treatment is sold with, put on the booking as the payment step puts it", async () => {
    const tiers = await stores.pricing.tiers();
    await stores.pricing.putTiers({
      priceTiers: tiers?.priceTiers ?? [],
      defaultPriceTier: tiers?.defaultPriceTier ?? "FT50RAF",
      offerTiers: [{ percent: 25, serviceIds: [id("SCULPT")], code: "OFFER25" }],
    });
    const { step, charged, subtotal } = await bothTotals(blank(), "SCULPT", []);
    expect(charged).toBe(subtotal - Math.round(subtotal * 0.25));
    expect(step).toBe(charged);
  });
});
