import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chunk, type DocumentStore, type PaymentAttempt } from "./document-store.server";
import { createSqliteStore } from "./sqlite-store.server";

let store: DocumentStore;
beforeEach(() => {
  store = createSqliteStore(":memory:");
});
afterEach(async () => {
  await store.close();
});

describe("guestDetails", () => {
  it("creates a guest and finds it by email, ignoring case and spaces", async () => {
    await store.createGuestDetails({ email: "Ana@Example.com", guest_id: "g-1", is_password_set: false, is_return_user: false });
    expect(await store.getGuestDetails(" ana@example.COM ")).toEqual({
      email: "Ana@Example.com",
      guest_id: "g-1",
      is_password_set: false,
      is_return_user: false,
      promo_codes: {},
    });
    expect(await store.getGuestDetails("other@example.com")).toBeNull();
  });

  it("refuses a second record for the same email", async () => {
    await store.createGuestDetails({ email: "ana@example.com", guest_id: "g-1", is_password_set: false, is_return_user: false });
    await expect(store.createGuestDetails({ email: "ANA@example.com", guest_id: "g-2", is_password_set: false, is_return_user: false })).rejects.toThrow();
  });

  it("updates is_password_set and is_return_user", async () => {
    await store.createGuestDetails({ email: "ana@example.com", guest_id: "g-1", is_password_set: false, is_return_user: false });
    await store.updateGuestDetails("ana@example.com", { is_password_set: true });
    await store.updateGuestDetails("ana@example.com", { is_return_user: true });
    expect(await store.getGuestDetails("ana@example.com")).toMatchObject({ is_password_set: true, is_return_user: true });
    await expect(store.updateGuestDetails("nobody@example.com", { is_password_set: true })).rejects.toThrow(/not found/);
  });

  it("counts promo code uses up and down, never below zero", async () => {
    await store.createGuestDetails({ email: "ana@example.com", guest_id: "g-1", is_password_set: false, is_return_user: false });
    expect(await store.adjustPromoCodeCount("ana@example.com", "GLOW50", 1)).toBe(1);
    expect(await store.adjustPromoCodeCount("ana@example.com", "GLOW50", 1)).toBe(2);
    expect(await store.adjustPromoCodeCount("ana@example.com", "GLOW50", -1)).toBe(1);
    expect(await store.adjustPromoCodeCount("ana@example.com", "OTHER", -1)).toBe(0);
    expect((await store.getGuestDetails("ana@example.com"))?.promo_codes).toEqual({ GLOW50: 1, OTHER: 0 });
  });
});

describe("centerPricing", () => {
  it("finds prices for any number of service ids at one center", async () => {
    const ids = Array.from({ length: 23 }, (_, i) => `svc-${i}`);
    for (const id of ids) await store.putCenterPrice({ centerId: "c-1", serviceId: id, price: 5000, isPrepaidService: id === "svc-3" });
    await store.putCenterPrice({ centerId: "c-2", serviceId: "svc-1", price: 9999, isPrepaidService: false });
    const prices = await store.getCenterPricing("c-1", ids);
    expect(prices).toHaveLength(23);
    expect(prices.find((p) => p.serviceId === "svc-3")).toEqual({ centerId: "c-1", serviceId: "svc-3", price: 5000, isPrepaidService: true });
    expect(await store.getCenterPricing("c-1", [])).toEqual([]);
  });

  it("replaces a price on a second write", async () => {
    await store.putCenterPrice({ centerId: "c-1", serviceId: "s", price: 5000, isPrepaidService: false });
    await store.putCenterPrice({ centerId: "c-1", serviceId: "s", price: 7550, isPrepaidService: true });
    expect(await store.getCenterPricing("c-1", ["s"])).toEqual([{ centerId: "c-1", serviceId: "s", price: 7550, isPrepaidService: true }]);
  });
});

