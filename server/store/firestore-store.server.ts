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
  type AffiliateDetails,
  type AffiliateStore,
  type BookingRecovery,
  type BookingRecoveryStore,
  type CenterPrice,
  type CenterPricingStore,
  type GuestDetails,
  type GuestDetailsStore,
  type OneTimeCodeRecord,
  type OneTimeCodeStore,
  type PaymentAttempt,
  type PaymentAttemptStore,
  type PartnerPricing,
  type PricingStore,
  type PricingTiers,
  type PromoCodeStore,
  type Purchase,
  type PurchaseStore,
  type Referral,
  type ReferralAdded,
  type ReferralCodeRecord,
  type ReferralStore,
  type VisitRevisionStore,
  type Stores,
  type UserSessionRecord,
  type UserSessionStore,
  type WaitlistEntry,
  type WaitlistSignal,
  type WaitlistStore,
} from "./stores.server";

/** gRPC's INVALID_ARGUMENT, which Firestore answers for a transaction it closed before the commit. */
const INVALID_ARGUMENT = 3;

/**
 * A transaction, run again (twice at most) when Firestore closed it before it committed
 * ("Transaction is invalid or closed", seen under contention, above all on the emulator). A
 * closed transaction wrote nothing, so running it again is safe; the library itself retries
 * only ABORTED.
 */
async function inTransaction<T>(
  db: Firestore,
  update: (tx: Transaction) => Promise<T>,
  options?: { maxAttempts: number },
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.runTransaction(update, options);
    } catch (error) {
      const closed =
        (error as { code?: number }).code === INVALID_ARGUMENT &&
        /transaction is invalid or closed/i.test(String((error as Error).message));
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
/** A referral code (upper case) to its owner, keyed by the code: what makes a code unique. */
const REFERRAL_CODES = "referralCodes";
/** An account's id to its referral code: what gives an account one code, read in `codeFor`'s transaction. */
const REFERRAL_CODE_OWNERS = "referralCodeOwners";
/** Our own collection, keyed by the friend's lower-cased email: rewards are points, never money. */
const REFERRALS = "referrals";
/** How many friends a code refers, keyed by the code: the document every new referral of the code is counted in (decision 038). */
const REFERRAL_COUNTS = "referralCounts";
/**
 * How often a referral's transaction is tried: every friend of a code writes its one counter, so
 * many friends at once (the race the counter is for) queue on it, and the library's default of 5
 * tries gives up while they do. Tries back off, so a queue of this depth clears.
 */
const REFERRAL_COUNT_TRIES = 30;
/** The spec's affiliate attribution, one document per user, with the spec's field names. */
const AFFILIATES = "impactAffiliateDetails";
/**
 * The spec's pricing configuration, shared with the earlier client: decimal dollars in the
 * documents (partnerPricing.prices, pricingTiers' charges, addOnLhrPrices.price), cents in the app.
 */
const PARTNER_PRICING = "partnerPricing";
const PRICING_TIERS = "pricingTiers";
/** The one document of `pricingTiers`. */
const CURRENT_TIERS = "current";
const ADD_ON_LHR_PRICES = "addOnLhrPrices";
/** Our own collections (decision 058): the waitlist's entries by id, its days to look at by clinic and day, and named leases. */
const WAITLIST_ENTRIES = "waitlistEntries";
const WAITLIST_SIGNALS = "waitlistSignals";
const JOB_LEASES = "jobLeases";
/** Recovery messages for unfinished bookings (decision 059), one document per draft, by the draft's id. */
const BOOKING_RECOVERIES = "bookingRecoveries";

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

export function connectFirestore(options: { projectId: string; credentialsJson: string }): {
  db: Firestore;
  close: () => Promise<void>;
} {
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
    const query = guests
      .where(Filter.or(Filter.where("emailKey", "==", key), Filter.where("email", "in", typed)))
      .limit(1);
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
        tx.create(keyedRef(details.email), {
          ...details,
          email: details.email.trim(),
          emailKey: emailKey(details.email),
          promo_codes: details.promo_codes ?? {},
        });
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
        if (found)
          tx.update(found.ref, new FieldPath("promo_codes", input.code), used + 1, "emailKey", emailKey(input.email));
        else {
          const created: GuestDetails = {
            email: input.email.trim(),
            guest_id: input.guestId,
            is_password_set: false,
            is_return_user: false,
            promo_codes: { [input.code]: 1 },
          };
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
        chunk(serviceIds, 10).map((ids) =>
          db.collection(CENTER_PRICING).where("centerId", "==", centerId).where("serviceId", "in", ids).get(),
        ),
      );
      return results.flatMap((snapshot) =>
        snapshot.docs.map((doc): CenterPrice => {
          const stored = doc.data();
          return {
            serviceId: String(stored.serviceId),
            centerId: String(stored.centerId),
            price: centsFromDollars(Number(stored.price)),
            isPrepaidService: stored.isPrepaidService === true,
          };
        }),
      );
    },
    async put(price) {
      await db
        .collection(CENTER_PRICING)
        .doc(centerPriceId(price.centerId, price.serviceId))
        .set({ ...price, price: dollarsFromCents(price.price) });
    },
  };
}

