import { describe, expect, test } from "vitest";
import type { PromoCode } from "~/domain/discounts";
import { MAX_FRIENDS_PER_CODE } from "~/domain/referrals";
import {
  DuplicateAccountError,
  type BookingRecovery,
  type PartnerPricing,
  type PaymentAttempt,
  type Purchase,
  type Referral,
  type Stores,
  type WaitlistEntry,
} from "./stores.server";

/**
 * What every adapter of the store ports promises, run against each of them (SQLite in
 * sqlite-store.test.ts, Firestore against an emulator in firestore-store.test.ts). `open` gives
 * empty stores for each test.
 */
/** The race: more friends than a code may refer, all at once, against the code's own cap. */
const CONCURRENT_FRIENDS = 40;
const CAP_UNDER_LOAD = MAX_FRIENDS_PER_CODE;

export function describeStoreContract(
  name: string,
  open: () => Stores | Promise<Stores>,
  options: { concurrent?: boolean } = {},
): void {
  /** Each test gets empty stores of its own, so tests may run at once (`concurrent`). */
  const it = test.extend<{ stores: Stores }>({
    // biome-ignore lint/correctness/noEmptyPattern: Vitest reads a fixture's dependencies from this pattern.
    stores: async ({}, use) => {
      const stores = await open();
      await use(stores);
      await stores.close();
    },
  });

  describe(`${name}: store contract`, { concurrent: options.concurrent ?? false }, () => {
    it("answers a readiness ping", async ({ stores }) => {
      await expect(stores.ping()).resolves.toBeUndefined();
    });

    describe("guest details", () => {
      const ana = { email: "Ana@Example.com", guest_id: "g-1", is_password_set: false, is_return_user: false };

      it("creates a guest and finds it by email, ignoring case and spaces", async ({ stores }) => {
        await stores.guestDetails.create(ana);
        expect(await stores.guestDetails.get(" ana@example.COM ")).toEqual({ ...ana, promo_codes: {} });
        expect(await stores.guestDetails.get("other@example.com")).toBeNull();
      });

      it("refuses a second record for the same email in another case", async ({ stores }) => {
        await stores.guestDetails.create(ana);
        await expect(stores.guestDetails.create({ ...ana, email: "ANA@example.com", guest_id: "g-2" })).rejects.toThrow(
          /already exists/,
        );
        expect(await stores.guestDetails.get("ana@example.com")).toMatchObject({ guest_id: "g-1" });
      });

      it("updates is_password_set and is_return_user, and refuses an email without a record", async ({ stores }) => {
        await stores.guestDetails.create(ana);
        await stores.guestDetails.update("ANA@example.com", { is_password_set: true });
        await stores.guestDetails.update("ana@example.com", { is_return_user: true });
        expect(await stores.guestDetails.get("ana@example.com")).toMatchObject({
          is_password_set: true,
          is_return_user: true,
          guest_id: "g-1",
        });
        await expect(stores.guestDetails.update("nobody@example.com", { is_password_set: true })).rejects.toThrow(
          /no guestDetails record/i,
        );
      });

      it("keeps an email with a slash or a percent sign apart from the others", async ({ stores }) => {
        await stores.guestDetails.create({ ...ana, email: "a/b@example.com", guest_id: "slash" });
        await stores.guestDetails.create({ ...ana, email: "a%2Fb@example.com", guest_id: "percent" });
        await stores.guestDetails.create({ ...ana, email: "..", guest_id: "dots" });
        expect(await stores.guestDetails.get("A/B@example.com")).toMatchObject({ guest_id: "slash" });
        expect(await stores.guestDetails.get("a%2fb@example.com")).toMatchObject({ guest_id: "percent" });
        expect(await stores.guestDetails.get("..")).toMatchObject({ guest_id: "dots" });
        expect(await stores.guestDetails.get("a/c@example.com")).toBeNull();
        expect(await stores.guestDetails.get("__a__")).toBeNull();
      });

      it("counts a promo use only while the guest has uses left, creating their record, whatever the email's case", async ({
        stores,
      }) => {
        const use = (email: string) =>
          stores.guestDetails.claimPromoUse({ email, guestId: "g-1", code: "GLOW50", maxUses: 1 });
        // Either may win the race; the other finds the use counted.
        expect((await Promise.all([use("Ana@Example.com"), use("ana@example.com")])).sort()).toEqual([false, true]);
        const guest = await stores.guestDetails.get("ANA@EXAMPLE.COM");
        expect(guest).toEqual({
          email: expect.stringMatching(/^(Ana@Example\.com|ana@example\.com)$/),
          guest_id: "g-1",
          is_password_set: false,
          is_return_user: false,
          promo_codes: { GLOW50: 1 },
        });
        expect(
          await stores.guestDetails.claimPromoUse({
            email: "ana@example.com",
            guestId: "g-1",
            code: "WELCOME10",
            maxUses: null,
          }),
        ).toBe(true);
        expect(
          await stores.guestDetails.claimPromoUse({
            email: "ana@example.com",
            guestId: "g-1",
            code: "WELCOME10",
            maxUses: null,
          }),
        ).toBe(true);
        expect((await stores.guestDetails.get("ana@example.com"))?.promo_codes).toEqual({ GLOW50: 1, WELCOME10: 2 });
      });

      it("counts uses on the record a guest already has", async ({ stores }) => {
        await stores.guestDetails.create({ ...ana, is_password_set: true });
        expect(
          await stores.guestDetails.claimPromoUse({
            email: "ana@example.com",
            guestId: "g-other",
            code: "GLOW50",
            maxUses: 2,
          }),
        ).toBe(true);
        expect(await stores.guestDetails.get("ana@example.com")).toEqual({
          ...ana,
          is_password_set: true,
          promo_codes: { GLOW50: 1 },
        });
      });

      it("gives a use back, never below zero, so the code can be used again", async ({ stores }) => {
        const use = () =>
          stores.guestDetails.claimPromoUse({ email: "ana@example.com", guestId: "g-1", code: "GLOW50", maxUses: 1 });
        expect(await use()).toBe(true);
        await stores.guestDetails.releasePromoUse("ANA@example.com", "GLOW50");
        await stores.guestDetails.releasePromoUse("ana@example.com", "GLOW50");
        expect((await stores.guestDetails.get("ana@example.com"))?.promo_codes.GLOW50).toBe(0);
        expect(await use()).toBe(true);
        expect(await use()).toBe(false);
        await expect(stores.guestDetails.releasePromoUse("nobody@example.com", "GLOW50")).rejects.toThrow(
          /no guestDetails record/i,
        );
      });

      it("counts codes with dots and slashes as codes, not as field paths", async ({ stores }) => {
        for (const code of ["A.B", "A/B", "A`B"]) {
          expect(
            await stores.guestDetails.claimPromoUse({ email: "ana@example.com", guestId: "g-1", code, maxUses: 1 }),
          ).toBe(true);
        }
        expect((await stores.guestDetails.get("ana@example.com"))?.promo_codes).toEqual({
          "A.B": 1,
          "A/B": 1,
          "A`B": 1,
        });
      });
    });

    describe("center pricing", () => {
      it("finds prices for any number of service ids at one center", async ({ stores }) => {
        const ids = Array.from({ length: 23 }, (_, i) => `svc-${i}`);
        for (const id of ids)
          await stores.centerPricing.put({
            centerId: "c-1",
            serviceId: id,
            price: 5000,
            isPrepaidService: id === "svc-3",
          });
        await stores.centerPricing.put({ centerId: "c-2", serviceId: "svc-1", price: 9999, isPrepaidService: false });
        const prices = await stores.centerPricing.get("c-1", ids);
        expect(prices).toHaveLength(23);
        expect(prices.find((p) => p.serviceId === "svc-3")).toEqual({
          centerId: "c-1",
          serviceId: "svc-3",
          price: 5000,
          isPrepaidService: true,
        });
        expect(await stores.centerPricing.get("c-1", [])).toEqual([]);
        expect(await stores.centerPricing.get("c-3", ["svc-1"])).toEqual([]);
      });

      it("replaces a price on a second write, to the cent", async ({ stores }) => {
        await stores.centerPricing.put({ centerId: "c-1", serviceId: "s", price: 5000, isPrepaidService: false });
        await stores.centerPricing.put({ centerId: "c-1", serviceId: "s", price: 1999, isPrepaidService: true });
        expect(await stores.centerPricing.get("c-1", ["s"])).toEqual([
          { centerId: "c-1", serviceId: "s", price: 1999, isPrepaidService: true },
        ]);
      });

      it("keeps ids with slashes and underscores apart", async ({ stores }) => {
        await stores.centerPricing.put({ centerId: "c/1", serviceId: "s", price: 100, isPrepaidService: false });
        await stores.centerPricing.put({ centerId: "a_b", serviceId: "c", price: 200, isPrepaidService: false });
        await stores.centerPricing.put({ centerId: "a", serviceId: "b_c", price: 300, isPrepaidService: false });
        expect(await stores.centerPricing.get("c/1", ["s"])).toEqual([
          { centerId: "c/1", serviceId: "s", price: 100, isPrepaidService: false },
        ]);
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

      it("finds a code in any case, with its rules in cents, and replaces it on a second write", async ({ stores }) => {
        expect(await stores.promoCodes.get("GLOW50")).toBeNull();
        await stores.promoCodes.put(promo("glow50"));
        expect(await stores.promoCodes.get(" Glow50 ")).toEqual(promo("GLOW50"));
        await stores.promoCodes.put(promo("GLOW50", null));
        expect((await stores.promoCodes.get("glow50"))?.maxUsesPerGuest).toBeNull();
      });

      it("looks up a code typed with a slash, dots or underscores as a code: nothing found, nothing thrown", async ({
        stores,
      }) => {
        for (const code of ["A/B", "A/B/C", "/", ".", "..", "__X__", "__", "", "%", "A%2FB"]) {
          expect(await stores.promoCodes.get(code)).toBeNull();
        }
      });

      it("keeps such codes apart when they exist", async ({ stores }) => {
        const codes = ["A/B", "A/B/C", "A%2FB", "..", ".", "__X__", "%"];
        for (const [i, code] of codes.entries()) await stores.promoCodes.put(promo(code, i));
        for (const [i, code] of codes.entries())
          expect(await stores.promoCodes.get(code.toLowerCase())).toEqual(promo(code, i));
        expect(await stores.promoCodes.get("AB")).toBeNull();
      });
    });

    describe("accounts", () => {
      const account = {
        id: "a-1",
        email: "Mia@Example.com",
        guestId: "g-1",
        centerId: "c-1",
        passwordHash: "hash-1",
        createdAt: 1,
        passwordChangedAt: 1,
      };

      it("finds an account by email in any case and by id, and changes its password", async ({ stores }) => {
        await stores.accounts.create(account);
        expect(await stores.accounts.getByEmail(" mia@example.COM")).toEqual(account);
        expect(await stores.accounts.getById("a-1")).toEqual(account);
        await stores.accounts.updatePassword("a-1", "hash-2", 5);
        expect(await stores.accounts.getByEmail("mia@example.com")).toEqual({
          ...account,
          passwordHash: "hash-2",
          passwordChangedAt: 5,
        });
        expect(await stores.accounts.getByEmail("nobody@example.com")).toBeNull();
        expect(await stores.accounts.getById("a-2")).toBeNull();
      });

      it("keeps the referral code an account was registered with", async ({ stores }) => {
        await stores.accounts.create({ ...account, referralCode: "FRIEND-MIA" });
        expect(await stores.accounts.getById("a-1")).toEqual({ ...account, referralCode: "FRIEND-MIA" });
      });

      it("refuses a second account for the same email", async ({ stores }) => {
        await stores.accounts.create(account);
        await expect(
          stores.accounts.create({ ...account, id: "a-2", email: "MIA@example.com" }),
        ).rejects.toBeInstanceOf(DuplicateAccountError);
        expect(await stores.accounts.getById("a-2")).toBeNull();
      });

      it("keeps an email with a slash apart", async ({ stores }) => {
        await stores.accounts.create({ ...account, email: "m/a@example.com" });
        expect(await stores.accounts.getByEmail("M/A@example.com")).toMatchObject({ id: "a-1" });
        expect(await stores.accounts.getByEmail("m")).toBeNull();
      });
    });

    describe("user sessions", () => {
      const session = (tokenHash: string, userId = "u-1") => ({
        tokenHash,
        userId,
        createdAt: 1,
        expiresAt: 2,
        revoked: false,
      });

      it("keeps a session until it is revoked; revoking an unknown one does nothing", async ({ stores }) => {
        await stores.userSessions.create(session("t-1"));
        expect(await stores.userSessions.get("t-1")).toEqual(session("t-1"));
        await stores.userSessions.revoke("t-1");
        expect(await stores.userSessions.get("t-1")).toEqual({ ...session("t-1"), revoked: true });
        await stores.userSessions.revoke("unknown");
        expect(await stores.userSessions.get("unknown")).toBeNull();
      });

      it("revokes all of a user's sessions but the one given", async ({ stores }) => {
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

      it("keeps one code per email, counts wrong guesses, and deletes it", async ({ stores }) => {
        await stores.oneTimeCodes.put(code);
        expect(await stores.oneTimeCodes.get("mia@example.com")).toEqual(code);
        expect(await stores.oneTimeCodes.countWrongGuess("MIA@example.com")).toBe(1);
        expect(await stores.oneTimeCodes.countWrongGuess("mia@example.com")).toBe(2);
        await stores.oneTimeCodes.put({ ...code, email: "mia@example.com", codeHash: "h-2", sentAt: 5 });
        expect(await stores.oneTimeCodes.get("Mia@Example.com")).toEqual({
          ...code,
          email: "mia@example.com",
          codeHash: "h-2",
          sentAt: 5,
        });
        await stores.oneTimeCodes.delete("MIA@EXAMPLE.COM");
        expect(await stores.oneTimeCodes.get("mia@example.com")).toBeNull();
        expect(await stores.oneTimeCodes.countWrongGuess("mia@example.com")).toBe(0);
      });
    });

    describe("visit revisions", () => {
      it("counts each change of a visit, from 0, whatever the id's case", async ({ stores }) => {
        const visit = `V-${crypto.randomUUID()}`;
        expect(await stores.visitRevisions.get(visit)).toBe(0);
        expect(await stores.visitRevisions.bump(visit, 1)).toBe(1);
        expect(await stores.visitRevisions.bump(visit.toLowerCase(), 2)).toBe(2);
        expect(await stores.visitRevisions.get(visit)).toBe(2);
        expect(await stores.visitRevisions.get(`${visit}-other`)).toBe(0);
      });

      it("loses no change made at the same time", async ({ stores }) => {
        const visit = `v-${crypto.randomUUID()}`;
        const numbers = await Promise.all([1, 2, 3, 4].map((n) => stores.visitRevisions.bump(visit, n)));
        expect([...numbers].sort()).toEqual([1, 2, 3, 4]);
        expect(await stores.visitRevisions.get(visit)).toBe(4);
      });
    });

    describe("payment attempts", () => {
      const attempt = (key: string, leaseUntil: number): PaymentAttempt => ({
        key,
        state: "started",
        leaseUntil,
        createdAt: 0,
        updatedAt: 0,
        bookingId: "b",
        slot: "2026-12-01T09:00:00",
        guestId: "g",
        centerId: "c",
        accountId: "a",
        prepaid: true,
        contact: null,
        promoCode: null,
        promoClaimed: false,
        promoApplied: false,
        confirmSentAt: null,
        invoiceId: null,
        appointmentId: null,
        invoiceItemIds: [],
        serviceNames: [],
        undoAs: null,
        chargeSentAt: null,
        notified: false,
      });

      it("gives a key to one request at a time, hands over a lapsed one, and keeps a finished one", async ({
        stores,
      }) => {
        expect((await stores.paymentAttempts.claim(attempt("k", 1_000), 0)).state).toBe("claimed");
        expect((await stores.paymentAttempts.claim(attempt("k", 2_000), 500)).state).toBe("busy");
        await stores.paymentAttempts.save({
          ...(await stores.paymentAttempts.get("k"))!,
          state: "confirmed",
          invoiceId: "i",
        });
        const takeover = await stores.paymentAttempts.claim(attempt("k", 3_000), 1_500);
        expect(takeover).toMatchObject({
          state: "claimed",
          attempt: { state: "confirmed", invoiceId: "i", leaseUntil: 3_000, updatedAt: 1_500 },
        });
        await stores.paymentAttempts.save({ ...takeover.attempt, state: "booked", leaseUntil: 0 });
        const final = await stores.paymentAttempts.claim(attempt("k", 9_000), 9_999);
        expect(final).toEqual({ state: "final", attempt: { ...takeover.attempt, state: "booked", leaseUntil: 0 } });
      });

      it("gives a new key to one of two requests sent at once", async ({ stores }) => {
        const claims = await Promise.all([
          stores.paymentAttempts.claim(attempt("k", 1_000), 0),
          stores.paymentAttempts.claim(attempt("k", 1_000), 0),
        ]);
        expect(claims.map((c) => c.state).sort()).toEqual(["busy", "claimed"]);
      });

      it("lists unfinished attempts nobody holds that have been idle long enough, oldest first", async ({ stores }) => {
        await stores.paymentAttempts.save({ ...attempt("idle", 0), updatedAt: 100 });
        await stores.paymentAttempts.save({ ...attempt("older", 0), state: "charging", updatedAt: 50 });
        await stores.paymentAttempts.save({ ...attempt("held", 5_000), updatedAt: 100 });
        await stores.paymentAttempts.save({ ...attempt("recent", 0), updatedAt: 900 });
        await stores.paymentAttempts.save({ ...attempt("done", 0), state: "booked", updatedAt: 100 });
        expect((await stores.paymentAttempts.listStale(1_000, 500, 10)).map((a) => a.key)).toEqual(["older", "idle"]);
        expect((await stores.paymentAttempts.listStale(1_000, 500, 1)).map((a) => a.key)).toEqual(["older"]);
      });

      it("takes any key, slashes and dots included, as a key", async ({ stores }) => {
        for (const key of ["a/b", "a/b/c", "..", ".", "__k__", "%2F"])
          expect(await stores.paymentAttempts.get(key)).toBeNull();
        for (const key of ["a/b", "a/b/c", "..", "__k__"])
          expect((await stores.paymentAttempts.claim(attempt(key, 1_000), 0)).state).toBe("claimed");
        expect(await stores.paymentAttempts.get("a/b/c")).toEqual(attempt("a/b/c", 1_000));
        expect(await stores.paymentAttempts.get("__k__")).toEqual(attempt("__k__", 1_000));
        expect(await stores.paymentAttempts.get("a")).toBeNull();
      });
    });

    describe("purchases", () => {
      const purchase = (id: string, overrides: Partial<Purchase> = {}): Purchase => ({
        id,
        key: `u-1:${id}`,
        state: "started",
        leaseUntil: 0,
        createdAt: 100,
        updatedAt: 100,
        userId: "u-1",
        guestId: "g-1",
        centerId: "c-1",
        kind: "membership",
        itemId: "plan-1",
        itemName: "Glow membership",
        shownCents: 9900,
        giftCard: null,
        invoiceId: null,
        reference: null,
        invoiceRequestedAt: null,
        priceChecked: false,
        knownCards: null,
        accountId: null,
        chargeSentAt: null,
        verifyUri: null,
        paidCents: null,
        closed: false,
        giftCardSent: false,
        declineMessage: null,
        ...overrides,
      });

      it("creates one purchase per key and gives the first back for the same key", async ({ stores }) => {
        const first = purchase("p-1", { key: "u-1:form-1" });
        expect(await stores.purchases.createOnce(first)).toEqual({ created: true, purchase: first });
        const again = await stores.purchases.createOnce(
          purchase("p-2", { key: "u-1:form-1", itemId: "plan-2", shownCents: 1 }),
        );
        expect(again).toEqual({ created: false, purchase: first });
        expect(await stores.purchases.get("p-1")).toEqual(first);
        expect(await stores.purchases.get("p-2")).toBeNull();
      });

      it("makes one purchase of two created at once with one key", async ({ stores }) => {
        const results = await Promise.all([
          stores.purchases.createOnce(purchase("p-1", { key: "u-1:form-1" })),
          stores.purchases.createOnce(purchase("p-2", { key: "u-1:form-1" })),
        ]);
        expect(results.map((r) => r.created).sort()).toEqual([false, true]);
        expect(results[0].purchase.id).toBe(results[1].purchase.id);
        expect(await stores.purchases.listForUser("u-1", 10)).toEqual([results[0].purchase]);
      });

      it("finds nothing and claims nothing under an unknown id, whatever it looks like", async ({ stores }) => {
        for (const id of ["p-unknown", "a/b", "..", "__p__"]) {
          expect(await stores.purchases.get(id)).toBeNull();
          expect(await stores.purchases.claim(id, 1_000, 0)).toBeNull();
        }
      });

      it("gives a purchase to one request at a time, hands over a lapsed one, and keeps a completed one", async ({
        stores,
      }) => {
        await stores.purchases.createOnce(purchase("p-1"));
        const claimed = await stores.purchases.claim("p-1", 1_000, 200);
        expect(claimed).toEqual({
          state: "claimed",
          purchase: { ...purchase("p-1"), leaseUntil: 1_000, updatedAt: 200 },
        });
        expect(await stores.purchases.get("p-1")).toEqual(claimed!.purchase);
        expect(await stores.purchases.claim("p-1", 2_000, 500)).toEqual({ state: "busy", purchase: claimed!.purchase });
        await stores.purchases.save({ ...claimed!.purchase, state: "invoiced", invoiceId: "i-1" });
        const takeover = await stores.purchases.claim("p-1", 3_000, 1_500);
        expect(takeover).toMatchObject({
          state: "claimed",
          purchase: { state: "invoiced", invoiceId: "i-1", leaseUntil: 3_000, updatedAt: 1_500 },
        });
        const completed = { ...takeover!.purchase, state: "completed" as const, leaseUntil: 0 };
        await stores.purchases.save(completed);
        expect(await stores.purchases.claim("p-1", 9_000, 9_999)).toEqual({ state: "final", purchase: completed });
        expect(await stores.purchases.get("p-1")).toEqual(completed);
        await stores.purchases.save(purchase("p-2", { state: "cancelled", leaseUntil: 0 }));
        expect(await stores.purchases.claim("p-2", 9_000, 9_999)).toEqual({
          state: "final",
          purchase: purchase("p-2", { state: "cancelled", leaseUntil: 0 }),
        });
      });

      it("keeps every field of a purchase, a gift card's order and nulls included", async ({ stores }) => {
        const giftCard = purchase("p-gift", {
          kind: "gift-card",
          itemId: "tpl-1",
          itemName: "Birthday card",
          shownCents: 12_550,
          leaseUntil: 5_000,
          updatedAt: 4_000,
          giftCard: {
            templateId: "tpl-1",
            valueCents: 12_550,
            custom: true,
            occasionId: "birthday",
            recipientName: "Bo Lee",
            recipientEmail: "bo@example.com",
            message: "Happy birthday!\nLove, Ana",
            deliveryDate: "2026-12-24",
          },
          state: "paid",
          invoiceId: "i-9",
          reference: "GC-0009",
          invoiceRequestedAt: 1_000,
          knownCards: { count: 2, digest: "d-12" },
          accountId: "acct-1",
          chargeSentAt: 3_000,
          verifyUri: "https://bank.example/3ds?x=1",
          paidCents: 12_550,
          closed: true,
          giftCardSent: true,
          declineMessage: "Try another card",
        });
        await stores.purchases.save(giftCard);
        expect(await stores.purchases.get("p-gift")).toEqual(giftCard);
        const cleared = {
          ...giftCard,
          giftCard: null,
          knownCards: null,
          invoiceId: null,
          reference: null,
          verifyUri: null,
          paidCents: null,
          declineMessage: null,
          closed: false,
        };
        await stores.purchases.save(cleared);
        expect(await stores.purchases.get("p-gift")).toEqual(cleared);
      });

      it("lists the unfinished purchases nobody holds and idle long enough, oldest first", async ({ stores }) => {
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
        expect((await stores.purchases.listUnfinished(1_000, 900, 10)).map((p) => p.id)).toEqual([
          "u-charging",
          "u-verifying",
          "u-paid",
        ]);
        expect((await stores.purchases.listUnfinished(1_000, 900, 2)).map((p) => p.id)).toEqual([
          "u-charging",
          "u-verifying",
        ]);
        expect((await stores.purchases.listUnfinished(10_000, 900, 10)).map((p) => p.id)).toContain("u-held");
      });

      it("lists a user's purchases only, newest first, at most as many as asked", async ({ stores }) => {
        for (const [id, createdAt] of [
          ["p-1", 100],
          ["p-3", 300],
          ["p-2", 200],
        ] as const)
          await stores.purchases.createOnce(purchase(id, { createdAt }));
        await stores.purchases.createOnce(purchase("p-other", { key: "u-2:p-other", userId: "u-2", createdAt: 400 }));
        expect((await stores.purchases.listForUser("u-1", 10)).map((p) => p.id)).toEqual(["p-3", "p-2", "p-1"]);
        expect((await stores.purchases.listForUser("u-1", 2)).map((p) => p.id)).toEqual(["p-3", "p-2"]);
        expect(await stores.purchases.listForUser("u-2", 10)).toEqual([
          purchase("p-other", { key: "u-2:p-other", userId: "u-2", createdAt: 400 }),
        ]);
        expect(await stores.purchases.listForUser("u-3", 10)).toEqual([]);
      });

      it("takes any key, slashes and dots included, as a key", async ({ stores }) => {
        for (const [i, key] of ["a/b", "a/b/c", "..", "__k__", "%2F"].entries()) {
          expect((await stores.purchases.createOnce(purchase(`p-${i}`, { key }))).created).toBe(true);
        }
        expect(await stores.purchases.createOnce(purchase("p-9", { key: "a/b/c" }))).toEqual({
          created: false,
          purchase: purchase("p-1", { key: "a/b/c" }),
        });
        expect(await stores.purchases.listForUser("u-1", 10)).toHaveLength(5);
      });
    });

    describe("booking recoveries", () => {
      const recovery = (id: string, overrides: Partial<BookingRecovery> = {}): BookingRecovery => ({
        id,
        draftId: `draft-${id}`,
        centerId: "c-1",
        serviceId: "s-1",
        addOnIds: ["a-1", "a-2"],
        guestId: "g-1",
        contact: { channel: "email", to: "ana@example.com" },
        consentAt: 100,
        createdAt: 100,
        dueAt: 1_000,
        timeZone: "America/Chicago",
        origin: "https://book.example",
        state: "pending",
        sentAt: null,
        ...overrides,
      });

      it("keeps one record per draft, the first, and finds it by id or by draft", async ({ stores }) => {
        const first = recovery("r-1");
        expect(await stores.bookingRecoveries.createOnce(first)).toEqual({ created: true, recovery: first });
        expect(await stores.bookingRecoveries.createOnce(recovery("r-2", { draftId: "draft-r-1" }))).toEqual({
          created: false,
          recovery: first,
        });
        expect(await stores.bookingRecoveries.get("r-1")).toEqual(first);
        expect(await stores.bookingRecoveries.get("r-2")).toBeNull();
        expect(await stores.bookingRecoveries.forDraft("draft-r-1")).toEqual(first);
        expect(await stores.bookingRecoveries.forDraft("draft-none")).toBeNull();
        const followed = { ...first, state: "followed" as const, contact: null, guestId: null, sentAt: 2_000 };
        await stores.bookingRecoveries.save(followed);
        expect(await stores.bookingRecoveries.get("r-1")).toEqual(followed);
      });

      it("lists the pending records due, soonest first, and lets one caller take each", async ({ stores }) => {
        await stores.bookingRecoveries.createOnce(recovery("r-late", { dueAt: 900 }));
        await stores.bookingRecoveries.createOnce(recovery("r-early", { dueAt: 500 }));
        await stores.bookingRecoveries.createOnce(recovery("r-future", { dueAt: 5_000 }));
        await stores.bookingRecoveries.createOnce(recovery("r-sent", { dueAt: 100, state: "sent", sentAt: 200 }));
        expect((await stores.bookingRecoveries.listDue(1_000, 10)).map((r) => r.id)).toEqual(["r-early", "r-late"]);
        expect((await stores.bookingRecoveries.listDue(1_000, 1)).map((r) => r.id)).toEqual(["r-early"]);
        const takers = await Promise.all([1, 2, 3, 4].map(() => stores.bookingRecoveries.claim("r-early")));
        expect(takers.filter(Boolean)).toEqual([recovery("r-early", { dueAt: 500, state: "sending" })]);
        expect(await stores.bookingRecoveries.claim("r-sent")).toBeNull();
        expect(await stores.bookingRecoveries.claim("r-none")).toBeNull();
        expect((await stores.bookingRecoveries.listDue(1_000, 10)).map((r) => r.id)).toEqual(["r-late"]);
      });

      it("removes a record, a guest's records, and the records older than a time", async ({ stores }) => {
        await stores.bookingRecoveries.createOnce(recovery("r-1", { guestId: "g-1", createdAt: 100 }));
        await stores.bookingRecoveries.createOnce(recovery("r-2", { guestId: "g-1", createdAt: 300 }));
        await stores.bookingRecoveries.createOnce(recovery("r-3", { guestId: "g-2", createdAt: 200 }));
        await stores.bookingRecoveries.createOnce(recovery("r-4", { guestId: null, createdAt: 400 }));
        await stores.bookingRecoveries.createOnce(recovery("r-5", { guestId: "g-3", createdAt: 500 }));
        expect(await stores.bookingRecoveries.removeForGuest("g-1")).toBe(2);
        expect(await stores.bookingRecoveries.removeForGuest("g-1")).toBe(0);
        expect(await stores.bookingRecoveries.get("r-3")).not.toBeNull();
        expect(await stores.bookingRecoveries.removeCreatedBefore(450, 10)).toBe(2);
        expect(await stores.bookingRecoveries.get("r-4")).toBeNull();
        await stores.bookingRecoveries.remove("r-5");
        await stores.bookingRecoveries.remove("r-none");
        expect(await stores.bookingRecoveries.get("r-5")).toBeNull();
        expect(await stores.bookingRecoveries.forDraft("draft-r-5")).toBeNull();
      });

      it("takes any draft id, slashes and dots included", async ({ stores }) => {
        for (const [i, draftId] of ["a/b", "..", "__k__", "%2F"].entries())
          expect((await stores.bookingRecoveries.createOnce(recovery(`r-${i}`, { draftId }))).created).toBe(true);
        expect(await stores.bookingRecoveries.forDraft("a/b")).toEqual(recovery("r-0", { draftId: "a/b" }));
      });
    });

    describe("referral codes", () => {
      const owner = (accountId: string) => ({
        accountId,
        guestId: `g-${accountId}`,
        firstName: "Mia",
        centerId: "c-1",
      });
      /** A code maker that gives these codes in turn (the last one again once they run out) and counts its calls. */
      const maker = (...codes: string[]) => {
        const made = { calls: 0 };
        return { made, make: () => codes[Math.min(made.calls++, codes.length - 1)] };
      };

      it("makes an account's code once, in upper case, and finds it by code in any case and by its owner", async ({
        stores,
      }) => {
        expect(await stores.referrals.forOwner("a-1")).toBeNull();
        const { made, make } = maker("mia-x1", "MIA-X2");
        const code = await stores.referrals.codeFor(owner("a-1"), make, 100);
        expect(code).toEqual({
          code: "MIA-X1",
          accountId: "a-1",
          guestId: "g-a-1",
          firstName: "Mia",
          centerId: "c-1",
          createdAt: 100,
        });
        expect(await stores.referrals.codeFor({ ...owner("a-1"), firstName: "Other" }, make, 200)).toEqual(code);
        expect(made.calls).toBe(1);
        expect(await stores.referrals.forOwner("a-1")).toEqual(code);
        expect(await stores.referrals.byCode("mia-x1")).toEqual(code);
        expect(await stores.referrals.byCode(" Mia-X1 ")).toEqual(code);
        expect(await stores.referrals.byCode("MIA-X2")).toBeNull();
        expect(await stores.referrals.forOwner("a-2")).toBeNull();
        for (const typed of ["a/b", "a/b/c", "..", ".", "__X__", "", "%"])
          expect(await stores.referrals.byCode(typed)).toBeNull();
      });

      it("gives an account one code however many requests ask at once", async ({ stores }) => {
        let next = 0;
        const make = () => `CODE-${++next}`;
        const codes = await Promise.all([1, 2, 3, 4, 5].map((n) => stores.referrals.codeFor(owner("a-1"), make, n)));
        expect(new Set(codes.map((c) => c.code)).size).toBe(1);
        for (const code of codes) expect(code).toEqual(codes[0]);
        expect(await stores.referrals.forOwner("a-1")).toEqual(codes[0]);
        expect(await stores.referrals.byCode(codes[0].code)).toEqual(codes[0]);
      });

      it("makes another code when the one made is another account's, in any case", async ({ stores }) => {
        const taken = await stores.referrals.codeFor(owner("a-1"), () => "TAKEN", 100);
        const { made, make } = maker("taken", " Taken ", "a/b");
        const other = await stores.referrals.codeFor(owner("a-2"), make, 200);
        expect(made.calls).toBe(3);
        expect(other).toEqual({ ...owner("a-2"), code: "A/B", createdAt: 200 });
        expect(await stores.referrals.byCode("taken")).toEqual(taken);
        expect(await stores.referrals.byCode("a/b")).toEqual(other);
        expect(await stores.referrals.forOwner("a-2")).toEqual(other);
      });

      it("gives up when every code made is taken, and writes nothing", async ({ stores }) => {
        await stores.referrals.codeFor(owner("a-1"), () => "TAKEN", 100);
        await expect(stores.referrals.codeFor(owner("a-2"), () => "taken", 200)).rejects.toThrow(/referral code/i);
        expect(await stores.referrals.forOwner("a-2")).toBeNull();
      });
    });

    describe("referrals", () => {
      const referral = (friendEmail: string, overrides: Partial<Referral> = {}): Referral => ({
        friendEmail,
        friendFirstName: "Bo",
        friendGuestId: null,
        code: "MIA-X1",
        referrerAccountId: "a-1",
        referrerGuestId: "g-a-1",
        createdAt: 100,
        state: "registered",
        checkedAt: null,
        rewardPoints: 0,
        rewardedAt: null,
        visitId: null,
        creditSentAt: null,
        creditTriedAt: null,
        ...overrides,
      });

      it("lists rewards whose credit was not accepted, earned before the time given, oldest first, until their credit is noted", async ({
        stores,
      }) => {
        for (const [email, rewardedAt] of [
          ["late@example.com", 700],
          ["first@example.com", 300],
          ["second@example.com", 500],
        ] as const) {
          await stores.referrals.add(referral(email, { friendGuestId: `g-${email}` }), 100);
          await stores.referrals.reward(email, { points: 5000, visitId: `v-${email}`, now: rewardedAt });
        }
        await stores.referrals.add(referral("waiting@example.com", { friendGuestId: "g-w" }), 100);
        expect((await stores.referrals.listUncredited(600, 10)).map((r) => r.friendEmail)).toEqual([
          "first@example.com",
          "second@example.com",
        ]);
        expect((await stores.referrals.listUncredited(600, 1)).map((r) => r.friendEmail)).toEqual([
          "first@example.com",
        ]);
        await stores.referrals.update("FIRST@example.com", { creditSentAt: 800 });
        expect((await stores.referrals.forFriend("first@example.com"))?.creditSentAt).toBe(800);
        expect((await stores.referrals.listUncredited(1_000, 10)).map((r) => r.friendEmail)).toEqual([
          "second@example.com",
          "late@example.com",
        ]);
        expect(await stores.referrals.listUncredited(1_000, 0)).toEqual([]);
        // A failed try puts a credit behind the others, and out of the list until the time given passes it.
        await stores.referrals.update("second@example.com", { creditTriedAt: 900 });
        expect((await stores.referrals.forFriend("second@example.com"))?.creditTriedAt).toBe(900);
        expect((await stores.referrals.listUncredited(800, 10)).map((r) => r.friendEmail)).toEqual([
          "late@example.com",
        ]);
        expect((await stores.referrals.listUncredited(1_000, 10)).map((r) => r.friendEmail)).toEqual([
          "late@example.com",
          "second@example.com",
        ]);
      });

      it("records a friend once, whatever the case of the email, and finds them in any case", async ({ stores }) => {
        expect(await stores.referrals.add(referral("Bo@Example.com"), 100)).toBe("added");
        expect(
          await stores.referrals.add(referral(" bo@example.COM ", { referrerAccountId: "a-2", code: "OTHER" }), 100),
        ).toBe("already-referred");
        expect(await stores.referrals.forFriend("BO@EXAMPLE.COM ")).toEqual(referral("Bo@Example.com"));
        expect(await stores.referrals.forFriend("cy@example.com")).toBeNull();
        expect(await stores.referrals.listByReferrer("a-2", 10)).toEqual([]);
      });

      it("records a code's friends up to the cap, counting each code apart, and a friend referred before as such", async ({
        stores,
      }) => {
        for (const email of ["a@example.com", "b@example.com", "c@example.com"])
          expect(await stores.referrals.add(referral(email), 3)).toBe("added");
        expect(await stores.referrals.add(referral("d@example.com"), 3)).toBe("used-up");
        expect(await stores.referrals.add(referral("A@example.com"), 3)).toBe("already-referred");
        expect(await stores.referrals.forFriend("d@example.com")).toBeNull();
        expect(
          await stores.referrals.add(referral("d@example.com", { code: "OTHER", referrerAccountId: "a-2" }), 3),
        ).toBe("added");
        expect(await stores.referrals.add(referral("e@example.com"), 4)).toBe("added");
        expect((await stores.referrals.listByReferrer("a-1", 10)).map((r) => r.friendEmail).sort()).toEqual([
          "a@example.com",
          "b@example.com",
          "c@example.com",
          "e@example.com",
        ]);
      });

      // Forty transactions on one counter: Firestore's emulator serialises them, which takes seconds on
      // a busy machine. It runs alone even where the contract runs at once (the emulator's heaviest
      // load, and the test whose time the client's backoff after each lost race varies the most).
      it.sequential(`records exactly the cap (${CAP_UNDER_LOAD}) of ${CONCURRENT_FRIENDS} friends of one code sent at once`, async ({
        stores,
      }) => {
        const emails = Array.from({ length: CONCURRENT_FRIENDS }, (_, i) => `friend.${i}@example.com`);
        const added = await Promise.all(emails.map((email) => stores.referrals.add(referral(email), CAP_UNDER_LOAD)));
        expect(added.filter((outcome) => outcome === "added")).toHaveLength(CAP_UNDER_LOAD);
        expect(added.filter((outcome) => outcome === "used-up")).toHaveLength(CONCURRENT_FRIENDS - CAP_UNDER_LOAD);
        expect(await stores.referrals.listByReferrer("a-1", 100)).toHaveLength(CAP_UNDER_LOAD);
        expect(await stores.referrals.add(referral("one.more@example.com"), CAP_UNDER_LOAD)).toBe("used-up");
      }, 120_000);

      it("takes back a claim that never got its guest, under its own code only, and counts it no more", async ({
        stores,
      }) => {
        expect(await stores.referrals.add(referral("a@example.com"), 2)).toBe("added");
        expect(await stores.referrals.add(referral("b@example.com", { friendGuestId: "g-b" }), 2)).toBe("added");
        expect(await stores.referrals.add(referral("c@example.com"), 2)).toBe("used-up");
        // Not another code's, not one whose guest was made, not one that does not exist.
        expect(await stores.referrals.release("A@example.com", "OTHER")).toBe(false);
        expect(await stores.referrals.release("b@example.com", "MIA-X1")).toBe(false);
        expect(await stores.referrals.release("nobody@example.com", "MIA-X1")).toBe(false);
        expect(await stores.referrals.release("A@Example.com", "MIA-X1")).toBe(true);
        expect(await stores.referrals.forFriend("a@example.com")).toBeNull();
        expect(await stores.referrals.release("a@example.com", "MIA-X1")).toBe(false);
        expect(await stores.referrals.add(referral("c@example.com"), 2)).toBe("added");
        expect(await stores.referrals.add(referral("d@example.com"), 2)).toBe("used-up");
      });

      it("records one of two referrals of a friend sent at once", async ({ stores }) => {
        const added = await Promise.all([
          stores.referrals.add(referral("cy@example.com", { referrerAccountId: "a-1" }), 100),
          stores.referrals.add(referral("CY@example.com", { referrerAccountId: "a-2" }), 100),
        ]);
        expect([...added].sort()).toEqual(["added", "already-referred"]);
        const kept = await stores.referrals.forFriend("cy@example.com");
        expect(kept?.referrerAccountId).toBe(added[0] === "added" ? "a-1" : "a-2");
      });

      it("keeps every field, and an email with a slash or dots apart", async ({ stores }) => {
        const full = referral("d/i@example.com", {
          friendGuestId: "g-di",
          state: "rewarded",
          checkedAt: 300,
          rewardPoints: 500,
          rewardedAt: 400,
          visitId: "v-1",
          creditSentAt: 450,
          creditTriedAt: 420,
        });
        expect(await stores.referrals.add(full, 100)).toBe("added");
        expect(await stores.referrals.add(referral(".."), 100)).toBe("added");
        expect(await stores.referrals.forFriend("D/I@example.com")).toEqual(full);
        expect(await stores.referrals.forFriend("..")).toEqual(referral(".."));
        expect(await stores.referrals.forFriend("d")).toBeNull();
      });

      it("lists a referrer's referrals only, newest first, at most as many as asked", async ({ stores }) => {
        for (const [email, createdAt] of [
          ["a@example.com", 100],
          ["c@example.com", 300],
          ["b@example.com", 200],
        ] as const) {
          await stores.referrals.add(referral(email, { createdAt }), 100);
        }
        await stores.referrals.add(referral("z@example.com", { referrerAccountId: "a-2", createdAt: 400 }), 100);
        expect((await stores.referrals.listByReferrer("a-1", 10)).map((r) => r.friendEmail)).toEqual([
          "c@example.com",
          "b@example.com",
          "a@example.com",
        ]);
        expect((await stores.referrals.listByReferrer("a-1", 2)).map((r) => r.friendEmail)).toEqual([
          "c@example.com",
          "b@example.com",
        ]);
        expect(await stores.referrals.listByReferrer("a-2", 10)).toEqual([
          referral("z@example.com", { referrerAccountId: "a-2", createdAt: 400 }),
        ]);
        expect(await stores.referrals.listByReferrer("a-3", 10)).toEqual([]);
      });

      it("changes the friend's guest and check time where the referral is, and refuses an email without one", async ({
        stores,
      }) => {
        await stores.referrals.add(referral("Bo@Example.com"), 100);
        await stores.referrals.update("BO@example.com", { friendGuestId: "g-bo" });
        await stores.referrals.update("bo@example.com", { checkedAt: 500 });
        expect(await stores.referrals.forFriend("bo@example.com")).toEqual(
          referral("Bo@Example.com", { friendGuestId: "g-bo", checkedAt: 500 }),
        );
        await stores.referrals.update("bo@example.com", { checkedAt: null });
        expect((await stores.referrals.forFriend("bo@example.com"))?.checkedAt).toBeNull();
        await expect(stores.referrals.update("nobody@example.com", { checkedAt: 1 })).rejects.toThrow(/no referral/i);
        await expect(stores.referrals.update("nobody@example.com", {})).rejects.toThrow(/no referral/i);
        expect(await stores.referrals.forFriend("nobody@example.com")).toBeNull();
      });

      it("rewards a referral once, and never one that does not exist", async ({ stores }) => {
        await stores.referrals.add(referral("Bo@Example.com", { friendGuestId: "g-bo" }), 100);
        expect(await stores.referrals.reward("BO@example.com", { points: 500, visitId: "v-1", now: 900 })).toBe(true);
        const rewarded = referral("Bo@Example.com", {
          friendGuestId: "g-bo",
          state: "rewarded",
          rewardPoints: 500,
          rewardedAt: 900,
          visitId: "v-1",
        });
        expect(await stores.referrals.forFriend("bo@example.com")).toEqual(rewarded);
        expect(await stores.referrals.reward("bo@example.com", { points: 700, visitId: "v-2", now: 950 })).toBe(false);
        expect(await stores.referrals.forFriend("bo@example.com")).toEqual(rewarded);
        expect(await stores.referrals.reward("nobody@example.com", { points: 500, visitId: "v-1", now: 900 })).toBe(
          false,
        );
        expect(await stores.referrals.forFriend("nobody@example.com")).toBeNull();
      });

      it("rewards one of several rewards sent at once", async ({ stores }) => {
        await stores.referrals.add(referral("bo@example.com", { friendGuestId: "g-bo" }), 100);
        const points = [100, 200, 300, 400];
        const results = await Promise.all(
          points.map((p) =>
            stores.referrals.reward(p % 200 ? "BO@example.com" : "bo@example.com", {
              points: p,
              visitId: `v-${p}`,
              now: p,
            }),
          ),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
        const winner = points[results.indexOf(true)];
        expect(await stores.referrals.forFriend("bo@example.com")).toMatchObject({
          state: "rewarded",
          rewardPoints: winner,
          visitId: `v-${winner}`,
          rewardedAt: winner,
        });
      });

      it("lists referrals awaiting their reward: guest known, not checked since the time given, never-checked first, then oldest check", async ({
        stores,
      }) => {
        const rows: [string, Partial<Referral>][] = [
          ["never-1", { friendGuestId: "g-1", createdAt: 200 }],
          ["old-check", { friendGuestId: "g-2", checkedAt: 200 }],
          ["never-2", { friendGuestId: "g-3", createdAt: 100 }],
          ["older-check", { friendGuestId: "g-4", checkedAt: 100 }],
          ["recent-check", { friendGuestId: "g-5", checkedAt: 900 }],
          ["at-the-time", { friendGuestId: "g-6", checkedAt: 500 }],
          ["no-guest", { friendGuestId: null }],
          ["no-guest-checked", { friendGuestId: null, checkedAt: 50 }],
          ["rewarded", { friendGuestId: "g-7", state: "rewarded", rewardPoints: 500, rewardedAt: 10, visitId: "v-7" }],
          [
            "rewarded-checked",
            {
              friendGuestId: "g-8",
              checkedAt: 40,
              state: "rewarded",
              rewardPoints: 500,
              rewardedAt: 10,
              visitId: "v-8",
            },
          ],
        ];
        for (const [name, overrides] of rows)
          await stores.referrals.add(referral(`${name}@example.com`, overrides), 100);
        const awaiting = async (limit: number) =>
          (await stores.referrals.listAwaitingReward(500, limit)).map((r) => r.friendEmail.split("@")[0]);
        const listed = await awaiting(10);
        expect(listed.slice(0, 2).sort()).toEqual(["never-1", "never-2"]);
        expect(listed.slice(2)).toEqual(["older-check", "old-check"]);
        expect((await awaiting(3)).slice(2)).toEqual(["older-check"]);
        expect(await awaiting(2)).toEqual(listed.slice(0, 2));
        expect(["never-1", "never-2"]).toContain((await awaiting(1))[0]);
        expect((await stores.referrals.listAwaitingReward(500, 10))[2]).toEqual(
          referral("older-check@example.com", { friendGuestId: "g-4", checkedAt: 100 }),
        );

        // Changes move a referral in and out of the list.
        await stores.referrals.update("never-1@example.com", { checkedAt: 600 });
        await stores.referrals.update("no-guest@example.com", { friendGuestId: "g-9" });
        await stores.referrals.update("recent-check@example.com", { checkedAt: 300 });
        expect(
          await stores.referrals.reward("older-check@example.com", { points: 500, visitId: "v-4", now: 700 }),
        ).toBe(true);
        const after = await awaiting(10);
        expect(after.slice(0, 2).sort()).toEqual(["never-2", "no-guest"]);
        expect(after.slice(2)).toEqual(["old-check", "recent-check"]);
        expect(await stores.referrals.listAwaitingReward(2_000, 0)).toEqual([]);
      });
    });

    describe("affiliate details", () => {
      const click = (clickId: string, clickedAt: number, userId = "g-1", userEmail = "mia@example.com") => ({
        userId,
        userEmail,
        clickId,
        clickedAt,
      });
      const details = (overrides: Partial<Awaited<ReturnType<Stores["affiliates"]["get"]>>> = {}) => ({
        user_id: "g-1",
        user_email: "mia@example.com",
        irclickid: "ir-1",
        timestamp: 100,
        isFtTreatedTriggered: false,
        isExpired: false,
        checkedAt: null,
        ...overrides,
      });

      it("creates a record on the first click, leaves it for the same click, and starts a new window on another", async ({
        stores,
      }) => {
        expect(await stores.affiliates.get("g-1")).toBeNull();
        expect(await stores.affiliates.record(click("ir-1", 100))).toBe("created");
        expect(await stores.affiliates.get("g-1")).toEqual(details());
        await stores.affiliates.update("g-1", { isFtTreatedTriggered: true, isExpired: true, checkedAt: 150 });
        expect(await stores.affiliates.record(click("ir-1", 200))).toBe("unchanged");
        expect(await stores.affiliates.get("g-1")).toEqual(
          details({ isFtTreatedTriggered: true, isExpired: true, checkedAt: 150 }),
        );
        // The click id and its time are replaced and both flags cleared; nothing else changes.
        expect(await stores.affiliates.record(click("ir-2", 300, "g-1", "other@example.com"))).toBe("updated");
        expect(await stores.affiliates.get("g-1")).toEqual(
          details({ irclickid: "ir-2", timestamp: 300, checkedAt: 150 }),
        );
        expect(await stores.affiliates.get("g-2")).toBeNull();
      });

      it("creates one record of two first clicks recorded at once", async ({ stores }) => {
        const results = await Promise.all([
          stores.affiliates.record(click("ir-1", 100)),
          stores.affiliates.record(click("ir-1", 100)),
        ]);
        expect([...results].sort()).toEqual(["created", "unchanged"]);
        expect(await stores.affiliates.get("g-1")).toEqual(details());
      });

      it("changes only the fields given, and refuses a user without a record", async ({ stores }) => {
        await stores.affiliates.record(click("ir-1", 100, "a/b"));
        await stores.affiliates.update("a/b", { checkedAt: 400 });
        await stores.affiliates.update("a/b", { isExpired: true });
        expect(await stores.affiliates.get("a/b")).toEqual(
          details({ user_id: "a/b", isExpired: true, checkedAt: 400 }),
        );
        await stores.affiliates.update("a/b", { checkedAt: null, isExpired: false, isFtTreatedTriggered: true });
        expect(await stores.affiliates.get("a/b")).toEqual(details({ user_id: "a/b", isFtTreatedTriggered: true }));
        await expect(stores.affiliates.update("g-9", { isExpired: true })).rejects.toThrow(
          /no impactAffiliateDetails record/i,
        );
        await expect(stores.affiliates.update("..", {})).rejects.toThrow(/no impactAffiliateDetails record/i);
        expect(await stores.affiliates.get("g-9")).toBeNull();
        expect(await stores.affiliates.get("a")).toBeNull();
      });

      it("lists open records not checked since the time given, never-checked first, then oldest check", async ({
        stores,
      }) => {
        const rows: [string, Parameters<Stores["affiliates"]["update"]>[1]][] = [
          ["never-1", {}],
          ["old-check", { checkedAt: 200 }],
          ["never-2", {}],
          ["older-check", { checkedAt: 100 }],
          ["recent-check", { checkedAt: 900 }],
          ["at-the-time", { checkedAt: 500 }],
          ["treated", { isFtTreatedTriggered: true }],
          ["expired", { isExpired: true, checkedAt: 50 }],
        ];
        for (const [i, [userId, patch]] of rows.entries()) {
          await stores.affiliates.record(click(`ir-${i}`, 1_000 + i, userId));
          await stores.affiliates.update(userId, patch);
        }
        const open = async (limit: number) => (await stores.affiliates.listOpen(500, limit)).map((a) => a.user_id);
        const listed = await open(10);
        expect(listed.slice(0, 2).sort()).toEqual(["never-1", "never-2"]);
        expect(listed.slice(2)).toEqual(["older-check", "old-check"]);
        expect((await open(3)).slice(2)).toEqual(["older-check"]);
        expect(["never-1", "never-2"]).toContain((await open(1))[0]);
        expect((await stores.affiliates.listOpen(500, 10))[2]).toEqual(
          details({ user_id: "older-check", irclickid: "ir-3", timestamp: 1_003, checkedAt: 100 }),
        );
        // A new click reopens a closed record.
        expect(await stores.affiliates.record(click("ir-new", 2_000, "treated"))).toBe("updated");
        expect(await open(10)).toContain("treated");
      });
    });

    describe("pricing", () => {
      const byService = (prices: { serviceId: string; price: number }[]) =>
        [...prices].sort((a, b) => a.serviceId.localeCompare(b.serviceId));
      const groupon: PartnerPricing = {
        partnerType: "groupon",
        name: "Groupon",
        prices: [
          { serviceId: "s-1", price: 1999 },
          { serviceId: "s-2", price: 27_500 },
          { serviceId: "s-3", price: 1 },
          { serviceId: "s-4", price: 5950 },
        ],
      };

      it("keeps a partner's prices to the cent under its type in upper case, found in any case", async ({ stores }) => {
        expect(await stores.pricing.partner("GROUPON")).toBeNull();
        await stores.pricing.putPartner(groupon);
        for (const typed of ["GROUPON", "groupon", "Groupon"]) {
          const found = await stores.pricing.partner(typed);
          expect(found && { ...found, prices: byService(found.prices) }).toEqual({
            ...groupon,
            partnerType: "GROUPON",
          });
        }
        expect(await stores.pricing.partner("LIVINGSOCIAL")).toBeNull();
      });

      it("replaces a partner's prices on a second write, whatever the case of its type", async ({ stores }) => {
        await stores.pricing.putPartner(groupon);
        await stores.pricing.putPartner({
          partnerType: "GroupOn",
          name: "Groupon Local",
          prices: [{ serviceId: "s-9", price: 4999 }],
        });
        expect(await stores.pricing.partner("groupon")).toEqual({
          partnerType: "GROUPON",
          name: "Groupon Local",
          prices: [{ serviceId: "s-9", price: 4999 }],
        });
        await stores.pricing.putPartner({ partnerType: "GROUPON", name: "Groupon", prices: [] });
        expect(await stores.pricing.partner("groupon")).toEqual({
          partnerType: "GROUPON",
          name: "Groupon",
          prices: [],
        });
      });

      it("takes a partner type with a slash or dots as a type", async ({ stores }) => {
        for (const typed of ["A/B", "..", "__X__", ""]) expect(await stores.pricing.partner(typed)).toBeNull();
        await stores.pricing.putPartner({
          partnerType: "a/b",
          name: "A over B",
          prices: [{ serviceId: "s-1", price: 100 }],
        });
        expect(await stores.pricing.partner("A/B")).toEqual({
          partnerType: "A/B",
          name: "A over B",
          prices: [{ serviceId: "s-1", price: 100 }],
        });
        expect(await stores.pricing.partner("A")).toBeNull();
      });

      it("keeps one tier configuration, its charges to the cent", async ({ stores }) => {
        expect(await stores.pricing.tiers()).toBeNull();
        const tiers = {
          priceTiers: [
            { code: "FT99", charge: 9900, serviceIds: ["s-1", "s-2"] },
            { code: "FT1999", charge: 1999, serviceIds: ["s-3"] },
            { code: "EMPTY", charge: 1, serviceIds: [] },
          ],
          defaultPriceTier: "FT50RAF",
          offerTiers: [
            { percent: 15, serviceIds: ["s-4"], code: "OFFER15" },
            { percent: 12.5, serviceIds: ["s-5", "s-6"], code: null },
          ],
        };
        await stores.pricing.putTiers(tiers);
        expect(await stores.pricing.tiers()).toEqual(tiers);
        const replaced = {
          priceTiers: [{ code: "FT5950", charge: 5950, serviceIds: ["s-1"] }],
          defaultPriceTier: "FT50",
          offerTiers: [],
        };
        await stores.pricing.putTiers(replaced);
        expect(await stores.pricing.tiers()).toEqual(replaced);
      });

      it("finds LHR add-on prices for any number of ids, to the cent, leaving out the ones without a price", async ({
        stores,
      }) => {
        const ids = Array.from({ length: 23 }, (_, i) => `area-${String(i).padStart(2, "0")}`);
        for (const [i, serviceId] of ids.entries()) await stores.pricing.putAddOnPrice({ serviceId, price: 1999 + i });
        await stores.pricing.putAddOnPrice({ serviceId: "area-00", price: 5950 });
        const prices = await stores.pricing.addOnPrices([...ids, "unpriced", ids[3]]);
        expect(byService(prices)).toEqual(ids.map((serviceId, i) => ({ serviceId, price: i === 0 ? 5950 : 1999 + i })));
        expect(await stores.pricing.addOnPrices([])).toEqual([]);
        expect(await stores.pricing.addOnPrices(["unpriced"])).toEqual([]);
      });

      it("takes add-on ids with slashes and dots as ids", async ({ stores }) => {
        for (const [i, serviceId] of ["a/b", "..", "__x__", "%2F"].entries())
          await stores.pricing.putAddOnPrice({ serviceId, price: 100 + i });
        expect(byService(await stores.pricing.addOnPrices(["a/b", "..", "__x__", "%2F", "a", "."]))).toEqual(
          byService([
            { serviceId: "a/b", price: 100 },
            { serviceId: "..", price: 101 },
            { serviceId: "__x__", price: 102 },
            { serviceId: "%2F", price: 103 },
          ]),
        );
      });
    });

    describe("waitlist", () => {
      const entry = (id: string, patch: Partial<WaitlistEntry> = {}): WaitlistEntry => ({
        id,
        centerId: "c-1",
        serviceId: "s-1",
        addOnIds: [],
        therapistId: null,
        days: ["2026-12-07", "2026-12-08"],
        parts: ["morning"],
        channel: "email",
        contact: `${id}@example.com`,
        accountId: null,
        origin: "https://glow.example",
        createdAt: 1_000,
        expiresAt: 10_000,
        offered: [],
        checkedAt: null,
        ...patch,
      });

      it("adds an entry, reads it back, and deletes it once", async ({ stores }) => {
        const ana = entry("w-1", { therapistId: "t-1", accountId: "a-1", parts: ["morning", "evening"] });
        expect(await stores.waitlist.add(ana, 3)).toBe("added");
        expect(await stores.waitlist.get("w-1")).toEqual(ana);
        expect(await stores.waitlist.get("w-2")).toBeNull();
        expect(await stores.waitlist.remove("w-1")).toBe(true);
        expect(await stores.waitlist.remove("w-1")).toBe(false);
        expect(await stores.waitlist.get("w-1")).toBeNull();
      });

      it("refuses a contact's entry past the cap, even when the joins race", async ({ stores }) => {
        const same = (id: string) => entry(id, { contact: "ana@example.com" });
        const answers = await Promise.all(["a", "b", "c", "d", "e"].map((id) => stores.waitlist.add(same(id), 3)));
        expect(answers.filter((a) => a === "added")).toHaveLength(3);
        expect(answers.filter((a) => a === "full")).toHaveLength(2);
        expect(await stores.waitlist.add(entry("other"), 3)).toBe("added");
      });

      it("lists an account's entries and a clinic day's, in the order they joined", async ({ stores }) => {
        await stores.waitlist.add(entry("late", { createdAt: 3_000, accountId: "a-1" }), 3);
        await stores.waitlist.add(entry("early", { createdAt: 1_000, accountId: "a-1" }), 3);
        await stores.waitlist.add(entry("other-day", { createdAt: 2_000, days: ["2026-12-09"] }), 3);
        await stores.waitlist.add(entry("other-clinic", { createdAt: 500, centerId: "c-2" }), 3);
        expect((await stores.waitlist.listForAccount("a-1")).map((e) => e.id)).toEqual(["early", "late"]);
        expect(await stores.waitlist.listForAccount("a-2")).toEqual([]);
        expect((await stores.waitlist.listForContact("late@example.com")).map((e) => e.id)).toEqual(["late"]);
        expect(await stores.waitlist.listForContact("nobody@example.com")).toEqual([]);
        expect((await stores.waitlist.listForDay("c-1", "2026-12-08")).map((e) => e.id)).toEqual(["early", "late"]);
        expect((await stores.waitlist.listForDay("c-1", "2026-12-09")).map((e) => e.id)).toEqual(["other-day"]);
        expect(await stores.waitlist.listForDay("c-3", "2026-12-08")).toEqual([]);
      });

      it("records each offer once, keeps the latest ones, and takes one back", async ({ stores }) => {
        await stores.waitlist.add(entry("w-1"), 3);
        const [first, second] = await Promise.all([
          stores.waitlist.offer("w-1", "2026-12-07T09:00:00", 2),
          stores.waitlist.offer("w-1", "2026-12-07T09:00:00", 2),
        ]);
        expect([first, second].sort()).toEqual([false, true]);
        expect(await stores.waitlist.offer("w-1", "2026-12-07T10:00:00", 2)).toBe(true);
        expect(await stores.waitlist.offer("w-1", "2026-12-07T11:00:00", 2)).toBe(true);
        expect((await stores.waitlist.get("w-1"))?.offered).toEqual(["2026-12-07T10:00:00", "2026-12-07T11:00:00"]);
        await stores.waitlist.withdrawOffer("w-1", "2026-12-07T10:00:00");
        expect((await stores.waitlist.get("w-1"))?.offered).toEqual(["2026-12-07T11:00:00"]);
        expect(await stores.waitlist.offer("gone", "2026-12-07T09:00:00", 2)).toBe(false);
      });

      it("lists entries not checked lately, never-checked first, and deletes the ones whose last day is over", async ({
        stores,
      }) => {
        await stores.waitlist.add(entry("never", { createdAt: 2_000 }), 3);
        await stores.waitlist.add(entry("old-check", { expiresAt: 5_000 }), 3);
        await stores.waitlist.add(entry("fresh-check"), 3);
        await stores.waitlist.markChecked("old-check", 100);
        await stores.waitlist.markChecked("fresh-check", 900);
        await stores.waitlist.markChecked("gone", 900);
        expect((await stores.waitlist.listUnchecked(500, 10)).map((e) => e.id)).toEqual(["never", "old-check"]);
        expect((await stores.waitlist.listUnchecked(1_000, 1)).map((e) => e.id)).toEqual(["never"]);
        expect(await stores.waitlist.removeExpired(5_000)).toBe(1);
        expect(await stores.waitlist.get("old-check")).toBeNull();
        expect(await stores.waitlist.get("never")).not.toBeNull();
      });

      it("lists the notes due, earliest first, each once, and clears only the one given", async ({ stores }) => {
        const early = { centerId: "c-1", date: "2026-12-07", at: 100 };
        const other = { centerId: "c-2", date: "2026-12-07", at: 200 };
        const later = { centerId: "c-1", date: "2026-12-07", at: 900 };
        for (const note of [later, other, early, early]) await stores.waitlist.signal(note);
        expect(await stores.waitlist.listSignals(500, 10)).toEqual([early, other]);
        expect(await stores.waitlist.listSignals(1_000, 10)).toEqual([early, other, later]);
        expect(await stores.waitlist.listSignals(1_000, 1)).toEqual([early]);
        expect(await stores.waitlist.listSignals(1_000, 0)).toEqual([]);
        await stores.waitlist.clearSignal(early);
        expect(await stores.waitlist.listSignals(1_000, 10)).toEqual([other, later]);
      });

      it("gives a lease to one holder at a time, until it runs out", async ({ stores }) => {
        const takes = await Promise.all(["i-1", "i-2", "i-3"].map((h) => stores.waitlist.lease("pass", h, 1_000, 0)));
        expect(takes.filter(Boolean)).toHaveLength(1);
        const holder = ["i-1", "i-2", "i-3"][takes.indexOf(true)];
        const other = holder === "i-1" ? "i-2" : "i-1";
        expect(await stores.waitlist.lease("pass", holder, 2_000, 500)).toBe(true);
        expect(await stores.waitlist.lease("pass", other, 3_000, 1_500)).toBe(false);
        expect(await stores.waitlist.lease("other", other, 3_000, 1_500)).toBe(true);
        expect(await stores.waitlist.lease("pass", other, 3_000, 2_000)).toBe(true);
      });
    });
  });
}
