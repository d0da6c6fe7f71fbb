import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sameId, type Service } from "~/domain/catalog";
import { DEFAULT_PRICE_TIER } from "~/domain/pricing";
import { startSandbox, TEST_API_KEY } from "../../tests/helpers/sandbox-server";
import { seededServices } from "../../tests/helpers/seeded-services";
import type { Draft } from "../booking/draft.server";
import type { Services } from "../services";
import { recordReferral } from "../referrals/referrals.server";
import { withAutomaticOffer } from "../booking/referral-offer.server";
import { seedGuid } from "../spa-sandbox/db";
import { createSpaClient, type SpaClient } from "../spa/client.server";
import { createSqliteStores } from "../store/sqlite-store.server";
import type { Stores } from "../store/stores.server";
import { offerFor, offerPrices, withAddOnPrices, withOfferPrices, type OfferPrices } from "./offer-prices.server";

/**
 * Partner and clinic prices against the sandbox's catalog and the seeded growth configuration
 * (decision 032): a price is offered only where a price tier charges exactly it, and the booking's
 * payment step starts with the offer code that charges the price the menu showed.
 */

/** Pay later (no clinic prices of its own). */
const AUSTIN = seedGuid("center:ATX");
/** Prepaid, list prices at level 1: the Clarifying Peel is $150 here instead of $175. */
const DALLAS = seedGuid("center:DAL");
const PEEL = seedGuid("service:PEEL-CLARIFY");
const FACIAL = seedGuid("service:FT-RET");
const NEW_CLIENT_FACIAL = seedGuid("service:FT-NEW");
const SCULPT = seedGuid("service:SCULPT");

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let spa: SpaClient;
let stores: Stores;
let services: Services;
let austin: Service[];
let dallas: Service[];

async function servicesWith(own: Stores): Promise<Services> {
  return seededServices(spa, own);
}

beforeAll(async () => {
  sandbox = await startSandbox();
  spa = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
  stores = createSqliteStores(":memory:");
  services = await servicesWith(stores);
  austin = (await services.catalog.listServices(AUSTIN))!;
  dallas = (await services.catalog.listServices(DALLAS))!;
});
afterAll(async () => {
  await sandbox.stop();
  await stores.close();
});

const find = (catalog: Service[], id: string) => catalog.find((s) => sameId(s.id, id))!;
/** The partner's and the clinic's prices, leaving out the chain's offer tiers (sculpting's 9% everywhere). */
const ownPrices = (offers: OfferPrices) => [...offers.byService.values()].filter((o) => o.source !== "offer");
/** Sculpting at 9% off its list price here, charged through OFFER9. */
const sculptOffer = (catalog: Service[]) => {
  const list = find(catalog, SCULPT).price;
  return {
    serviceId: find(catalog, SCULPT).id,
    list,
    price: list - Math.round((list * 9) / 100),
    source: "offer",
    code: "OFFER9",
  };
};