function promoCodeStore(db: Firestore): PromoCodeStore {
  return {
    async get(code) {
      const snapshot = await db
        .collection(PROMO_CODES)
        .doc(documentId(normalizePromoCode(code)))
        .get();
      if (!snapshot.exists) return null;
      const stored = snapshot.data() as PromoCode;
      return { ...stored, rules: stored.rules.map(ruleFromDollars) };
    },
    async put(promo) {
      const code = normalizePromoCode(promo.code);
      await db
        .collection(PROMO_CODES)
        .doc(documentId(code))
        .set({ ...promo, code, rules: promo.rules.map(ruleToDollars) });
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
        await byEmail(account.email).create({
          ...rest,
          email: account.email.trim(),
          ...(referralCode ? { referralCode } : {}),
        });
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
      await Promise.all(
        snapshot.docs.filter((d) => d.get("tokenHash") !== exceptTokenHash).map((d) => d.ref.update({ revoked: true })),
      );
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
      const snapshot = await db
        .collection(PURCHASES)
        .where("state", "in", [...UNFINISHED_PURCHASE_STATES])
        .get();
      return snapshot.docs
        .map((doc) => doc.data() as Purchase)
        .filter((p) => p.leaseUntil <= now && p.updatedAt <= idleBefore)
        .sort((a, b) => a.updatedAt - b.updatedAt)
        .slice(0, limit);
    },
  };
}

/** How many codes `codeFor` makes before it gives up: a maker that only gives taken codes is a bug. */
const REFERRAL_CODE_TRIES = 20;

/** A referral code as it is kept and looked up: upper case, without the spaces around it. */
function referralCodeKey(code: string): string {
  return code.trim().toUpperCase();
}

function toReferralCode(data: DocumentData): ReferralCodeRecord {
  return {
    code: String(data.code),
    accountId: String(data.accountId),
    guestId: String(data.guestId),
    firstName: String(data.firstName),
    centerId: String(data.centerId),
    createdAt: Number(data.createdAt),
  };
}

function toReferral(data: DocumentData): Referral {
  return {
    friendEmail: String(data.friendEmail),
    friendFirstName: String(data.friendFirstName),
    friendGuestId: typeof data.friendGuestId === "string" ? data.friendGuestId : null,
    code: String(data.code),
    referrerAccountId: String(data.referrerAccountId),
    referrerGuestId: String(data.referrerGuestId),
    createdAt: Number(data.createdAt),
    state: data.state === "rewarded" ? "rewarded" : "registered",
    checkedAt: typeof data.checkedAt === "number" ? data.checkedAt : null,
    rewardPoints: Number(data.rewardPoints ?? 0),
    rewardedAt: typeof data.rewardedAt === "number" ? data.rewardedAt : null,
    visitId: typeof data.visitId === "string" ? data.visitId : null,
    // A reward made before credits were noted has no such field: it was sent once, and counts as sent.
    creditSentAt:
      typeof data.creditSentAt === "number"
        ? data.creditSentAt
        : data.state === "rewarded" && !("creditSentAt" in data)
          ? Number(data.rewardedAt ?? 0)
          : null,
    creditTriedAt: typeof data.creditTriedAt === "number" ? data.creditTriedAt : null,
  };
}