describe("partnerPricing", () => {
  it("is looked up by partner type in upper case", async () => {
    await store.putPartnerPricing({ partnerType: "groupon", prices: { s1: 4999 } });
    expect(await store.getPartnerPricing("Groupon")).toEqual({ partnerType: "GROUPON", prices: { s1: 4999 } });
    expect(await store.getPartnerPricing("other")).toBeNull();
  });
});

describe("impactAffiliateDetails", () => {
  it("creates a record, keeps it for the same click id, updates it for a new one", async () => {
    const first = await store.recordAffiliateClick({ user_id: "u1", user_email: "a@example.com", irclickid: "click-1", timestamp: 1000 });
    expect(first).toEqual({ user_id: "u1", user_email: "a@example.com", irclickid: "click-1", timestamp: 1000, isFtTreatedTriggered: false, isExpired: false });
    const same = await store.recordAffiliateClick({ user_id: "u1", user_email: "a@example.com", irclickid: "click-1", timestamp: 2000 });
    expect(same.timestamp).toBe(1000);
    const changed = await store.recordAffiliateClick({ user_id: "u1", user_email: "a@example.com", irclickid: "click-2", timestamp: 3000 });
    expect(changed).toMatchObject({ irclickid: "click-2", timestamp: 3000 });
    expect(await store.getAffiliateDetails("u1")).toMatchObject({ irclickid: "click-2" });
  });
});

describe("add-on LHR prices", () => {
  it("are keyed by service id", async () => {
    await store.putAddOnLhrPrice("a1", 9900);
    await store.putAddOnLhrPrice("a2", 12950);
    await store.putAddOnLhrPrice("a1", 8900);
    expect(await store.getAddOnLhrPrices(["a1", "a2", "a3"])).toEqual({ a1: 8900, a2: 12950 });
  });
});

