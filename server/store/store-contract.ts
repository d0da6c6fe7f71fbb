import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PromoCode } from "~/domain/discounts";
import { DuplicateAccountError, type PaymentAttempt, type Purchase, type Stores } from "./stores.server";

/**
 * What every adapter of the store ports promises, run against each of them (SQLite in
 * sqlite-store.test.ts, Firestore against an emulator in firestore-store.test.ts). `open` gives
 * empty stores for each test.
 */
export function describeStoreContract(name: string, open: () => Stores | Promise<Stores>): void {
  describe(`${name}: store contract`, () => {
    let stores: Stores;
    beforeEach(async () => {
      stores = await open();
    });
    afterEach(async () => {
      await stores.close();
    });

    it("answers a readiness ping", async () => {
      await expect(stores.ping()).resolves.toBeUndefined();
    });

    describe("guest details", () => {
      const ana = { email: "Ana@Example.com", guest_id: "g-1", is_password_set: false, is_return_user: false };

      it("creates a guest and finds it by email, ignoring case and spaces", async () => {
        await stores.guestDetails.create(ana);
        expect(await stores.guestDetails.get(" ana@example.COM ")).toEqual({ ...ana, promo_codes: {} });
        expect(await stores.guestDetails.get("other@example.com")).toBeNull();
      });

      it("refuses a second record for the same email in another case", async () => {
        await stores.guestDetails.create(ana);
        await expect(stores.guestDetails.create({ ...ana, email: "ANA@example.com", guest_id: "g-2" })).rejects.toThrow(/already exists/);
        expect(await stores.guestDetails.get("ana@example.com")).toMatchObject({ guest_id: "g-1" });
      });

      it("updates is_password_set and is_return_user, and refuses an email without a record", async () => {
        await stores.guestDetails.create(ana);
        await stores.guestDetails.update("ANA@example.com", { is_password_set: true });
        await stores.guestDetails.update("ana@example.com", { is_return_user: true });
        expect(await stores.guestDetails.get("ana@example.com")).toMatchObject({ is_password_set: true, is_return_user: true, guest_id: "g-1" });
        await expect(stores.guestDetails.update("nobody@example.com", { is_password_set: true })).rejects.toThrow(/no guestDetails record/i);
      });

      it("keeps an email with a slash or a percent sign apart from the others", async () => {
        await stores.guestDetails.create({ ...ana, email: "a/b@example.com", guest_id: "slash" });
        await stores.guestDetails.create({ ...ana, email: "a%2Fb@example.com", guest_id: "percent" });
        await stores.guestDetails.create({ ...ana, email: "..", guest_id: "dots" });
        expect(await stores.guestDetails.get("A/B@example.com")).toMatchObject({ guest_id: "slash" });
        expect(await stores.guestDetails.get("a%2fb@example.com")).toMatchObject({ guest_id: "percent" });
        expect(await stores.guestDetails.get("..")).toMatchObject({ guest_id: "dots" });
        expect(await stores.guestDetails.get("a/c@example.com")).toBeNull();
        expect(await stores.guestDetails.get("__a__")).toBeNull();
      });

      it("counts a promo use only while the guest has uses left, creating their record, whatever the email's case", async () => {
        const use = (email: string) => stores.guestDetails.claimPromoUse({ email, guestId: "g-1", code: "GLOW50", maxUses: 1 });
        // Either may win the race; the other finds the use counted.
        expect((await Promise.all([use("Ana@Example.com"), use("ana@example.com")])).sort()).toEqual([false, true]);
        const guest = await stores.guestDetails.get("ANA@EXAMPLE.COM");
        expect(guest).toEqual({ email: expect.stringMatching(/^(Ana@Example\.com|ana@example\.com)$/), guest_id: "g-1", is_password_set: false, is_return_user: false, promo_codes: { GLOW50: 1 } });
        expect(await stores.guestDetails.claimPromoUse({ email: "ana@example.com", guestId: "g-1", code: "WELCOME10", maxUses: null })).toBe(true);
        expect(await stores.guestDetails.claimPromoUse({ email: "ana@example.com", guestId: "g-1", code: "WELCOME10", maxUses: null })).toBe(true);
        expect((await stores.guestDetails.get("ana@example.com"))?.promo_codes).toEqual({ GLOW50: 1, WELCOME10: 2 });
      });

      it("counts uses on the record a guest already has", async () => {
        await stores.guestDetails.create({ ...ana, is_password_set: true });
        expect(await stores.guestDetails.claimPromoUse({ email: "ana@example.com", guestId: "g-other", code: "GLOW50", maxUses: 2 })).toBe(true);
        expect(await stores.guestDetails.get("ana@example.com")).toEqual({ ...ana, is_password_set: true, promo_codes: { GLOW50: 1 } });
      });

      it("gives a use back, never below zero, so the code can be used again", async () => {
        const use = () => stores.guestDetails.claimPromoUse({ email: "ana@example.com", guestId: "g-1", code: "GLOW50", maxUses: 1 });
        expect(await use()).toBe(true);
        await stores.guestDetails.releasePromoUse("ANA@example.com", "GLOW50");
        await stores.guestDetails.releasePromoUse("ana@example.com", "GLOW50");
        expect((await stores.guestDetails.get("ana@example.com"))?.promo_codes.GLOW50).toBe(0);
        expect(await use()).toBe(true);
        expect(await use()).toBe(false);
        await expect(stores.guestDetails.releasePromoUse("nobody@example.com", "GLOW50")).rejects.toThrow(/no guestDetails record/i);
      });

      it("counts codes with dots and slashes as codes, not as field paths", async () => {
        for (const code of ["A.B", "A/B", "A`B"]) {
          expect(await stores.guestDetails.claimPromoUse({ email: "ana@example.com", guestId: "g-1", code, maxUses: 1 })).toBe(true);
        }
        expect((await stores.guestDetails.get("ana@example.com"))?.promo_codes).toEqual({ "A.B": 1, "A/B": 1, "A`B": 1 });
      });
    });

    describe("center pricing", () => {
      it("finds prices for any number of service ids at one center", async () => {
        const ids = Array.from({ length: 23 }, (_, i) => `svc-${i}`);
        for (const id of ids) await stores.centerPricing.put({ centerId: "c-1", serviceId: id, price: 5000, isPrepaidService: id === "svc-3" });
        await stores.centerPricing.put({ centerId: "c-2", serviceId: "svc-1", price: 9999, isPrepaidService: false });
        const prices = await stores.centerPricing.get("c-1", ids);
        expect(prices).toHaveLength(23);
        expect(prices.find((p) => p.serviceId === "svc-3")).toEqual({ centerId: "c-1", serviceId: "svc-3", price: 5000, isPrepaidService: true });
        expect(await stores.centerPricing.get("c-1", [])).toEqual([]);
        expect(await stores.centerPricing.get("c-3", ["svc-1"])).toEqual([]);
      });

      it("replaces a price on a second write, to the cent", async () => {
        await stores.centerPricing.put({ centerId: "c-1", serviceId: "s", price: 5000, isPrepaidService: false });
        await stores.centerPricing.put({ centerId: "c-1", serviceId: "s", price: 1999, isPrepaidService: true });
        expect(await stores.centerPricing.get("c-1", ["s"])).toEqual([{ centerId: "c-1", serviceId: "s", price: 1999, isPrepaidService: true }]);
      });

      it("keeps ids with slashes and underscores apart", async () => {
        await stores.centerPricing.put({ centerId: "c/1", serviceId: "s", price: 100, isPrepaidService: false });
        await stores.centerPricing.put({ centerId: "a_b", serviceId: "c", price: 200, isPrepaidService: false });
        await stores.centerPricing.put({ centerId: "a", serviceId: "b_c", price: 300, isPrepaidService: false });
        expect(await stores.centerPricing.get("c/1", ["s"])).toEqual([{ centerId: "c/1", serviceId: "s", price: 100, isPrepaidService: false }]);
        expect((await stores.centerPricing.get("a_b", ["c"])).map((p) => p.price)).toEqual([200]);
        expect((await stores.centerPricing.get("a", ["b_c"])).map((p) => p.price)).toEqual([300]);
      });
    });

    describe("promo codes", () => {
      const promo = (code: string, maxUsesPerGuest: number | null = 1): PromoCode => ({
        code,
        rules: [
          { discount_type: "amount", discount_value: 1999, service_id: null, service_type: "service" },
          { discount_type: "percentage", discount_value: 15, service_id: "s-1", service_type: "addon-service" },
        ],
        validFrom: "2026-01-01",
        validTo: null,
        maxUsesPerGuest,
      });

      it("finds a code in any case, with its rules in cents, and replaces it on a second write", async () => {
        expect(await stores.promoCodes.get("GLOW50")).toBeNull();
        await stores.promoCodes.put(promo("glow50"));
        expect(await stores.promoCodes.get(" Glow50 ")).toEqual(promo("GLOW50"));
        await stores.promoCodes.put(promo("GLOW50", null));
        expect((await stores.promoCodes.get("glow50"))?.maxUsesPerGuest).toBeNull();
      });

      it("looks up a code typed with a slash, dots or underscores as a code: nothing found, nothing thrown", async () => {
        for (const code of ["A/B", "A/B/C", "/", ".", "..", "__X__", "__", "", "%", "A%2FB"]) {
          expect(await stores.promoCodes.get(code)).toBeNull();
        }
      });

      it("keeps such codes apart when they exist", async () => {
        const codes = ["A/B", "A/B/C", "A%2FB", "..", ".", "__X__", "%"];
        for (const [i, code] of codes.entries()) await stores.promoCodes.put(promo(code, i));
        for (const [i, code] of codes.entries()) expect(await stores.promoCodes.get(code.toLowerCase())).toEqual(promo(code, i));
        expect(await stores.promoCodes.get("AB")).toBeNull();
      });
    });

    describe("accounts", () => {
      const account = { id: "a-1", email: "Mia@Example.com", guestId: "g-1", centerId: "c-1", passwordHash: "hash-1", createdAt: 1, passwordChangedAt: 1 };

      it("finds an account by email in any case and by id, and changes its password", async () => {
        await stores.accounts.create(account);
        expect(await stores.accounts.getByEmail(" mia@example.COM")).toEqual(account);
        expect(await stores.accounts.getById("a-1")).toEqual(account);
        await stores.accounts.updatePassword("a-1", "hash-2", 5);
        expect(await stores.accounts.getByEmail("mia@example.com")).toEqual({ ...account, passwordHash: "hash-2", passwordChangedAt: 5 });
        expect(await stores.accounts.getByEmail("nobody@example.com")).toBeNull();
        expect(await stores.accounts.getById("a-2")).toBeNull();
      });

      it("keeps the referral code an account was registered with", async () => {
        await stores.accounts.create({ ...account, referralCode: "FRIEND-MIA" });
        expect(await stores.accounts.getById("a-1")).toEqual({ ...account, referralCode: "FRIEND-MIA" });
      });

      it("refuses a second account for the same email", async () => {
        await stores.accounts.create(account);
        await expect(stores.accounts.create({ ...account, id: "a-2", email: "MIA@example.com" })).rejects.toBeInstanceOf(DuplicateAccountError);
        expect(await stores.accounts.getById("a-2")).toBeNull();
      });

      it("keeps an email with a slash apart", async () => {
        await stores.accounts.create({ ...account, email: "m/a@example.com" });
        expect(await stores.accounts.getByEmail("M/A@example.com")).toMatchObject({ id: "a-1" });
        expect(await stores.accounts.getByEmail("m")).toBeNull();
      });
    });

    describe("user sessions", () => {
      const session = (tokenHash: string, userId = "u-1") => ({ tokenHash, userId, createdAt: 1, expiresAt: 2, revoked: false });

      it("keeps a session until it is revoked; revoking an unknown one does nothing", async () => {
        await stores.userSessions.create(session("t-1"));
        expect(await stores.userSessions.get("t-1")).toEqual(session("t-1"));
        await stores.userSessions.revoke("t-1");
        expect(await stores.userSessions.get("t-1")).toEqual({ ...session("t-1"), revoked: true });
        await stores.userSessions.revoke("unknown");
        expect(await stores.userSessions.get("unknown")).toBeNull();
      });

      it("revokes all of a user's sessions but the one given", async () => {
        for (const token of ["t-1", "t-2", "t-3"]) await stores.userSessions.create(session(token));
        await stores.userSessions.create(session("other", "u-2"));
        await stores.userSessions.revokeAllOfUser("u-1", "t-2");
        expect((await stores.userSessions.get("t-1"))?.revoked).toBe(true);
        expect((await stores.userSessions.get("t-2"))?.revoked).toBe(false);
        expect((await stores.userSessions.get("t-3"))?.revoked).toBe(true);
        expect((await stores.userSessions.get("other"))?.revoked).toBe(false);
        await stores.userSessions.revokeAllOfUser("u-1");
        expect((await stores.userSessions.get("t-2"))?.revoked).toBe(true);
      });
    });

    describe("one-time codes", () => {
      const code = { email: "Mia@Example.com", codeHash: "h-1", expiresAt: 10, attempts: 0, sentAt: 1 };

      it("keeps one code per email, counts wrong guesses, and deletes it", async () => {
        await stores.oneTimeCodes.put(code);
        expect(await stores.oneTimeCodes.get("mia@example.com")).toEqual(code);
        expect(await stores.oneTimeCodes.countWrongGuess("MIA@example.com")).toBe(1);
        expect(await stores.oneTimeCodes.countWrongGuess("mia@example.com")).toBe(2);
        await stores.oneTimeCodes.put({ ...code, email: "mia@example.com", codeHash: "h-2", sentAt: 5 });
        expect(await stores.oneTimeCodes.get("Mia@Example.com")).toEqual({ ...code, email: "mia@example.com", codeHash: "h-2", sentAt: 5 });
        await stores.oneTimeCodes.delete("MIA@EXAMPLE.COM");
        expect(await stores.oneTimeCodes.get("mia@example.com")).toBeNull();
        expect(await stores.oneTimeCodes.countWrongGuess("mia@example.com")).toBe(0);
      });
    });

    describe("visit revisions", () => {
      it("counts each change of a visit, from 0, whatever the id's case", async () => {
        const visit = `V-${crypto.randomUUID()}`;
        expect(await stores.visitRevisions.get(visit)).toBe(0);
        expect(await stores.visitRevisions.bump(visit, 1)).toBe(1);
        expect(await stores.visitRevisions.bump(visit.toLowerCase(), 2)).toBe(2);
        expect(await stores.visitRevisions.get(visit)).toBe(2);
        expect(await stores.visitRevisions.get(`${visit}-other`)).toBe(0);
      });

      it("loses no change made at the same time", async () => {
        const visit = `v-${crypto.randomUUID()}`;
        const numbers = await Promise.all([1, 2, 3, 4].map((n) => stores.visitRevisions.bump(visit, n)));
        expect([...numbers].sort()).toEqual([1, 2, 3, 4]);
        expect(await stores.visitRevisions.get(visit)).toBe(4);
      });
    });

    describe("payment attempts", () => {
      const attempt = (key: string, leaseUntil: number): PaymentAttempt => ({
        key, state: "started", leaseUntil, createdAt: 0, updatedAt: 0, bookingId: "b", slot: "2026-12-01T09:00:00", guestId: "g", centerId: "c",
        accountId: "a", prepaid: true, contact: null, promoCode: null, promoClaimed: false, promoApplied: false, confirmSentAt: null,
        invoiceId: null, appointmentId: null, invoiceItemIds: [], serviceNames: [], undoAs: null, chargeSentAt: null, notified: false,
      });

      it("gives a key to one request at a time, hands over a lapsed one, and keeps a finished one", async () => {
        expect((await stores.paymentAttempts.claim(attempt("k", 1_000), 0)).state).toBe("claimed");
        expect((await stores.paymentAttempts.claim(attempt("k", 2_000), 500)).state).toBe("busy");
        await stores.paymentAttempts.save({ ...(await stores.paymentAttempts.get("k"))!, state: "confirmed", invoiceId: "i" });
        const takeover = await stores.paymentAttempts.claim(attempt("k", 3_000), 1_500);
        expect(takeover).toMatchObject({ state: "claimed", attempt: { state: "confirmed", invoiceId: "i", leaseUntil: 3_000, updatedAt: 1_500 } });
        await stores.paymentAttempts.save({ ...takeover.attempt, state: "booked", leaseUntil: 0 });
        const final = await stores.paymentAttempts.claim(attempt("k", 9_000), 9_999);
        expect(final).toEqual({ state: "final", attempt: { ...takeover.attempt, state: "booked", leaseUntil: 0 } });
      });

      it("gives a new key to one of two requests sent at once", async () => {
        const claims = await Promise.all([stores.paymentAttempts.claim(attempt("k", 1_000), 0), stores.paymentAttempts.claim(attempt("k", 1_000), 0)]);
        expect(claims.map((c) => c.state).sort()).toEqual(["busy", "claimed"]);
      });

      it("lists unfinished attempts nobody holds that have been idle long enough, oldest first", async () => {
        await stores.paymentAttempts.save({ ...attempt("idle", 0), updatedAt: 100 });
        await stores.paymentAttempts.save({ ...attempt("older", 0), state: "charging", updatedAt: 50 });
        await stores.paymentAttempts.save({ ...attempt("held", 5_000), updatedAt: 100 });
        await stores.paymentAttempts.save({ ...attempt("recent", 0), updatedAt: 900 });
        await stores.paymentAttempts.save({ ...attempt("done", 0), state: "booked", updatedAt: 100 });
        expect((await stores.paymentAttempts.listStale(1_000, 500, 10)).map((a) => a.key)).toEqual(["older", "idle"]);
        expect((await stores.paymentAttempts.listStale(1_000, 500, 1)).map((a) => a.key)).toEqual(["older"]);
      });

      it("takes any key, slashes and dots included, as a key", async () => {
        for (const key of ["a/b", "a/b/c", "..", ".", "__k__", "%2F"]) expect(await stores.paymentAttempts.get(key)).toBeNull();
        for (const key of ["a/b", "a/b/c", "..", "__k__"]) expect((await stores.paymentAttempts.claim(attempt(key, 1_000), 0)).state).toBe("claimed");
        expect(await stores.paymentAttempts.get("a/b/c")).toEqual(attempt("a/b/c", 1_000));
        expect(await stores.paymentAttempts.get("__k__")).toEqual(attempt("__k__", 1_000));
        expect(await stores.paymentAttempts.get("a")).toBeNull();
      });
    });

    describe("purchases", () => {
      const purchase = (id: string, overrides: Partial<Purchase> = {}): Purchase => ({
        id, key: `u-1:${id}`, state: "started", leaseUntil: 0, createdAt: 100, updatedAt: 100, userId: "u-1", guestId: "g-1", centerId: "c-1",
        kind: "membership", itemId: "plan-1", itemName: "Glow membership", shownCents: 9900, giftCard: null, invoiceId: null, reference: null,
        invoiceRequestedAt: null, priceChecked: false, knownCards: null, accountId: null, chargeSentAt: null, verifyUri: null, paidCents: null, closed: false,
        giftCardSent: false, declineMessage: null, ...overrides,
      });

      it("creates one purchase per key and gives the first back for the same key", async () => {
        const first = purchase("p-1", { key: "u-1:form-1" });
        expect(await stores.purchases.createOnce(first)).toEqual({ created: true, purchase: first });
        const again = await stores.purchases.createOnce(purchase("p-2", { key: "u-1:form-1", itemId: "plan-2", shownCents: 1 }));
        expect(again).toEqual({ created: false, purchase: first });
        expect(await stores.purchases.get("p-1")).toEqual(first);
        expect(await stores.purchases.get("p-2")).toBeNull();
      });

      it("makes one purchase of two created at once with one key", async () => {
        const results = await Promise.all([
          stores.purchases.createOnce(purchase("p-1", { key: "u-1:form-1" })),
          stores.purchases.createOnce(purchase("p-2", { key: "u-1:form-1" })),
        ]);
        expect(results.map((r) => r.created).sort()).toEqual([false, true]);
        expect(results[0].purchase.id).toBe(results[1].purchase.id);
        expect(await stores.purchases.listForUser("u-1", 10)).toEqual([results[0].purchase]);
      });

      it("finds nothing and claims nothing under an unknown id, whatever it looks like", async () => {
        for (const id of ["p-unknown", "a/b", "..", "__p__"]) {
          expect(await stores.purchases.get(id)).toBeNull();
          expect(await stores.purchases.claim(id, 1_000, 0)).toBeNull();
        }
      });

      it("gives a purchase to one request at a time, hands over a lapsed one, and keeps a completed one", async () => {
        await stores.purchases.createOnce(purchase("p-1"));
        const claimed = await stores.purchases.claim("p-1", 1_000, 200);
        expect(claimed).toEqual({ state: "claimed", purchase: { ...purchase("p-1"), leaseUntil: 1_000, updatedAt: 200 } });
        expect(await stores.purchases.get("p-1")).toEqual(claimed!.purchase);
        expect(await stores.purchases.claim("p-1", 2_000, 500)).toEqual({ state: "busy", purchase: claimed!.purchase });
        await stores.purchases.save({ ...claimed!.purchase, state: "invoiced", invoiceId: "i-1" });
        const takeover = await stores.purchases.claim("p-1", 3_000, 1_500);
        expect(takeover).toMatchObject({ state: "claimed", purchase: { state: "invoiced", invoiceId: "i-1", leaseUntil: 3_000, updatedAt: 1_500 } });
        const completed = { ...takeover!.purchase, state: "completed" as const, leaseUntil: 0 };
        await stores.purchases.save(completed);
        expect(await stores.purchases.claim("p-1", 9_000, 9_999)).toEqual({ state: "final", purchase: completed });
        expect(await stores.purchases.get("p-1")).toEqual(completed);
        await stores.purchases.save(purchase("p-2", { state: "cancelled", leaseUntil: 0 }));
        expect(await stores.purchases.claim("p-2", 9_000, 9_999)).toEqual({ state: "final", purchase: purchase("p-2", { state: "cancelled", leaseUntil: 0 }) });
      });

      it("keeps every field of a purchase, a gift card's order and nulls included", async () => {
        const giftCard = purchase("p-gift", {
          kind: "gift-card", itemId: "tpl-1", itemName: "Birthday card", shownCents: 12_550, leaseUntil: 5_000, updatedAt: 4_000,
          giftCard: {
            templateId: "tpl-1", valueCents: 12_550, custom: true, occasionId: "birthday", recipientName: "Bo Lee", recipientEmail: "bo@example.com",
            message: "Happy birthday!\nLove, Ana", deliveryDate: "2026-12-24",
          },
          state: "paid", invoiceId: "i-9", reference: "GC-0009", invoiceRequestedAt: 1_000, knownCards: { count: 2, digest: "d-12" }, accountId: "acct-1",
          chargeSentAt: 3_000, verifyUri: "https://bank.example/3ds?x=1", paidCents: 12_550, closed: true, giftCardSent: true, declineMessage: "Try another card",
        });
        await stores.purchases.save(giftCard);
        expect(await stores.purchases.get("p-gift")).toEqual(giftCard);
        const cleared = { ...giftCard, giftCard: null, knownCards: null, invoiceId: null, reference: null, verifyUri: null, paidCents: null, declineMessage: null, closed: false };
        await stores.purchases.save(cleared);
        expect(await stores.purchases.get("p-gift")).toEqual(cleared);
      });

      it("lists the unfinished purchases nobody holds and idle long enough, oldest first", async () => {
        const rows: [string, Partial<Purchase>][] = [
          ["u-paid", { state: "paid", updatedAt: 300 }],
          ["u-charging", { state: "charging", updatedAt: 100 }],
          ["u-verifying", { state: "verifying", updatedAt: 200 }],
          ["u-held", { state: "paid", updatedAt: 100, leaseUntil: 9_000 }],
          ["u-recent", { state: "charging", updatedAt: 950 }],
          ["u-declined", { state: "declined", updatedAt: 100 }],
          ["u-done", { state: "completed", updatedAt: 100 }],
        ];
        for (const [id, overrides] of rows) await stores.purchases.createOnce(purchase(id, overrides));
        expect((await stores.purchases.listUnfinished(1_000, 900, 10)).map((p) => p.id)).toEqual(["u-charging", "u-verifying", "u-paid"]);
        expect((await stores.purchases.listUnfinished(1_000, 900, 2)).map((p) => p.id)).toEqual(["u-charging", "u-verifying"]);
        expect((await stores.purchases.listUnfinished(10_000, 900, 10)).map((p) => p.id)).toContain("u-held");
      });

      it("lists a user's purchases only, newest first, at most as many as asked", async () => {
        for (const [id, createdAt] of [["p-1", 100], ["p-3", 300], ["p-2", 200]] as const) await stores.purchases.createOnce(purchase(id, { createdAt }));
        await stores.purchases.createOnce(purchase("p-other", { key: "u-2:p-other", userId: "u-2", createdAt: 400 }));
        expect((await stores.purchases.listForUser("u-1", 10)).map((p) => p.id)).toEqual(["p-3", "p-2", "p-1"]);
        expect((await stores.purchases.listForUser("u-1", 2)).map((p) => p.id)).toEqual(["p-3", "p-2"]);
        expect(await stores.purchases.listForUser("u-2", 10)).toEqual([purchase("p-other", { key: "u-2:p-other", userId: "u-2", createdAt: 400 })]);
        expect(await stores.purchases.listForUser("u-3", 10)).toEqual([]);
      });

      it("takes any key, slashes and dots included, as a key", async () => {
        for (const [i, key] of ["a/b", "a/b/c", "..", "__k__", "%2F"].entries()) {
          expect((await stores.purchases.createOnce(purchase(`p-${i}`, { key }))).created).toBe(true);
        }
        expect(await stores.purchases.createOnce(purchase("p-9", { key: "a/b/c" }))).toEqual({ created: false, purchase: purchase("p-1", { key: "a/b/c" }) });
        expect(await stores.purchases.listForUser("u-1", 10)).toHaveLength(5);
      });
    });
  });
}