/**
 * The fields that let `listAwaitingReward` find what to check with single-field indexes (no
 * composite index): `awaitingFirstCheck` is true for a referral awaiting its reward that was never
 * checked, `awaitingCheckedAt` is the check time of one that was (null otherwise).
 */
function awaitingFields(
  referral: Pick<Referral, "state" | "friendGuestId" | "checkedAt" | "rewardedAt" | "creditSentAt" | "creditTriedAt">,
) {
  const awaiting = referral.state === "registered" && referral.friendGuestId !== null;
  return {
    awaitingFirstCheck: awaiting && referral.checkedAt === null,
    awaitingCheckedAt: awaiting ? referral.checkedAt : null,
    // What `listUncredited` finds: a reward whose credit was not handed on yet, by when it was last tried (or earned).
    creditPendingSince:
      referral.state === "rewarded" && referral.creditSentAt === null
        ? (referral.creditTriedAt ?? referral.rewardedAt)
        : null,
  };
}

/** A referral as its document: every field named (Firestore refuses undefined), its email key, and the fields it is found by. */
function storedReferral(referral: Referral): DocumentData {
  return { ...toReferral(referral), emailKey: emailKey(referral.friendEmail), ...awaitingFields(referral) };
}

/**
 * Referral codes, unique through their document id (the code in upper case), with a document per
 * account pointing at its code so that one transaction gives an account one code; and the
 * friends referred, keyed by their lower-cased email.
 */
