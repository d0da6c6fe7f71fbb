import { cert, deleteApp, initializeApp } from "firebase-admin/app";
import { FieldPath, getFirestore, type Firestore } from "firebase-admin/firestore";
import { ruleFromDollars, ruleToDollars, type PromoCode } from "~/domain/discounts";
import { centsFromDollars, dollarsFromCents } from "~/domain/money";
import {
  chunk,
  DuplicateAccountError,
  emailKey,
  type AccountRecord,
  type OneTimeCodeRecord,
  type UserSessionRecord,
  decideClaim,
  isFinalAttempt,
  type PaymentAttempt,
  type CenterPrice,
  type DocumentStore,
  type GuestDetails,
  type ImpactAffiliateDetails,
} from "./document-store.server";

/**
 * Collection names as the spec gives them. The spec's pricing collections are shared with the
 * earlier client and keep its decimal dollars (centerPricing.price, partnerPricing.prices,
 * addOnLhrPrices.price); promo rules keep dollars too, so every amount in Firestore has one unit.
 * The app works in cents, so money is converted here, on every read and write (docs/decisions/011).
 */
const GUESTS = "guestDetails";
const CENTER_PRICING = "centerPricing";
const PARTNER_PRICING = "partnerPricing";
const AFFILIATES = "impactAffiliateDetails";
const ADD_ON_LHR_PRICES = "addOnLhrPrices";
const PAYMENT_ATTEMPTS = "paymentAttempts";
const PROMO_CODES = "promoCodes";
const ACCOUNTS = "accounts";
const USER_SESSIONS = "userSessions";
const ONE_TIME_CODES = "oneTimeCodes";

function mapPrices(prices: Record<string, number>, convert: (amount: number) => number): Record<string, number> {
  return Object.fromEntries(Object.entries(prices).map(([serviceId, amount]) => [serviceId, convert(Number(amount))]));
}

export function connectFirestore(options: { projectId: string; credentialsJson: string }): { db: Firestore; close: () => Promise<void> } {
  const app = initializeApp(
    { credential: cert(JSON.parse(options.credentialsJson)), projectId: options.projectId },
    `store-${Date.now()}`,
  );
  return { db: getFirestore(app), close: () => deleteApp(app) };
}

