import { Timestamp } from "firebase-admin/firestore";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { emulatorCredentialsJson, startFirestoreEmulator } from "../../tests/helpers/firestore-emulator";
import {
  addGuestEmailKeys,
  chunk,
  connectFirestore,
  createFirestoreStores,
  documentId,
} from "./firestore-store.server";
import { describeStoreContract } from "./store-contract";
import type { Stores } from "./stores.server";

describe("document ids", () => {
  it("keeps the keys documents were written under before as they are", () => {
    for (const key of [
      "GLOW50",
      "ana@example.com",
      "c-1_s-1",
      "3f2a9c0e-1b2d-4c5e-8f9a-0b1c2d3e4f5a",
      "a.b",
      "_x_",
      "__x",
    ])
      expect(documentId(key)).toBe(key);
  });

  it("never gives a path, a reserved id or the same id for two keys", () => {
    const keys = [
      "A/B",
      "A%2FB",
      "A%252FB",
      "/",
      "//",
      "%",
      "%2F",
      "",
      ".",
      "..",
      "...",
      "%2E",
      "%2E%2E",
      "__x__",
      "%5F_x__",
      "____",
      "__",
      "___",
      "a/b/c",
    ];
    const ids = keys.map(documentId);
    expect(new Set(ids).size).toBe(keys.length);
    for (const id of ids) {
      expect(id).not.toContain("/");
      expect(id).not.toMatch(/^(\.|\.\.|__.*__|)$/);
    }
  });
});

describe("chunk", () => {
  it("splits service ids into Firestore-sized chunks of 10", () => {
    const ids = Array.from({ length: 23 }, (_, i) => i);
    expect(chunk(ids).map((c) => c.length)).toEqual([10, 10, 3]);
    expect(chunk([])).toEqual([]);
  });
});

const emulator = await startFirestoreEmulator();
const available = "host" in emulator ? emulator : null;
if (!available) {
  console.warn(
    `Firestore adapter tests skipped: no Firestore emulator (${"unavailable" in emulator ? emulator.unavailable : ""}). ` +
      "Set FIRESTORE_EMULATOR_HOST to a running one, or install the Google Cloud CLI's Cloud Firestore emulator and Java.",
  );
}
afterAll(async () => {
  await available?.stop();
});

const credentialsJson = available ? emulatorCredentialsJson("demo-store") : "";
let projects = 0;

/** A Firestore client on the emulator, in a project of its own, so every test starts empty. */
function connect() {
  const { db, close } = connectFirestore({ projectId: `demo-store-${process.pid}-${++projects}`, credentialsJson });
  db.settings({ host: available!.host, ssl: false });
  return { db, close };
}