function referralStore(db: Firestore): ReferralStore {
  const codeRef = (code: string) => db.collection(REFERRAL_CODES).doc(documentId(code));
  const ownerRef = (accountId: string) => db.collection(REFERRAL_CODE_OWNERS).doc(documentId(accountId));
  const referrals = db.collection(REFERRALS);
  const referralRef = (email: string) => referrals.doc(documentId(emailKey(email)));
  const countRef = (code: string) => db.collection(REFERRAL_COUNTS).doc(documentId(code));
  const byRecency = (a: Referral, b: Referral) =>
    a.createdAt - b.createdAt || emailKey(a.friendEmail).localeCompare(emailKey(b.friendEmail));

  /** The account's code, read in the transaction when there is one. */
  async function ownCode(tx: Transaction | null, accountId: string): Promise<ReferralCodeRecord | null> {
    const pointer = tx ? await tx.get(ownerRef(accountId)) : await ownerRef(accountId).get();
    if (!pointer.exists) return null;
    const ref = codeRef(String(pointer.get("code")));
    const code = tx ? await tx.get(ref) : await ref.get();
    return code.exists && code.get("accountId") === accountId ? toReferralCode(code.data()!) : null;
  }

  return {
    async codeFor(owner, make, now) {
      return inTransaction(db, async (tx) => {
        const existing = await ownCode(tx, owner.accountId);
        if (existing) return existing;
        for (let tries = 0; tries < REFERRAL_CODE_TRIES; tries++) {
          const code = referralCodeKey(make());
          if (!code) continue;
          const taken = await tx.get(codeRef(code));
          if (taken.exists) {
            // The account's own code whose pointer is missing is taken back; another account's is not.
            if (taken.get("accountId") !== owner.accountId) continue;
            tx.set(ownerRef(owner.accountId), { code, createdAt: Number(taken.get("createdAt")) });
            return toReferralCode(taken.data()!);
          }
          const record: ReferralCodeRecord = {
            code,
            accountId: owner.accountId,
            guestId: owner.guestId,
            firstName: owner.firstName,
            centerId: owner.centerId,
            createdAt: now,
          };
          tx.create(codeRef(code), record);
          tx.set(ownerRef(owner.accountId), { code, createdAt: now });
          return record;
        }
        throw new Error(`No free referral code after ${REFERRAL_CODE_TRIES} tries`);
      });
    },
    async byCode(code) {
      const snapshot = await codeRef(referralCodeKey(code)).get();
      return snapshot.exists ? toReferralCode(snapshot.data()!) : null;
    },
    async forOwner(accountId) {
      return ownCode(null, accountId);
    },
    async add(referral, cap) {
      const ref = referralRef(referral.friendEmail);
      const counter = countRef(referral.code);
      return inTransaction(
        db,
        async (tx): Promise<ReferralAdded> => {
          // Every read before any write, as Firestore's transactions require.
          const [existing, count] = await Promise.all([tx.get(ref), tx.get(counter)]);
          if (existing.exists) return "already-referred";
          // Two transactions adding under one code both read its counter, so one of them is tried again.
          const friends = count.exists
            ? Number(count.get("friends") ?? 0)
            : (await tx.get(referrals.where("code", "==", referral.code))).size;
          if (friends >= cap) return "used-up";
          tx.create(ref, storedReferral(referral));
          tx.set(counter, { code: referral.code, friends: friends + 1 });
          return "added";
        },
        { maxAttempts: REFERRAL_COUNT_TRIES },
      );
    },
    async release(friendEmail, code) {
      const ref = referralRef(friendEmail);
      const counter = countRef(code);
      return inTransaction(
        db,
        async (tx) => {
          const [existing, count] = await Promise.all([tx.get(ref), tx.get(counter)]);
          if (!existing.exists) return false;
          const claim = toReferral(existing.data()!);
          if (claim.code !== code || claim.state !== "registered" || claim.friendGuestId !== null) return false;
          tx.delete(ref);
          if (count.exists) tx.update(counter, { friends: Math.max(0, Number(count.get("friends") ?? 0) - 1) });
          return true;
        },
        { maxAttempts: REFERRAL_COUNT_TRIES },
      );
    },
    async forFriend(email) {
      const snapshot = await referralRef(email).get();
      return snapshot.exists ? toReferral(snapshot.data()!) : null;
    },
    async listByReferrer(accountId, limit) {
      // One equality filter needs no composite index; a referrer's referrals are few, so they are sorted here.
      const snapshot = await referrals.where("referrerAccountId", "==", accountId).get();
      return snapshot.docs
        .map((doc) => toReferral(doc.data()))
        .sort((a, b) => byRecency(b, a))
        .slice(0, Math.max(0, limit));
    },
    async update(friendEmail, patch) {
      const ref = referralRef(friendEmail);
      await inTransaction(db, async (tx) => {
        const snapshot = await tx.get(ref);
        if (!snapshot.exists) throw new Error("No referral for this email");
        const fields = Object.fromEntries(
          Object.entries(patch).filter(([, value]) => value !== undefined),
        ) as typeof patch;
        const changed = { ...toReferral(snapshot.data()!), ...fields };
        tx.update(ref, { ...fields, ...awaitingFields(changed) });
      });
    },
    async reward(friendEmail, reward) {
      const ref = referralRef(friendEmail);
      return inTransaction(db, async (tx) => {
        const snapshot = await tx.get(ref);
        if (!snapshot.exists || toReferral(snapshot.data()!).state !== "registered") return false;
        tx.update(ref, {
          state: "rewarded",
          rewardPoints: reward.points,
          rewardedAt: reward.now,
          visitId: reward.visitId,
          creditSentAt: null,
          creditTriedAt: null,
          awaitingFirstCheck: false,
          awaitingCheckedAt: null,
          creditPendingSince: reward.now,
        });
        return true;
      });
    },
    async listAwaitingReward(checkedBefore, limit) {
      if (limit <= 0) return [];
      // Never-checked referrals are few (each is checked on the next pass): all of them, oldest first.
      const unchecked = (await referrals.where("awaitingFirstCheck", "==", true).get()).docs
        .map((doc) => toReferral(doc.data()))
        .sort(byRecency)
        .slice(0, limit);
      if (unchecked.length >= limit) return unchecked;
      const checked = await referrals
        .where("awaitingCheckedAt", "<", checkedBefore)
        .orderBy("awaitingCheckedAt")
        .limit(limit - unchecked.length)
        .get();
      return [...unchecked, ...checked.docs.map((doc) => toReferral(doc.data()))];
    },
    async listUncredited(triedBefore, limit) {
      if (limit <= 0) return [];
      // Rewards earned before this field existed have none: they were sent once, as then.
      const snapshot = await referrals
        .where("creditPendingSince", "<", triedBefore)
        .orderBy("creditPendingSince")
        .limit(limit)
        .get();
      return snapshot.docs.map((doc) => toReferral(doc.data()));
    },
  };
}