/** The production document store. Guest records are keyed by lower-cased email. */
export function createFirestoreStore(db: Firestore, close: () => Promise<void> = async () => {}): DocumentStore {
  const guestDoc = (email: string) => db.collection(GUESTS).doc(emailKey(email));

  return {
    kind: "firestore",

    async getGuestDetails(email) {
      const direct = await guestDoc(email).get();
      if (direct.exists) return direct.data() as GuestDetails;
      // Records written by the earlier client were auto-id documents queried by email.
      const query = await db.collection(GUESTS).where("email", "==", email.trim()).limit(1).get();
      return query.empty ? null : (query.docs[0].data() as GuestDetails);
    },
    async createGuestDetails(details) {
      await guestDoc(details.email).create({ ...details, email: details.email.trim(), promo_codes: details.promo_codes ?? {} });
    },
    async updateGuestDetails(email, patch) {
      await guestDoc(email).update(patch);
    },
    async adjustPromoCodeCount(email, code, delta) {
      return db.runTransaction(async (tx) => {
        const ref = guestDoc(email);
        const snapshot = await tx.get(ref);
        if (!snapshot.exists) throw new Error("guestDetails record not found");
        const codes = ((snapshot.data() as GuestDetails).promo_codes ?? {}) as Record<string, number>;
        const next = Math.max(0, (codes[code] ?? 0) + delta);
        tx.update(ref, new FieldPath("promo_codes", code), next);
        return next;
      });
    },

    async getCenterPricing(centerId, serviceIds) {
      const results = await Promise.all(
        chunk(serviceIds, 10).map((ids) =>
          db.collection(CENTER_PRICING).where("centerId", "==", centerId).where("serviceId", "in", ids).get(),
        ),
      );
      return results.flatMap((snapshot) =>
        snapshot.docs.map((doc) => {
          const stored = doc.data() as CenterPrice;
          return { ...stored, price: centsFromDollars(Number(stored.price)) };
        }),
      );
    },
    async putCenterPrice(price) {
      await db.collection(CENTER_PRICING).doc(`${price.centerId}_${price.serviceId}`).set({ ...price, price: dollarsFromCents(price.price) });
    },

    async getPartnerPricing(partnerType) {
      const snapshot = await db.collection(PARTNER_PRICING).where("partnerType", "==", partnerType.toUpperCase()).limit(1).get();
      if (snapshot.empty) return null;
      const data = snapshot.docs[0].data();
      return { partnerType: String(data.partnerType), prices: mapPrices((data.prices ?? {}) as Record<string, number>, centsFromDollars) };
    },
    async putPartnerPricing(pricing) {
      const type = pricing.partnerType.toUpperCase();
      await db.collection(PARTNER_PRICING).doc(type).set({ partnerType: type, prices: mapPrices(pricing.prices, dollarsFromCents) });
    },

    async getAffiliateDetails(userId) {
      const snapshot = await db.collection(AFFILIATES).doc(userId).get();
      return snapshot.exists ? (snapshot.data() as ImpactAffiliateDetails) : null;
    },
    async recordAffiliateClick(details) {
      const ref = db.collection(AFFILIATES).doc(details.user_id);
      return db.runTransaction(async (tx) => {
        const snapshot = await tx.get(ref);
        if (!snapshot.exists) {
          const created: ImpactAffiliateDetails = { ...details, isFtTreatedTriggered: false, isExpired: false };
          tx.create(ref, created);
          return created;
        }
        const existing = snapshot.data() as ImpactAffiliateDetails;
        if (existing.irclickid === details.irclickid) return existing;
        tx.update(ref, { irclickid: details.irclickid, timestamp: details.timestamp });
        return { ...existing, irclickid: details.irclickid, timestamp: details.timestamp };
      });
    },

    async getAddOnLhrPrices(serviceIds) {
      const results = await Promise.all(
        chunk(serviceIds, 10).map((ids) => db.collection(ADD_ON_LHR_PRICES).where(FieldPath.documentId(), "in", ids).get()),
      );
      return Object.fromEntries(results.flatMap((s) => s.docs.map((doc) => [doc.id, centsFromDollars(Number(doc.data().price))])));
    },
    async putAddOnLhrPrice(serviceId, price) {
      await db.collection(ADD_ON_LHR_PRICES).doc(serviceId).set({ price: dollarsFromCents(price) });
    },

    async claimPromoUse(input) {
      return db.runTransaction(async (tx) => {
        const ref = guestDoc(input.email);
        const snapshot = await tx.get(ref);
        const codes = ((snapshot.data() as GuestDetails | undefined)?.promo_codes ?? {}) as Record<string, number>;
        const used = codes[input.code] ?? 0;
        if (input.maxUses !== null && used >= input.maxUses) return false;
        if (snapshot.exists) tx.update(ref, new FieldPath("promo_codes", input.code), used + 1);
        else {
          const created: GuestDetails = { email: input.email.trim(), guest_id: input.guestId, is_password_set: false, is_return_user: false, promo_codes: { [input.code]: 1 } };
          tx.create(ref, created);
        }
        return true;
      });
    },

    async claimPaymentAttempt(fresh, now) {
      const ref = db.collection(PAYMENT_ATTEMPTS).doc(fresh.key);
      return db.runTransaction(async (tx) => {
        const snapshot = await tx.get(ref);
        const { write, ...claim } = decideClaim(snapshot.exists ? (snapshot.data() as PaymentAttempt) : null, fresh, now);
        if (write) tx.set(ref, { ...write, open: !isFinalAttempt(write) });
        return claim;
      });
    },
    async savePaymentAttempt(attempt) {
      await db.collection(PAYMENT_ATTEMPTS).doc(attempt.key).set({ ...attempt, open: !isFinalAttempt(attempt) });
    },
    async getPaymentAttempt(key) {
      const snapshot = await db.collection(PAYMENT_ATTEMPTS).doc(key).get();
      if (!snapshot.exists) return null;
      const { open: _open, ...attempt } = snapshot.data() as PaymentAttempt & { open: boolean };
      return attempt;
    },
    async listStalePaymentAttempts(now, idleBefore, limit) {
      // One equality filter needs no composite index; open attempts are few.
      const snapshot = await db.collection(PAYMENT_ATTEMPTS).where("open", "==", true).limit(500).get();
      return snapshot.docs
        .map((doc) => {
          const { open: _open, ...attempt } = doc.data() as PaymentAttempt & { open: boolean };
          return attempt;
        })
        .filter((a) => a.leaseUntil <= now && a.updatedAt <= idleBefore)
        .sort((a, b) => a.updatedAt - b.updatedAt)
        .slice(0, limit);
    },

    async getPromoCode(code) {
      const snapshot = await db.collection(PROMO_CODES).doc(code.trim().toUpperCase()).get();
      if (!snapshot.exists) return null;
      const stored = snapshot.data() as PromoCode;
      return { ...stored, rules: stored.rules.map(ruleFromDollars) };
    },
    async putPromoCode(promo) {
      await db.collection(PROMO_CODES).doc(promo.code.toUpperCase()).set({ ...promo, code: promo.code.toUpperCase(), rules: promo.rules.map(ruleToDollars) });
    },

    async createAccount(account) {
      // The email is the document id, so a second account for it cannot be created.
      try {
        await db.collection(ACCOUNTS).doc(emailKey(account.email)).create({ ...account, email: account.email.trim() });
      } catch (error) {
        if ((error as { code?: number }).code === 6) throw new DuplicateAccountError();
        throw error;
      }
    },
    async getAccountByEmail(email) {
      const snapshot = await db.collection(ACCOUNTS).doc(emailKey(email)).get();
      return snapshot.exists ? (snapshot.data() as AccountRecord) : null;
    },
    async getAccountById(id) {
      const snapshot = await db.collection(ACCOUNTS).where("id", "==", id).limit(1).get();
      return snapshot.empty ? null : (snapshot.docs[0].data() as AccountRecord);
    },
    async updateAccountPassword(id, passwordHash, changedAt) {
      const snapshot = await db.collection(ACCOUNTS).where("id", "==", id).limit(1).get();
      if (!snapshot.empty) await snapshot.docs[0].ref.update({ passwordHash, passwordChangedAt: changedAt });
    },

    async createUserSession(session) {
      await db.collection(USER_SESSIONS).doc(session.tokenHash).create(session);
    },
    async getUserSession(tokenHash) {
      const snapshot = await db.collection(USER_SESSIONS).doc(tokenHash).get();
      return snapshot.exists ? (snapshot.data() as UserSessionRecord) : null;
    },
    async revokeUserSession(tokenHash) {
      await db.collection(USER_SESSIONS).doc(tokenHash).update({ revoked: true }).catch(() => undefined);
    },
    async revokeUserSessions(userId, exceptTokenHash) {
      const snapshot = await db.collection(USER_SESSIONS).where("userId", "==", userId).where("revoked", "==", false).get();
      await Promise.all(snapshot.docs.filter((d) => d.id !== exceptTokenHash).map((d) => d.ref.update({ revoked: true })));
    },

    async putOneTimeCode(code) {
      await db.collection(ONE_TIME_CODES).doc(emailKey(code.email)).set(code);
    },
    async getOneTimeCode(email) {
      const snapshot = await db.collection(ONE_TIME_CODES).doc(emailKey(email)).get();
      return snapshot.exists ? (snapshot.data() as OneTimeCodeRecord) : null;
    },
    async countOneTimeCodeAttempt(email) {
      const ref = db.collection(ONE_TIME_CODES).doc(emailKey(email));
      return db.runTransaction(async (tx) => {
        const snapshot = await tx.get(ref);
        if (!snapshot.exists) return 0;
        const attempts = (snapshot.data() as OneTimeCodeRecord).attempts + 1;
        tx.update(ref, { attempts });
        return attempts;
      });
    },
    async deleteOneTimeCode(email) {
      await db.collection(ONE_TIME_CODES).doc(emailKey(email)).delete();
    },

    close,
  };
}