describe("persistence", () => {
  it("keeps records in the SQLite file across reopening", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "store-"));
    const file = path.join(dir, "nested", "store.sqlite");
    const first = createSqliteStore(file);
    await first.createGuestDetails({ email: "ana@example.com", guest_id: "g-1", is_password_set: false, is_return_user: false });
    await first.close();
    const second = createSqliteStore(file);
    expect(await second.getGuestDetails("ana@example.com")).toMatchObject({ guest_id: "g-1" });
    await second.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe("chunk", () => {
  it("splits service ids into Firestore-sized chunks of 10", () => {
    const ids = Array.from({ length: 23 }, (_, i) => i);
    expect(chunk(ids).map((c) => c.length)).toEqual([10, 10, 3]);
    expect(chunk([])).toEqual([]);
  });
});

describe("payment attempts", () => {
  const attempt = (key: string, leaseUntil: number): PaymentAttempt => ({
    key, state: "started", leaseUntil, createdAt: 0, updatedAt: 0, bookingId: "b", slot: "2026-12-01T09:00:00", guestId: "g", centerId: "c",
    accountId: "a", prepaid: true, contact: null, promoCode: null, promoClaimed: false, promoApplied: false, confirmSentAt: null,
    invoiceId: null, appointmentId: null, invoiceItemIds: [], serviceNames: [], undoAs: null, chargeSentAt: null, notified: false,
  });

  it("gives a key to one request at a time, hands over a lapsed one, and keeps a finished one", async () => {
    expect((await store.claimPaymentAttempt(attempt("k", 1_000), 0)).state).toBe("claimed");
    expect((await store.claimPaymentAttempt(attempt("k", 2_000), 500)).state).toBe("busy");
    await store.savePaymentAttempt({ ...(await store.getPaymentAttempt("k"))!, state: "confirmed", invoiceId: "i" });
    const takeover = await store.claimPaymentAttempt(attempt("k", 3_000), 1_500);
    expect(takeover).toMatchObject({ state: "claimed", attempt: { state: "confirmed", invoiceId: "i", leaseUntil: 3_000 } });
    await store.savePaymentAttempt({ ...takeover.attempt, state: "booked", leaseUntil: 0 });
    expect((await store.claimPaymentAttempt(attempt("k", 9_000), 9_999)).state).toBe("final");
  });

  it("lists unfinished attempts nobody holds that have been idle long enough", async () => {
    await store.savePaymentAttempt({ ...attempt("idle", 0), updatedAt: 100 });
    await store.savePaymentAttempt({ ...attempt("held", 5_000), updatedAt: 100 });
    await store.savePaymentAttempt({ ...attempt("recent", 0), updatedAt: 900 });
    await store.savePaymentAttempt({ ...attempt("done", 0), state: "booked", updatedAt: 100 });
    expect((await store.listStalePaymentAttempts(1_000, 500, 10)).map((a) => a.key)).toEqual(["idle"]);
  });
});

describe("promo uses", () => {
  it("counts a use only while the guest has uses left, creating their record", async () => {
    const use = () => store.claimPromoUse({ email: "Ana@Example.com", guestId: "g-1", code: "GLOW50", maxUses: 1 });
    expect(await Promise.all([use(), use()])).toEqual([true, false]);
    expect(await store.getGuestDetails("ana@example.com")).toMatchObject({ guest_id: "g-1", promo_codes: { GLOW50: 1 } });
    expect(await store.claimPromoUse({ email: "ana@example.com", guestId: "g-1", code: "WELCOME10", maxUses: null })).toBe(true);
  });
});

describe("money in cents", () => {
  it("converts the dollars an older store file kept to cents when it opens it", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "store-cents-"));
    const file = path.join(dir, "store.sqlite");
    try {
      await createSqliteStore(file).close();
      // The file as it was before amounts were kept in cents.
      const old = new Database(file);
      old.exec(`DROP TABLE center_pricing;
        CREATE TABLE center_pricing (center_id TEXT NOT NULL, service_id TEXT NOT NULL, price REAL NOT NULL, is_prepaid_service INTEGER NOT NULL, PRIMARY KEY (center_id, service_id));
        DROP TABLE add_on_lhr_prices;
        CREATE TABLE add_on_lhr_prices (service_id TEXT PRIMARY KEY, price REAL NOT NULL);`);
      old.prepare("INSERT INTO center_pricing VALUES (?, ?, ?, ?)").run("c-1", "s-1", 19.99, 1);
      old.prepare("INSERT INTO add_on_lhr_prices VALUES (?, ?)").run("a-1", 59.5);
      old.prepare("INSERT INTO partner_pricing VALUES (?, ?)").run("GROUPON", JSON.stringify({ s1: 49.99, s2: 275 }));
      const rules = [
        { discount_type: "final_price", discount_value: 50, service_id: "s-1", service_type: "service" },
        { discount_type: "amount", discount_value: 0.3, service_id: null, service_type: "addon-service" },
        { discount_type: "percentage", discount_value: 10, service_id: null, service_type: "service" },
      ];
      old.prepare("INSERT INTO promo_codes VALUES (?, ?)").run("GLOW50", JSON.stringify({ code: "GLOW50", rules, validFrom: null, validTo: null, maxUsesPerGuest: 1 }));
      old.pragma("user_version = 4");
      old.close();

      const reopened = createSqliteStore(file);
      try {
        expect(await reopened.getCenterPricing("c-1", ["s-1"])).toEqual([{ centerId: "c-1", serviceId: "s-1", price: 1999, isPrepaidService: true }]);
        expect(await reopened.getAddOnLhrPrices(["a-1"])).toEqual({ "a-1": 5950 });
        expect(await reopened.getPartnerPricing("groupon")).toEqual({ partnerType: "GROUPON", prices: { s1: 4999, s2: 27500 } });
        expect((await reopened.getPromoCode("GLOW50"))?.rules.map((r) => r.discount_value)).toEqual([5000, 30, 10]);
      } finally {
        await reopened.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