/** A time the earlier client may have written as a Firestore timestamp, in milliseconds. */
function millis(value: unknown): number {
  if (value && typeof (value as { toMillis?: unknown }).toMillis === "function")
    return (value as { toMillis(): number }).toMillis();
  return Number(value);
}

function toAffiliate(data: DocumentData): AffiliateDetails {
  return {
    user_id: String(data.user_id),
    user_email: String(data.user_email ?? ""),
    irclickid: String(data.irclickid ?? ""),
    timestamp: millis(data.timestamp),
    isFtTreatedTriggered: data.isFtTreatedTriggered === true,
    isExpired: data.isExpired === true,
    checkedAt: data.checkedAt === undefined || data.checkedAt === null ? null : millis(data.checkedAt),
  };
}

/** The spec's impactAffiliateDetails: one document per user, keyed by the user id, the spec's fields only. */
function affiliateStore(db: Firestore): AffiliateStore {
  const affiliates = db.collection(AFFILIATES);
  const ref = (userId: string) => affiliates.doc(documentId(userId));
  return {
    async get(userId) {
      const snapshot = await ref(userId).get();
      return snapshot.exists ? toAffiliate(snapshot.data()!) : null;
    },
    async record(input) {
      return inTransaction(db, async (tx) => {
        const snapshot = await tx.get(ref(input.userId));
        if (!snapshot.exists) {
          const created: AffiliateDetails = {
            user_id: input.userId,
            user_email: input.userEmail,
            irclickid: input.clickId,
            timestamp: input.clickedAt,
            isFtTreatedTriggered: false,
            isExpired: false,
            checkedAt: null,
          };
          tx.create(ref(input.userId), created);
          return "created";
        }
        if (snapshot.get("irclickid") === input.clickId) return "unchanged";
        // A new click starts a new window.
        tx.update(ref(input.userId), {
          irclickid: input.clickId,
          timestamp: input.clickedAt,
          isFtTreatedTriggered: false,
          isExpired: false,
        });
        return "updated";
      });
    },
    async update(userId, patch) {
      const fields = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
      await inTransaction(db, async (tx) => {
        const snapshot = await tx.get(ref(userId));
        if (!snapshot.exists) throw new Error("No impactAffiliateDetails record for this user");
        if (Object.keys(fields).length > 0) tx.update(ref(userId), fields);
      });
    },
    async listOpen(checkedBefore, limit) {
      // Two equality filters need no composite index; open records are those still in their
      // attribution window, and older ones may have no checkedAt, so the rest is done here.
      const snapshot = await affiliates
        .where("isFtTreatedTriggered", "==", false)
        .where("isExpired", "==", false)
        .get();
      const neverFirst = (a: AffiliateDetails, b: AffiliateDetails) =>
        (a.checkedAt === null ? 0 : 1) - (b.checkedAt === null ? 0 : 1) ||
        (a.checkedAt ?? 0) - (b.checkedAt ?? 0) ||
        a.timestamp - b.timestamp ||
        a.user_id.localeCompare(b.user_id);
      return snapshot.docs
        .map((doc) => toAffiliate(doc.data()))
        .filter((a) => a.checkedAt === null || a.checkedAt === undefined || a.checkedAt < checkedBefore)
        .sort(neverFirst)
        .slice(0, Math.max(0, limit));
    },
  };
}

