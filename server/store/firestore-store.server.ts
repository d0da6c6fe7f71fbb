import { cert, deleteApp, initializeApp } from "firebase-admin/app";
import {
  FieldPath,
  Filter,
  getFirestore,
  type DocumentData,
  type DocumentSnapshot,
  type Firestore,
  type QueryDocumentSnapshot,
  type Transaction,
} from "firebase-admin/firestore";
import { normalizePromoCode, ruleFromDollars, ruleToDollars, type PromoCode } from "~/domain/discounts";
import { centsFromDollars, dollarsFromCents } from "~/domain/money";
import {
  decideClaim,
  decidePurchaseClaim,
  UNFINISHED_PURCHASE_STATES,
  DuplicateAccountError,
  emailKey,
  isFinalAttempt,
  type AccountRecord,
  type AccountStore,
  type CenterPrice,
  type CenterPricingStore,
  type GuestDetails,
  type GuestDetailsStore,
  type OneTimeCodeRecord,
  type OneTimeCodeStore,
  type PaymentAttempt,
  type PaymentAttemptStore,
  type PromoCodeStore,
  type Purchase,
  type PurchaseStore,
  type VisitRevisionStore,
  type Stores,
  type UserSessionRecord,
  type UserSessionStore,
} from "./stores.server";

/** gRPC's INVALID_ARGUMENT, which Firestore answers for a transaction it closed before the commit. */
const INVALID_ARGUMENT = 3;

/**
 * A transaction, run again (twice at most) when Firestore closed it before it committed
 * ("Transaction is invalid or closed", seen under contention, above all on the emulator). A
 * closed transaction wrote nothing, so running it again is safe; the library itself retries
 * only ABORTED.
 */
async function inTransaction<T>(db: Firestore, update: (tx: Transaction) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.runTransaction(update);
    } catch (error) {
      const closed = (error as { code?: number }).code === INVALID_ARGUMENT && /transaction is invalid or closed/i.test(String((error as Error).message));
      if (!closed || attempt >= 3) throw error;
    }
  }
}

/**
 * Collection names as the spec gives them. The spec's pricing collection is shared with the
 * earlier client and keeps its decimal dollars (centerPricing.price); promo rules keep dollars too,
 * so every amount in Firestore has one unit. The app works in cents, so money is converted here,
 * on every read and write (docs/decisions/011).
 */
const GUESTS = "guestDetails";
const CENTER_PRICING = "centerPricing";
const PAYMENT_ATTEMPTS = "paymentAttempts";
const PROMO_CODES = "promoCodes";
const ACCOUNTS = "accounts";
const USER_SESSIONS = "userSessions";
const ONE_TIME_CODES = "oneTimeCodes";
const VISIT_REVISIONS = "visitRevisions";
/** Our own collection, read by no other client: its amounts stay cents, as their names say (`shownCents`). */
const PURCHASES = "purchases";
/** A purchase's idempotency key to its id: what makes the key unique, as a document id can be. */
const PURCHASE_KEYS = "purchaseKeys";

/** gRPC status codes Firestore answers with. */
const ALREADY_EXISTS = 6;
const NOT_FOUND = 5;