describe("offer prices", () => {
  it("the catalog is as the tests expect: list prices of $175 and $199 at both clinics", () => {
    expect(find(austin, PEEL).price).toBe(17500);
    expect(find(dallas, PEEL).price).toBe(17500);
    expect(find(austin, FACIAL).price).toBe(19900);
  });

  it("at a prepaid clinic, the Clarifying Peel at its own price of $150, charged through 150CHARGE", async () => {
    const offers = await offerPrices(services, { centerId: DALLAS, catalog: dallas });
    expect(offers.partner).toBeNull();
    expect(ownPrices(offers)).toEqual([
      { serviceId: find(dallas, PEEL).id, list: 17500, price: 15000, source: "center", code: "150CHARGE" },
    ]);
    expect(offerFor(offers, find(dallas, PEEL).id)).toMatchObject({ price: 15000, code: "150CHARGE" });
    expect(offerFor(offers, find(dallas, PEEL).id.toUpperCase())).toMatchObject({ price: 15000 });
    expect(offerFor(offers, find(dallas, FACIAL).id)).toBeNull();
  });

  it("at a pay-later clinic, only the chain's offer tiers", async () => {
    const offers = await offerPrices(services, { centerId: AUSTIN, catalog: austin });
    expect(offers.partner).toBeNull();
    expect([...offers.byService.values()]).toEqual([sculptOffer(austin)]);
  });

  it("an offer tier's percent off, rounded to the cent, charged through the tier's code; never the new-client facial's 0%", async () => {
    for (const catalog of [austin, dallas]) {
      const offers = await offerPrices(services, { centerId: catalog === austin ? AUSTIN : DALLAS, catalog });
      expect(offerFor(offers, SCULPT)).toEqual(sculptOffer(catalog));
      expect(offerFor(offers, NEW_CLIENT_FACIAL)).toBeNull();
    }
    expect(sculptOffer(austin).price).toBe(27300);
  });

  it("a partner's or the clinic's own price comes before the offer tier's", async () => {
    const own = createSqliteStores(":memory:");
    try {
      const via = await servicesWith(own);
      await own.pricing.putTiers({
        ...(await stores.pricing.tiers())!,
        offerTiers: [{ percent: 50, serviceIds: [PEEL, SCULPT], code: "OFFER9" }],
      });
      const atDallas = await offerPrices(via, { centerId: DALLAS, catalog: dallas });
      expect(offerFor(atDallas, PEEL)).toMatchObject({ price: 15000, source: "center", code: "150CHARGE" });
      expect(offerFor(atDallas, SCULPT)).toMatchObject({ price: find(dallas, SCULPT).price / 2, source: "offer" });
      // A tier with no campaign code to charge it is never offered.
      await own.pricing.putTiers({
        ...(await stores.pricing.tiers())!,
        offerTiers: [{ percent: 50, serviceIds: [SCULPT], code: null }],
      });
      expect(offerFor(await offerPrices(via, { centerId: AUSTIN, catalog: austin }), SCULPT)).toBeNull();
    } finally {
      await own.close();
    }
  });

  it("with the GlowPass partner (any case): its prices, charged through 100CHARGE and 150CHARGE", async () => {
    for (const partnerType of ["GLOWPASS", "glowpass", "GlowPass"]) {
      const offers = await offerPrices(services, { centerId: AUSTIN, catalog: austin, partnerType });
      expect(offers.partner).toEqual({ type: "GLOWPASS", name: "GlowPass" });
      expect(ownPrices(offers)).toHaveLength(2);
      expect(offerFor(offers, PEEL)).toEqual({
        serviceId: find(austin, PEEL).id,
        list: 17500,
        price: 10000,
        source: "partner",
        code: "100CHARGE",
      });
      expect(offerFor(offers, FACIAL)).toEqual({
        serviceId: find(austin, FACIAL).id,
        list: 19900,
        price: 15000,
        source: "partner",
        code: "150CHARGE",
      });
    }
    // The partner's price comes before the clinic's own.
    const atDallas = await offerPrices(services, { centerId: DALLAS, catalog: dallas, partnerType: "glowpass" });
    expect(offerFor(atDallas, PEEL)).toMatchObject({ price: 10000, source: "partner", code: "100CHARGE" });
  });

  it("an unknown partner has no prices: partner null, the clinic's own prices still offered", async () => {
    const unknown = await offerPrices(services, { centerId: AUSTIN, catalog: austin, partnerType: "NOSUCHPARTNER" });
    expect(unknown.partner).toBeNull();
    expect(ownPrices(unknown)).toEqual([]);
    const atDallas = await offerPrices(services, { centerId: DALLAS, catalog: dallas, partnerType: "nosuchpartner" });
    expect(atDallas.partner).toBeNull();
    expect(offerFor(atDallas, PEEL)).toMatchObject({ price: 15000, source: "center", code: "150CHARGE" });
  });

  it("a clinic's or a partner's price no tier charges is left out", async () => {
    const own = createSqliteStores(":memory:");
    try {
      const via = await servicesWith(own);
      await own.centerPricing.put({ centerId: AUSTIN, serviceId: FACIAL, price: 12345, isPrepaidService: false });
      // A price at the list, or above it, is no offer.
      await own.centerPricing.put({ centerId: AUSTIN, serviceId: SCULPT, price: 30000, isPrepaidService: false });
      await own.centerPricing.put({
        centerId: AUSTIN,
        serviceId: NEW_CLIENT_FACIAL,
        price: 99900,
        isPrepaidService: false,
      });
      expect(ownPrices(await offerPrices(via, { centerId: AUSTIN, catalog: austin }))).toEqual([]);

      await own.pricing.putPartner({
        partnerType: "oddpass",
        name: "OddPass",
        prices: [
          { serviceId: PEEL, price: 12345 },
          { serviceId: FACIAL, price: 15000 },
        ],
      });
      const offers = await offerPrices(via, { centerId: AUSTIN, catalog: austin, partnerType: "ODDPASS" });
      expect(offers.partner).toEqual({ type: "ODDPASS", name: "OddPass" });
      expect(ownPrices(offers)).toEqual([
        { serviceId: find(austin, FACIAL).id, list: 19900, price: 15000, source: "partner", code: "150CHARGE" },
      ]);
      // At a prepaid clinic, the partner's uncharged price leaves the clinic's own one, which a tier charges.
      const atDallas = await offerPrices(via, { centerId: DALLAS, catalog: dallas, partnerType: "oddpass" });
      expect(offerFor(atDallas, PEEL)).toEqual({
        serviceId: find(dallas, PEEL).id,
        list: 17500,
        price: 15000,
        source: "center",
        code: "150CHARGE",
      });
    } finally {
      await own.close();
    }
  });

  it("the menu's catalog has the offered prices in place of the list, and nothing else changed", async () => {
    const offers = await offerPrices(services, { centerId: DALLAS, catalog: dallas });
    const menu = withOfferPrices(dallas, offers);
    expect(menu).toHaveLength(dallas.length);
    menu.forEach((service, i) => {
      if (sameId(service.id, PEEL)) expect(service).toEqual({ ...dallas[i], price: 15000 });
      else if (sameId(service.id, SCULPT)) expect(service).toEqual({ ...dallas[i], price: sculptOffer(dallas).price });
      else expect(service).toBe(dallas[i]);
    });
  });
});