/**
 * Partner prices, the tier configuration and the LHR add-on prices: the spec's collections, in
 * dollars in their documents and in cents in the app (docs/decisions/011).
 */
function pricingStore(db: Firestore): PricingStore {
  const partners = db.collection(PARTNER_PRICING);
  const addOnRef = (serviceId: string) => db.collection(ADD_ON_LHR_PRICES).doc(documentId(serviceId));
  const tiersRef = db.collection(PRICING_TIERS).doc(CURRENT_TIERS);

  /** The partner's document: keyed by its type, or else one the earlier client wrote under another id. */
  async function findPartner(type: string): Promise<DocumentSnapshot | null> {
    const keyed = await partners.doc(documentId(type)).get();
    if (keyed.exists) return keyed;
    const legacy = await partners.where("partnerType", "==", type).limit(1).get();
    return legacy.empty ? null : legacy.docs[0];
  }

  return {
    async partner(partnerType) {
      const type = partnerType.toUpperCase();
      const found = await findPartner(type);
      if (!found) return null;
      const data = found.data()!;
      const prices = Object.entries((data.prices ?? {}) as Record<string, number>).map(([serviceId, dollars]) => ({
        serviceId,
        price: centsFromDollars(Number(dollars)),
      }));
      // A partner written before partners had names is shown under its type.
      return { partnerType: type, name: typeof data.name === "string" ? data.name : type, prices };
    },
    async putPartner(pricing) {
      const type = pricing.partnerType.toUpperCase();
      const stored: Omit<PartnerPricing, "prices"> & { prices: Record<string, number> } = {
        partnerType: type,
        name: pricing.name,
        prices: Object.fromEntries(pricing.prices.map((p) => [p.serviceId, dollarsFromCents(p.price)])),
      };
      // Replaced where it is, so that a partner never has two documents.
      const found = await findPartner(type);
      await (found?.ref ?? partners.doc(documentId(type))).set(stored);
    },
    async tiers() {
      const snapshot = await tiersRef.get();
      if (!snapshot.exists) return null;
      const data = snapshot.data()!;
      return {
        priceTiers: ((data.priceTiers ?? []) as { code: string; charge: number; serviceIds?: string[] }[]).map((t) => ({
          code: String(t.code),
          charge: centsFromDollars(Number(t.charge)),
          serviceIds: [...(t.serviceIds ?? [])].map(String),
        })),
        defaultPriceTier: String(data.defaultPriceTier ?? ""),
        offerTiers: ((data.offerTiers ?? []) as { percent: number; serviceIds?: string[]; code?: string | null }[]).map(
          (t) => ({
            percent: Number(t.percent),
            serviceIds: [...(t.serviceIds ?? [])].map(String),
            code: t.code ? String(t.code) : null,
          }),
        ),
      };
    },
    async putTiers(tiers) {
      const stored: PricingTiers = {
        priceTiers: tiers.priceTiers.map((t) => ({
          code: t.code,
          charge: dollarsFromCents(t.charge),
          serviceIds: [...t.serviceIds],
        })),
        defaultPriceTier: tiers.defaultPriceTier,
        offerTiers: tiers.offerTiers.map((t) => ({ percent: t.percent, serviceIds: [...t.serviceIds], code: t.code })),
      };
      await tiersRef.set(stored);
    },
    async addOnPrices(serviceIds) {
      // Read by id, ten at a time as the spec asks; a document's id is its service id as `documentId` gave it.
      const byDocumentId = new Map(serviceIds.map((id) => [documentId(id), id]));
      const results = await Promise.all(
        chunk([...byDocumentId.keys()], 10).map((ids) =>
          db.getAll(...ids.map((id) => db.collection(ADD_ON_LHR_PRICES).doc(id))),
        ),
      );
      return results
        .flat()
        .flatMap((snapshot) =>
          snapshot.exists
            ? [{ serviceId: byDocumentId.get(snapshot.id)!, price: centsFromDollars(Number(snapshot.get("price"))) }]
            : [],
        );
    },
    async putAddOnPrice(price) {
      await addOnRef(price.serviceId).set({ price: dollarsFromCents(price.price) });
    },
  };
}