/** The key with "%" and "/" percent-encoded: never a path, and never the same as another key's. */
function escapeSlashes(key: string): string {
  return key.replace(/%/g, "%25").replace(/\//g, "%2F");
}

/**
 * A key (an email, a promo code, a payment key) as a document id, so that nothing typed becomes a
 * path or an id Firestore refuses: "/" would name a subcollection, "", "." and ".." are not
 * allowed, and "__x__" is reserved. Those, and "%", are percent-encoded; any other key is its own
 * id, as the documents written before this encoding are. Distinct keys get distinct ids.
 */
export function documentId(key: string): string {
  const escaped = escapeSlashes(key);
  // No other key gives a lone "%": every other "%" starts one of the escapes.
  if (escaped === "") return "%";
  if (escaped === "." || escaped === "..") return escaped.replace(/\./g, "%2E");
  if (/^__.*__$/.test(escaped)) return `%5F${escaped.slice(1)}`;
  return escaped;
}

/**
 * The id of a center price, "<centerId>_<serviceId>" as before. Inside each id "_" is encoded too,
 * so ("a_b", "c") and ("a", "b_c") stay two documents; the "_" between them also keeps the id
 * from ever being ".", ".." or "__x__".
 */
function centerPriceId(centerId: string, serviceId: string): string {
  const part = (id: string) => escapeSlashes(id).replace(/_/g, "%5F");
  return `${part(centerId)}_${part(serviceId)}`;
}

/** Firestore's `in` filter took at most 10 values; the spec queries service ids in chunks of 10. */
export function chunk<T>(items: T[], size = 10): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

export function connectFirestore(options: { projectId: string; credentialsJson: string }): { db: Firestore; close: () => Promise<void> } {
  const app = initializeApp(
    { credential: cert(JSON.parse(options.credentialsJson)), projectId: options.projectId },
    `store-${Date.now()}-${Math.random().toString(36).slice(2)}`,
  );
  return { db: getFirestore(app), close: () => deleteApp(app) };
}

/** A guestDetails document as the app sees it; the earlier client's documents may lack fields. */
function toGuestDetails(data: DocumentData): GuestDetails {
  return {
    email: String(data.email ?? ""),
    guest_id: String(data.guest_id ?? ""),
    is_password_set: data.is_password_set === true,
    is_return_user: data.is_return_user === true,
    promo_codes: { ...((data.promo_codes ?? {}) as Record<string, number>) },
  };
}

/**
 * Guest details. This app keys a guest's document by lower-cased email and keeps the key in
 * `emailKey` too. The earlier client wrote documents under automatic ids, with the email as typed:
 * those are found by a query (by `emailKey` once `addGuestEmailKeys` has run, otherwise by the
 * email as typed now or in lower case), and are read and changed where they are, never copied.
 */
function guestDetailsStore(db: Firestore): GuestDetailsStore {
  const guests = db.collection(GUESTS);
  const keyedRef = (email: string) => guests.doc(documentId(emailKey(email)));

  /** The guest's document, read in the transaction when there is one. */
  async function find(tx: Transaction | null, email: string): Promise<DocumentSnapshot | null> {
    const ref = keyedRef(email);
    const keyed = tx ? await tx.get(ref) : await ref.get();
    if (keyed.exists) return keyed;
    const key = emailKey(email);
    const typed = [...new Set([email.trim(), key])];
    const query = guests.where(Filter.or(Filter.where("emailKey", "==", key), Filter.where("email", "in", typed))).limit(1);
    const legacy = tx ? await tx.get(query) : await query.get();
    return legacy.empty ? null : legacy.docs[0];
  }
  async function requireGuest(tx: Transaction, email: string): Promise<DocumentSnapshot> {
    const found = await find(tx, email);
    if (!found) throw new Error("No guestDetails record for this email");
    return found;
  }

  return {
    async get(email) {
      const found = await find(null, email);
      return found ? toGuestDetails(found.data()!) : null;
    },
    async create(details) {
      await inTransaction(db, async (tx) => {
        if (await find(tx, details.email)) throw new Error("A guestDetails record already exists for this email");
        tx.create(keyedRef(details.email), { ...details, email: details.email.trim(), emailKey: emailKey(details.email), promo_codes: details.promo_codes ?? {} });
      });
    },
    async update(email, patch) {
      const fields = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
      await inTransaction(db, async (tx) => {
        const found = await requireGuest(tx, email);
        tx.update(found.ref, { ...fields, emailKey: emailKey(email) });
      });
    },
    async claimPromoUse(input) {
      return inTransaction(db, async (tx) => {
        const found = await find(tx, input.email);
        const used = found ? (toGuestDetails(found.data()!).promo_codes[input.code] ?? 0) : 0;
        if (input.maxUses !== null && used >= input.maxUses) return false;
        if (found) tx.update(found.ref, new FieldPath("promo_codes", input.code), used + 1, "emailKey", emailKey(input.email));
        else {
          const created: GuestDetails = { email: input.email.trim(), guest_id: input.guestId, is_password_set: false, is_return_user: false, promo_codes: { [input.code]: 1 } };
          tx.create(keyedRef(input.email), { ...created, emailKey: emailKey(input.email) });
        }
        return true;
      });
    },
    async releasePromoUse(email, code) {
      await inTransaction(db, async (tx) => {
        const found = await requireGuest(tx, email);
        const used = toGuestDetails(found.data()!).promo_codes[code] ?? 0;
        tx.update(found.ref, new FieldPath("promo_codes", code), Math.max(0, used - 1));
      });
    },
  };
}

/**
 * Gives every guestDetails document an `emailKey` (its email in lower case), so that the ones the
 * earlier client wrote are found whatever the case of the email typed. Pages through the whole
 * collection; run it once after deploying, and again if the earlier client still writes
 * (`npm run firestore:guest-email-keys`). Returns how many documents it changed.
 */
export async function addGuestEmailKeys(db: Firestore, pageSize = 300): Promise<number> {
  let changed = 0;
  let last: QueryDocumentSnapshot | undefined;
  for (;;) {
    let page = db.collection(GUESTS).orderBy(FieldPath.documentId()).limit(pageSize);
    if (last) page = page.startAfter(last);
    const snapshot = await page.get();
    if (snapshot.empty) return changed;
    const batch = db.batch();
    let writes = 0;
    for (const doc of snapshot.docs) {
      const email = doc.get("email");
      if (typeof email !== "string" || doc.get("emailKey") === emailKey(email)) continue;
      batch.update(doc.ref, { emailKey: emailKey(email) });
      writes += 1;
    }
    if (writes > 0) await batch.commit();
    changed += writes;
    last = snapshot.docs[snapshot.docs.length - 1];
  }
}

function centerPricingStore(db: Firestore): CenterPricingStore {
  return {
    async get(centerId, serviceIds) {
      const results = await Promise.all(
        chunk(serviceIds, 10).map((ids) => db.collection(CENTER_PRICING).where("centerId", "==", centerId).where("serviceId", "in", ids).get()),
      );
      return results.flatMap((snapshot) =>
        snapshot.docs.map((doc): CenterPrice => {
          const stored = doc.data();
          return { serviceId: String(stored.serviceId), centerId: String(stored.centerId), price: centsFromDollars(Number(stored.price)), isPrepaidService: stored.isPrepaidService === true };
        }),
      );
    },
    async put(price) {
      await db.collection(CENTER_PRICING).doc(centerPriceId(price.centerId, price.serviceId)).set({ ...price, price: dollarsFromCents(price.price) });
    },
  };
}

function promoCodeStore(db: Firestore): PromoCodeStore {
  return {
    async get(code) {
      const snapshot = await db.collection(PROMO_CODES).doc(documentId(normalizePromoCode(code))).get();
      if (!snapshot.exists) return null;
      const stored = snapshot.data() as PromoCode;
      return { ...stored, rules: stored.rules.map(ruleFromDollars) };
    },
    async put(promo) {
      const code = normalizePromoCode(promo.code);
      await db.collection(PROMO_CODES).doc(documentId(code)).set({ ...promo, code, rules: promo.rules.map(ruleToDollars) });
    },
  };
}

function accountStore(db: Firestore): AccountStore {
  const byEmail = (email: string) => db.collection(ACCOUNTS).doc(documentId(emailKey(email)));
  const byId = async (id: string) => {
    const snapshot = await db.collection(ACCOUNTS).where("id", "==", id).limit(1).get();
    return snapshot.empty ? null : snapshot.docs[0];
  };
  return {
    async create(account) {
      // The email is the document id, so a second account for it cannot be created.
      try {
        const { referralCode, ...rest } = account;
        // Firestore refuses undefined values: a referral code is stored only when there is one.
        await byEmail(account.email).create({ ...rest, email: account.email.trim(), ...(referralCode ? { referralCode } : {}) });
      } catch (error) {
        if ((error as { code?: number }).code === ALREADY_EXISTS) throw new DuplicateAccountError();
        throw error;
      }
    },
    async getByEmail(email) {
      const snapshot = await byEmail(email).get();
      return snapshot.exists ? (snapshot.data() as AccountRecord) : null;
    },
    async getById(id) {
      return ((await byId(id))?.data() as AccountRecord | undefined) ?? null;
    },
    async updatePassword(id, passwordHash, changedAt) {
      await (await byId(id))?.ref.update({ passwordHash, passwordChangedAt: changedAt });
    },
  };
}

function userSessionStore(db: Firestore): UserSessionStore {
  const sessions = db.collection(USER_SESSIONS);
  return {
    async create(session) {
      await sessions.doc(documentId(session.tokenHash)).create(session);
    },
    async get(tokenHash) {
      const snapshot = await sessions.doc(documentId(tokenHash)).get();
      return snapshot.exists ? (snapshot.data() as UserSessionRecord) : null;
    },
    async revoke(tokenHash) {
      await sessions
        .doc(documentId(tokenHash))
        .update({ revoked: true })
        .catch((error: { code?: number }) => {
          if (error.code !== NOT_FOUND) throw error;
        });
    },
    async revokeAllOfUser(userId, exceptTokenHash) {
      const snapshot = await sessions.where("userId", "==", userId).where("revoked", "==", false).get();
      await Promise.all(snapshot.docs.filter((d) => d.get("tokenHash") !== exceptTokenHash).map((d) => d.ref.update({ revoked: true })));
    },
  };
}

function oneTimeCodeStore(db: Firestore): OneTimeCodeStore {
  const codeRef = (email: string) => db.collection(ONE_TIME_CODES).doc(documentId(emailKey(email)));
  return {
    async put(code) {
      await codeRef(code.email).set(code);
    },
    async get(email) {
      const snapshot = await codeRef(email).get();
      return snapshot.exists ? (snapshot.data() as OneTimeCodeRecord) : null;
    },
    async countWrongGuess(email) {
      const ref = codeRef(email);
      return inTransaction(db, async (tx) => {
        const snapshot = await tx.get(ref);
        if (!snapshot.exists) return 0;
        const attempts = (snapshot.data() as OneTimeCodeRecord).attempts + 1;
        tx.update(ref, { attempts });
        return attempts;
      });
    },
    async delete(email) {
      await codeRef(email).delete();
    },
  };
}

function paymentAttemptStore(db: Firestore): PaymentAttemptStore {
  const attemptRef = (key: string) => db.collection(PAYMENT_ATTEMPTS).doc(documentId(key));
  // `open` lets the reconciler find unfinished attempts with one equality filter (no composite index).
  const stored = (attempt: PaymentAttempt) => ({ ...attempt, open: !isFinalAttempt(attempt) });
  const toAttempt = (data: DocumentData): PaymentAttempt => {
    const { open: _open, ...attempt } = data as PaymentAttempt & { open: boolean };
    return attempt;
  };
  return {
    async claim(fresh, now) {
      const ref = attemptRef(fresh.key);
      return inTransaction(db, async (tx) => {
        const snapshot = await tx.get(ref);
        const { write, ...claim } = decideClaim(snapshot.exists ? toAttempt(snapshot.data()!) : null, fresh, now);
        if (write) tx.set(ref, stored(write));
        return claim;
      });
    },
    async save(attempt) {
      await attemptRef(attempt.key).set(stored(attempt));
    },
    async get(key) {
      const snapshot = await attemptRef(key).get();
      return snapshot.exists ? toAttempt(snapshot.data()!) : null;
    },
    async listStale(now, idleBefore, limit) {
      // Open attempts are few; the rest of the filter runs here.
      const snapshot = await db.collection(PAYMENT_ATTEMPTS).where("open", "==", true).limit(500).get();
      return snapshot.docs
        .map((doc) => toAttempt(doc.data()))
        .filter((a) => a.leaseUntil <= now && a.updatedAt <= idleBefore)
        .sort((a, b) => a.updatedAt - b.updatedAt)
        .slice(0, limit);
    },
  };
}

function visitRevisionStore(db: Firestore): VisitRevisionStore {
  const ref = (visitId: string) => db.collection(VISIT_REVISIONS).doc(documentId(visitId.toLowerCase()));
  return {
    async get(visitId) {
      const snapshot = await ref(visitId).get();
      return snapshot.exists ? Number(snapshot.get("sequence") ?? 0) : 0;
    },
    async bump(visitId, now) {
      return inTransaction(db, async (tx) => {
        const snapshot = await tx.get(ref(visitId));
        const sequence = (snapshot.exists ? Number(snapshot.get("sequence") ?? 0) : 0) + 1;
        tx.set(ref(visitId), { sequence, updatedAt: now });
        return sequence;
      });
    },
  };
}

function purchaseStore(db: Firestore): PurchaseStore {
  const purchaseRef = (id: string) => db.collection(PURCHASES).doc(documentId(id));
  const keyRef = (key: string) => db.collection(PURCHASE_KEYS).doc(documentId(key));
  return {
    async createOnce(fresh) {
      return inTransaction(db, async (tx) => {
        const pointer = await tx.get(keyRef(fresh.key));
        if (pointer.exists) {
          const existing = await tx.get(purchaseRef(String(pointer.get("purchaseId"))));
          if (existing.exists) return { created: false, purchase: existing.data() as Purchase };
        }
        // A new key, or one whose purchase is gone: the pointer and the purchase are written together.
        tx.set(keyRef(fresh.key), { purchaseId: fresh.id, createdAt: fresh.createdAt });
        tx.create(purchaseRef(fresh.id), fresh);
        return { created: true, purchase: fresh };
      });
    },
    async claim(id, leaseUntil, now) {
      const ref = purchaseRef(id);
      return inTransaction(db, async (tx) => {
        const snapshot = await tx.get(ref);
        if (!snapshot.exists) return null;
        const { write, ...claim } = decidePurchaseClaim(snapshot.data() as Purchase, leaseUntil, now);
        if (write) tx.set(ref, write);
        return claim;
      });
    },
    async save(purchase) {
      await purchaseRef(purchase.id).set(purchase);
    },
    async get(id) {
      const snapshot = await purchaseRef(id).get();
      return snapshot.exists ? (snapshot.data() as Purchase) : null;
    },
    async listForUser(userId, limit) {
      // One equality filter needs no composite index; a user's purchases are few, so they are sorted here.
      const snapshot = await db.collection(PURCHASES).where("userId", "==", userId).get();
      return snapshot.docs
        .map((doc) => doc.data() as Purchase)
        .sort((a, b) => b.createdAt - a.createdAt)
        .slice(0, limit);
    },
    async listUnfinished(now, idleBefore, limit) {
      // One "in" filter needs no composite index; unfinished purchases are few, so the rest is here.
      const snapshot = await db.collection(PURCHASES).where("state", "in", [...UNFINISHED_PURCHASE_STATES]).get();
      return snapshot.docs
        .map((doc) => doc.data() as Purchase)
        .filter((p) => p.leaseUntil <= now && p.updatedAt <= idleBefore)
        .sort((a, b) => a.updatedAt - b.updatedAt)
        .slice(0, limit);
    },
  };
}

/** The production stores, one collection per kind of record. */
export function createFirestoreStores(db: Firestore, close: () => Promise<void> = async () => {}): Stores {
  return {
    kind: "firestore",
    guestDetails: guestDetailsStore(db),
    centerPricing: centerPricingStore(db),
    promoCodes: promoCodeStore(db),
    accounts: accountStore(db),
    userSessions: userSessionStore(db),
    oneTimeCodes: oneTimeCodeStore(db),
    paymentAttempts: paymentAttemptStore(db),
    visitRevisions: visitRevisionStore(db),
    purchases: purchaseStore(db),
    async ping() {
      // One document read by id (absent or not): the least a round trip to Firestore can cost.
      await db.collection(GUESTS).doc("__readiness").get();
    },
    close,
  };
}