describe("the offer a booking starts with", () => {
  const draftFor = (
    centerId: string,
    service: Service,
    email = `guest.${randomUUID().slice(0, 8)}@example.com`,
    promoCode?: string,
  ): Draft => ({
    centerId,
    serviceId: service.id,
    addOnIds: [],
    therapistId: null,
    details: { firstName: "Zoe", lastName: "Tester", email, phone: "5125550000" },
    ...(promoCode ? { promoCode } : {}),
  });

  async function referred(email: string): Promise<void> {
    const owner = {
      code: `MIA-${"2345"}`,
      accountId: randomUUID(),
      guestId: randomUUID(),
      firstName: "Mia",
      centerId: AUSTIN,
      createdAt: 0,
    };
    expect(await recordReferral(services, owner, { email, firstName: "Zoe", guestId: null })).toBe("added");
  }

  it("a code the guest typed is kept", async () => {
    const email = `typed.${randomUUID().slice(0, 8)}@example.com`;
    await referred(email);
    for (const [centerId, catalog, id, partnerType] of [
      [AUSTIN, austin, NEW_CLIENT_FACIAL, undefined],
      [AUSTIN, austin, PEEL, "glowpass"],
      [DALLAS, dallas, PEEL, undefined],
    ] as const) {
      const draft = draftFor(centerId, find(catalog, id), email, "WELCOME10");
      expect(await withAutomaticOffer(services, draft, { service: find(catalog, id), catalog, partnerType })).toBe(
        draft,
      );
    }
  });

  it("a referred friend's first signature facial gets the referral offer, FT50RAF", async () => {
    const email = `Friend.${randomUUID().slice(0, 8)}@example.com`;
    await referred(email);
    const service = find(austin, NEW_CLIENT_FACIAL);
    const offered = await withAutomaticOffer(services, draftFor(AUSTIN, service, email.toLowerCase()), {
      service,
      catalog: austin,
    });
    expect(offered.promoCode).toBe("FT50RAF");
    expect(DEFAULT_PRICE_TIER).toBe("FT50RAF");
    // Even with a partner: the friend's offer comes first.
    expect(
      (
        await withAutomaticOffer(services, draftFor(AUSTIN, service, email), {
          service,
          catalog: austin,
          partnerType: "GLOWPASS",
        })
      ).promoCode,
    ).toBe("FT50RAF");
    // Another treatment of the friend's gets nothing from the referral.
    const facial = find(austin, FACIAL);
    expect(
      (await withAutomaticOffer(services, draftFor(AUSTIN, facial, email), { service: facial, catalog: austin }))
        .promoCode,
    ).toBeUndefined();
  });

  it("a friend whose referral was rewarded already, or an email never referred, gets nothing", async () => {
    const email = `rewarded.${randomUUID().slice(0, 8)}@example.com`;
    await referred(email);
    expect(await stores.referrals.reward(email, { points: 5000, visitId: randomUUID(), now: Date.now() })).toBe(true);
    const service = find(austin, NEW_CLIENT_FACIAL);
    expect(
      (await withAutomaticOffer(services, draftFor(AUSTIN, service, email), { service, catalog: austin })).promoCode,
    ).toBeUndefined();
    expect(
      (await withAutomaticOffer(services, draftFor(AUSTIN, service), { service, catalog: austin })).promoCode,
    ).toBeUndefined();
    const noDetails: Draft = { centerId: AUSTIN, serviceId: service.id, addOnIds: [], therapistId: null };
    expect(await withAutomaticOffer(services, noDetails, { service, catalog: austin })).toEqual(noDetails);
  });

  it("a partner visit's Clarifying Peel gets 100CHARGE; a prepaid clinic's, 150CHARGE; a pay-later clinic's, nothing", async () => {
    const peel = find(austin, PEEL);
    expect(
      (
        await withAutomaticOffer(services, draftFor(AUSTIN, peel), {
          service: peel,
          catalog: austin,
          partnerType: "glowpass",
        })
      ).promoCode,
    ).toBe("100CHARGE");
    const facial = find(austin, FACIAL);
    expect(
      (
        await withAutomaticOffer(services, draftFor(AUSTIN, facial), {
          service: facial,
          catalog: austin,
          partnerType: "GLOWPASS",
        })
      ).promoCode,
    ).toBe("150CHARGE");
    const atDallas = find(dallas, PEEL);
    expect(
      (await withAutomaticOffer(services, draftFor(DALLAS, atDallas), { service: atDallas, catalog: dallas }))
        .promoCode,
    ).toBe("150CHARGE");
    const draft = draftFor(AUSTIN, peel);
    expect(await withAutomaticOffer(services, draft, { service: peel, catalog: austin })).toEqual(draft);
    expect(
      await withAutomaticOffer(services, draft, { service: peel, catalog: austin, partnerType: "NOSUCHPARTNER" }),
    ).toEqual(draft);
  });
});

describe("laser hair removal area prices", () => {
  it("come from their own collection; other add-ons and areas without one keep the back end's price", async () => {
    const own = createSqliteStores(":memory:");
    try {
      const via = await servicesWith(own);
      const underarm = find(austin, seedGuid("service:LHR-UNDERARM"));
      const lip = find(austin, seedGuid("service:LHR-PF-LIP"));
      const led = find(austin, seedGuid("service:ADD-LED"));
      await own.pricing.putAddOnPrice({ serviceId: underarm.id, price: 8900 });
      await own.pricing.putAddOnPrice({ serviceId: lip.id, price: 4900 });
      await own.pricing.putAddOnPrice({ serviceId: led.id, price: 100 });
      const priced = await withAddOnPrices(via, austin);
      expect(find(priced, underarm.id).price).toBe(8900);
      expect(find(priced, lip.id).price).toBe(4900);
      expect(find(priced, led.id).price).toBe(led.price);
      // No collection prices (the seed has none): the back end's prices as they are.
      expect(await withAddOnPrices(services, austin)).toBe(austin);
    } finally {
      await own.close();
    }
  });
});