function bookingRecoveryStore(db: Firestore): BookingRecoveryStore {
  const collection = () => db.collection(BOOKING_RECOVERIES);
  const draftRef = (draftId: string) => collection().doc(documentId(draftId));
  const find = async (id: string) => {
    // One equality filter needs no composite index.
    const snapshot = await collection().where("id", "==", id).limit(1).get();
    return snapshot.empty ? null : snapshot.docs[0];
  };
  const removeAll = async (docs: QueryDocumentSnapshot[]) => {
    for (const part of chunk(docs, 400)) {
      const batch = db.batch();
      for (const doc of part) batch.delete(doc.ref);
      await batch.commit();
    }
    return docs.length;
  };
  return {
    async createOnce(fresh) {
      return inTransaction(db, async (tx) => {
        const existing = await tx.get(draftRef(fresh.draftId));
        if (existing.exists) return { created: false, recovery: existing.data() as BookingRecovery };
        tx.create(draftRef(fresh.draftId), fresh);
        return { created: true, recovery: fresh };
      });
    },
    async get(id) {
      return ((await find(id))?.data() as BookingRecovery | undefined) ?? null;
    },
    async forDraft(draftId) {
      const snapshot = await draftRef(draftId).get();
      return snapshot.exists ? (snapshot.data() as BookingRecovery) : null;
    },
    async save(recovery) {
      await draftRef(recovery.draftId).set(recovery);
    },
    async listDue(now, limit) {
      // Pending records are the few drafts still within their delay; the rest is done here, without an index.
      const snapshot = await collection().where("state", "==", "pending").get();
      return snapshot.docs
        .map((doc) => doc.data() as BookingRecovery)
        .filter((r) => r.dueAt <= now)
        .sort((a, b) => a.dueAt - b.dueAt || a.id.localeCompare(b.id))
        .slice(0, limit);
    },
    async claim(id) {
      const found = await find(id);
      if (!found) return null;
      return inTransaction(db, async (tx) => {
        const snapshot = await tx.get(found.ref);
        const existing = snapshot.exists ? (snapshot.data() as BookingRecovery) : null;
        if (!existing || existing.id !== id || existing.state !== "pending") return null;
        const taken: BookingRecovery = { ...existing, state: "sending" };
        tx.set(found.ref, taken);
        return taken;
      });
    },
    async remove(id) {
      await (await find(id))?.ref.delete();
    },
    async removeForGuest(guestId) {
      return removeAll((await collection().where("guestId", "==", guestId).get()).docs);
    },
    async removeCreatedBefore(createdBefore, limit) {
      const snapshot = await collection()
        .where("createdAt", "<", createdBefore)
        .orderBy("createdAt")
        .limit(limit)
        .get();
      return removeAll(snapshot.docs);
    },
  };
}