// An emulator on a busy machine is slow, the transactions that race for one record most: a longer
// timeout than the other unit tests', still a guard against a hang.
describe.skipIf(!available)("Firestore", { timeout: 60_000 }, () => {
  // A fresh emulator answers its first calls more slowly still: its JVM warms up.
  beforeAll(async () => {
    const { db, close } = connect();
    const ref = db.collection("warmUp").doc("first");
    await ref.set({ at: Date.now() });
    await db.runTransaction(async (tx) => (await tx.get(ref)).exists);
    await db.collection("warmUp").where("at", ">", 0).get();
    await close();
  }, 120_000);

  // Each test has a project of its own, so they run at once: most of their time is the emulator's
  // and the client's waits (a transaction that lost a race backs off for a second or more).
  describeStoreContract(
    "Firestore",
    () => {
      const { db, close } = connect();
      return createFirestoreStores(db, close);
    },
    { concurrent: true },
  );

  describe("documents the earlier client wrote", () => {
    let db: ReturnType<typeof connect>["db"];
    let stores: Stores;
    beforeEach(() => {
      const connection = connect();
      db = connection.db;
      stores = createFirestoreStores(db, connection.close);
    });
    afterEach(async () => {
      await stores.close();
    });

    const guests = () => db.collection("guestDetails");
    const legacyGuest = (email: string, promo_codes: Record<string, number> = {}) =>
      guests().add({ email, guest_id: "g-1", is_password_set: false, is_return_user: false, promo_codes });

    it("finds a guest under an automatic id by the email as typed or in lower case, and updates it where it is", async () => {
      const ref = await legacyGuest("ana@example.com");
      expect(await stores.guestDetails.get(" Ana@Example.com")).toEqual({
        email: "ana@example.com",
        guest_id: "g-1",
        is_password_set: false,
        is_return_user: false,
        promo_codes: {},
      });
      await stores.guestDetails.update("ANA@example.com", { is_password_set: true });
      expect((await ref.get()).data()).toMatchObject({
        email: "ana@example.com",
        is_password_set: true,
        emailKey: "ana@example.com",
      });
      expect((await guests().get()).size).toBe(1);
    });

    it("counts and gives back promo uses on that record, never on a copy", async () => {
      const ref = await legacyGuest("ana@example.com", { GLOW50: 1 });
      expect(
        await stores.guestDetails.claimPromoUse({
          email: "Ana@Example.com",
          guestId: "g-1",
          code: "GLOW50",
          maxUses: 1,
        }),
      ).toBe(false);
      expect(
        await stores.guestDetails.claimPromoUse({
          email: "Ana@Example.com",
          guestId: "g-1",
          code: "GLOW50",
          maxUses: 2,
        }),
      ).toBe(true);
      expect((await ref.get()).get("promo_codes")).toEqual({ GLOW50: 2 });
      await stores.guestDetails.releasePromoUse("ana@example.com", "GLOW50");
      expect((await ref.get()).get("promo_codes")).toEqual({ GLOW50: 1 });
      await expect(
        stores.guestDetails.create({
          email: "ANA@example.com",
          guest_id: "g-2",
          is_password_set: false,
          is_return_user: false,
        }),
      ).rejects.toThrow(/already exists/);
      expect((await guests().get()).size).toBe(1);
    });

    it("finds a guest whose email has capitals, whatever the case typed, once addGuestEmailKeys has run", async () => {
      const ref = await legacyGuest("Ana.Smith@Example.COM", { GLOW50: 1 });
      await legacyGuest("bo@example.com");
      await legacyGuest("Cy@Example.com");
      await stores.guestDetails.create({
        email: "Di@Example.com",
        guest_id: "g-4",
        is_password_set: false,
        is_return_user: false,
      });
      expect(await stores.guestDetails.get("Ana.Smith@Example.COM")).toMatchObject({ guest_id: "g-1" });

      expect(await addGuestEmailKeys(db, 2)).toBe(3);
      expect(await addGuestEmailKeys(db, 2)).toBe(0);
      expect(await stores.guestDetails.get("ana.smith@example.com")).toMatchObject({
        email: "Ana.Smith@Example.COM",
        promo_codes: { GLOW50: 1 },
      });
      expect(await stores.guestDetails.get("CY@EXAMPLE.COM")).toMatchObject({ email: "Cy@Example.com" });
      await stores.guestDetails.update("ANA.SMITH@example.com", { is_return_user: true });
      expect((await ref.get()).get("is_return_user")).toBe(true);
      expect((await guests().get()).size).toBe(4);
    });

    it("reads the shared collections' dollars as cents, under the ids they were written with", async () => {
      await db
        .collection("promoCodes")
        .doc("GLOW50")
        .set({
          code: "GLOW50",
          rules: [{ discount_type: "amount", discount_value: 19.99, service_id: null, service_type: "service" }],
          validFrom: null,
          validTo: null,
          maxUsesPerGuest: 1,
        });
      await db
        .collection("centerPricing")
        .doc("c-1_s-1")
        .set({ centerId: "c-1", serviceId: "s-1", price: 275, isPrepaidService: true });
      expect((await stores.promoCodes.get("glow50"))?.rules[0].discount_value).toBe(1999);
      expect(await stores.centerPricing.get("c-1", ["s-1"])).toEqual([
        { centerId: "c-1", serviceId: "s-1", price: 27500, isPrepaidService: true },
      ]);
      await stores.centerPricing.put({ centerId: "c-1", serviceId: "s-1", price: 5950, isPrepaidService: true });
      expect((await db.collection("centerPricing").doc("c-1_s-1").get()).get("price")).toBe(59.5);
      expect((await db.collection("centerPricing").get()).size).toBe(1);
    });

    it("keeps the pricing configuration in dollars, and reads a partner the earlier client wrote under another id", async () => {
      await db.collection("partnerPricing").add({ partnerType: "GROUPON", prices: { "s-1": 19.99, "s-2": 275 } });
      const found = await stores.pricing.partner("groupon");
      expect(
        found && { ...found, prices: [...found.prices].sort((a, b) => a.serviceId.localeCompare(b.serviceId)) },
      ).toEqual({
        partnerType: "GROUPON",
        name: "GROUPON",
        prices: [
          { serviceId: "s-1", price: 1999 },
          { serviceId: "s-2", price: 27_500 },
        ],
      });
      await stores.pricing.putPartner({
        partnerType: "groupon",
        name: "Groupon",
        prices: [{ serviceId: "s-1", price: 5950 }],
      });
      const partners = await db.collection("partnerPricing").get();
      expect(partners.docs.map((doc) => doc.data())).toEqual([
        { partnerType: "GROUPON", name: "Groupon", prices: { "s-1": 59.5 } },
      ]);
      await stores.pricing.putPartner({
        partnerType: "ClassPass",
        name: "ClassPass",
        prices: [{ serviceId: "s-1", price: 1 }],
      });
      expect((await db.collection("partnerPricing").doc("CLASSPASS").get()).data()).toEqual({
        partnerType: "CLASSPASS",
        name: "ClassPass",
        prices: { "s-1": 0.01 },
      });

      await db.collection("addOnLhrPrices").doc("a-1").set({ price: 59.5 });
      expect(await stores.pricing.addOnPrices(["a-1"])).toEqual([{ serviceId: "a-1", price: 5950 }]);
      await stores.pricing.putAddOnPrice({ serviceId: "a-2", price: 1999 });
      expect((await db.collection("addOnLhrPrices").doc("a-2").get()).data()).toEqual({ price: 19.99 });

      const tiers = {
        priceTiers: [{ code: "FT99", charge: 9999, serviceIds: ["s-1"] }],
        defaultPriceTier: "FT50RAF",
        offerTiers: [{ percent: 15, serviceIds: ["s-2"], code: "OFFER15" }],
      };
      await stores.pricing.putTiers(tiers);
      expect((await db.collection("pricingTiers").doc("current").get()).data()).toEqual({
        ...tiers,
        priceTiers: [{ code: "FT99", charge: 99.99, serviceIds: ["s-1"] }],
      });
      expect((await db.collection("pricingTiers").get()).size).toBe(1);
    });

    it("keeps affiliate details under the spec's field names, and reads records without a check time", async () => {
      await stores.affiliates.record({ userId: "g-1", userEmail: "mia@example.com", clickId: "ir-1", clickedAt: 100 });
      expect((await db.collection("impactAffiliateDetails").doc("g-1").get()).data()).toEqual({
        user_id: "g-1",
        user_email: "mia@example.com",
        irclickid: "ir-1",
        timestamp: 100,
        isFtTreatedTriggered: false,
        isExpired: false,
        checkedAt: null,
      });
      await db
        .collection("impactAffiliateDetails")
        .doc("g-2")
        .set({
          user_id: "g-2",
          user_email: "bo@example.com",
          irclickid: "ir-2",
          timestamp: Timestamp.fromMillis(50),
          isFtTreatedTriggered: false,
          isExpired: false,
        });
      const older = {
        user_id: "g-2",
        user_email: "bo@example.com",
        irclickid: "ir-2",
        timestamp: 50,
        isFtTreatedTriggered: false,
        isExpired: false,
        checkedAt: null,
      };
      expect(await stores.affiliates.get("g-2")).toEqual(older);
      expect(await stores.affiliates.listOpen(500, 10)).toEqual([older, await stores.affiliates.get("g-1")]);
    });

    it("keeps a referral code under the code, an account's pointer to it, and a referral under the friend's email in lower case", async () => {
      const code = await stores.referrals.codeFor(
        { accountId: "a-1", guestId: "g-1", firstName: "Mia", centerId: "c-1" },
        () => "mia-x1",
        100,
      );
      expect((await db.collection("referralCodes").doc("MIA-X1").get()).data()).toEqual(code);
      expect((await db.collection("referralCodeOwners").doc("a-1").get()).get("code")).toBe("MIA-X1");
      await stores.referrals.add(
        {
          friendEmail: "Bo@Example.com",
          friendFirstName: "Bo",
          friendGuestId: null,
          code: "MIA-X1",
          referrerAccountId: "a-1",
          referrerGuestId: "g-1",
          createdAt: 100,
          state: "registered",
          checkedAt: null,
          rewardPoints: 0,
          rewardedAt: null,
          visitId: null,
          creditSentAt: null,
          creditTriedAt: null,
        },
        100,
      );
      expect((await db.collection("referrals").doc("bo@example.com").get()).get("friendEmail")).toBe("Bo@Example.com");
    });

    it("counts a code's friends written before its counter existed, then keeps the count in referralCounts", async () => {
      for (const email of ["old.1@example.com", "old.2@example.com"]) {
        await db.collection("referrals").doc(email).set({
          friendEmail: email,
          friendFirstName: "Old",
          friendGuestId: "g-old",
          code: "MIA-X1",
          referrerAccountId: "a-1",
          referrerGuestId: "g-1",
          createdAt: 100,
          state: "registered",
          checkedAt: null,
          rewardPoints: 0,
          rewardedAt: null,
          visitId: null,
          emailKey: email,
        });
      }
      const friend = (email: string) => ({
        friendEmail: email,
        friendFirstName: "Bo",
        friendGuestId: null,
        code: "MIA-X1",
        referrerAccountId: "a-1",
        referrerGuestId: "g-1",
        createdAt: 200,
        state: "registered" as const,
        checkedAt: null,
        rewardPoints: 0,
        rewardedAt: null,
        visitId: null,
        creditSentAt: null,
        creditTriedAt: null,
      });
      expect(await stores.referrals.add(friend("new.1@example.com"), 3)).toBe("added");
      expect((await db.collection("referralCounts").doc("MIA-X1").get()).get("friends")).toBe(3);
      expect(await stores.referrals.add(friend("new.2@example.com"), 3)).toBe("used-up");
      expect(await stores.referrals.release("new.1@example.com", "MIA-X1")).toBe(true);
      expect((await db.collection("referralCounts").doc("MIA-X1").get()).get("friends")).toBe(2);
    });

    it("counts a reward written before credits were noted as sent, even once it is changed", async () => {
      await db.collection("referrals").doc("cy@example.com").set({
        friendEmail: "cy@example.com",
        friendFirstName: "Cy",
        friendGuestId: "g-cy",
        code: "MIA-X1",
        referrerAccountId: "a-1",
        referrerGuestId: "g-1",
        createdAt: 100,
        state: "rewarded",
        checkedAt: 200,
        rewardPoints: 5000,
        rewardedAt: 300,
        visitId: "v-1",
        emailKey: "cy@example.com",
      });
      expect((await stores.referrals.forFriend("cy@example.com"))?.creditSentAt).toBe(300);
      await stores.referrals.update("cy@example.com", { checkedAt: 400 });
      expect(await stores.referrals.listUncredited(10_000, 10)).toEqual([]);
      expect((await db.collection("referrals").doc("cy@example.com").get()).get("creditPendingSince")).toBeNull();
    });
  });
});