function waitlistStore(db: Firestore): WaitlistStore {
  const entries = db.collection(WAITLIST_ENTRIES);
  const entryRef = (id: string) => entries.doc(documentId(id));
  const signalRef = ({ centerId, date, at }: WaitlistSignal) =>
    db.collection(WAITLIST_SIGNALS).doc(documentId(`${centerId}|${date}|${at}`));
  const toEntry = (data: DocumentData) => data as WaitlistEntry;
  const byJoining = (a: WaitlistEntry, b: WaitlistEntry) => a.createdAt - b.createdAt || a.id.localeCompare(b.id);
  /** Changes the entry in a transaction; false when it is gone or `next` leaves it as it is. */
  const change = (id: string, next: (entry: WaitlistEntry) => WaitlistEntry | null) =>
    inTransaction(db, async (tx) => {
      const snapshot = await tx.get(entryRef(id));
      if (!snapshot.exists) return false;
      const changed = next(toEntry(snapshot.data()!));
      if (!changed) return false;
      tx.set(entryRef(id), changed);
      return true;
    });
  return {
    async add(entry, cap) {
      return inTransaction(db, async (tx) => {
        // One equality filter; read in the transaction, so a second join of the contact waits for this one.
        const mine = await tx.get(entries.where("contact", "==", entry.contact));
        if (mine.size >= cap) return "full" as const;
        tx.create(entryRef(entry.id), entry);
        return "added" as const;
      });
    },
    async get(id) {
      const snapshot = await entryRef(id).get();
      return snapshot.exists ? toEntry(snapshot.data()!) : null;
    },
    async remove(id) {
      return inTransaction(db, async (tx) => {
        const snapshot = await tx.get(entryRef(id));
        if (!snapshot.exists) return false;
        tx.delete(entryRef(id));
        return true;
      });
    },
    async listForAccount(accountId) {
      const snapshot = await entries.where("accountId", "==", accountId).get();
      return snapshot.docs.map((doc) => toEntry(doc.data())).sort(byJoining);
    },
    async listForContact(contact) {
      const snapshot = await entries.where("contact", "==", contact).get();
      return snapshot.docs.map((doc) => toEntry(doc.data())).sort(byJoining);
    },
    async listForDay(centerId, date) {
      const snapshot = await entries.where("centerId", "==", centerId).where("days", "array-contains", date).get();
      return snapshot.docs.map((doc) => toEntry(doc.data())).sort(byJoining);
    },
    async listUnchecked(checkedBefore, limit) {
      // Live entries are few (each ends within two weeks): the order is made here.
      const snapshot = await entries.get();
      return snapshot.docs
        .map((doc) => toEntry(doc.data()))
        .filter((e) => e.checkedAt === null || e.checkedAt < checkedBefore)
        .sort((a, b) => (a.checkedAt ?? -1) - (b.checkedAt ?? -1) || byJoining(a, b))
        .slice(0, limit);
    },
    async offer(id, slot, keep) {
      return change(id, (entry) =>
        entry.offered.includes(slot) ? null : { ...entry, offered: [...entry.offered, slot].slice(-keep) },
      );
    },
    async withdrawOffer(id, slot) {
      await change(id, (entry) => ({ ...entry, offered: entry.offered.filter((s) => s !== slot) }));
    },
    async markChecked(id, now) {
      await change(id, (entry) => ({ ...entry, checkedAt: now }));
    },
    async removeExpired(now) {
      const snapshot = await entries.where("expiresAt", "<=", now).get();
      await Promise.all(snapshot.docs.map((doc) => doc.ref.delete()));
      return snapshot.size;
    },
    async signal(signal) {
      await signalRef(signal).set({ centerId: signal.centerId, date: signal.date, at: signal.at });
    },
    async listSignals(dueBy, limit) {
      if (limit <= 0) return [];
      const snapshot = await db.collection(WAITLIST_SIGNALS).where("at", "<=", dueBy).orderBy("at").limit(limit).get();
      return snapshot.docs.map((doc): WaitlistSignal => {
        const data = doc.data();
        return { centerId: String(data.centerId), date: String(data.date), at: Number(data.at) };
      });
    },
    async clearSignal(signal) {
      await signalRef(signal).delete();
    },
    async lease(name, holder, until, now) {
      const ref = db.collection(JOB_LEASES).doc(documentId(name));
      return inTransaction(db, async (tx) => {
        const snapshot = await tx.get(ref);
        if (snapshot.exists && Number(snapshot.get("until")) > now && snapshot.get("holder") !== holder) return false;
        tx.set(ref, { holder, until });
        return true;
      });
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
    referrals: referralStore(db),
    affiliates: affiliateStore(db),
    pricing: pricingStore(db),
    waitlist: waitlistStore(db),
    bookingRecoveries: bookingRecoveryStore(db),
    async ping() {
      // One document read by id (absent or not): the least a round trip to Firestore can cost.
      await db.collection(GUESTS).doc("__readiness").get();
    },
    close,
  };
}
