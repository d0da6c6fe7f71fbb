import type { PromoCode } from "~/domain/discounts";
import type { Cents } from "~/domain/money";
import type { RecoveryState } from "~/domain/recovery";

/**
 * The first-party records that live beside the spa back end (spec section 3, "Document-store
 * collections"), one small port for each kind of record. SQLite under the data directory by
 * default, Firestore in production; both adapters pass `store-contract.ts`. Money is in cents here
 * as everywhere in the app; the Firestore adapter keeps the shared collections' decimal dollars
 * and converts (docs/decisions/011). Emails are matched whatever their case and surrounding spaces.
 */
export type Stores = {
  /** Which adapter holds the records (logged at start). */
  readonly kind: "sqlite" | "firestore";
  guestDetails: GuestDetailsStore;
  centerPricing: CenterPricingStore;
  promoCodes: PromoCodeStore;
  accounts: AccountStore;
  userSessions: UserSessionStore;
  oneTimeCodes: OneTimeCodeStore;
  paymentAttempts: PaymentAttemptStore;
  visitRevisions: VisitRevisionStore;
  purchases: PurchaseStore;
  referrals: ReferralStore;
  affiliates: AffiliateStore;
  waitlist: WaitlistStore;
  pricing: PricingStore;
  bookingRecoveries: BookingRecoveryStore;
  /** One cheap read, for the readiness endpoint: throws when the store cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
};

/* ---------- guest details ---------- */

export type GuestDetails = {
  email: string;
  guest_id: string;
  is_password_set: boolean;
  is_return_user: boolean;
  /** Promo code to the number of times this guest has used it. */
  promo_codes: Record<string, number>;
};

/** What the spa guest behind an email has done with us: set a password, come back, used which promo codes. */
export interface GuestDetailsStore {
  /** Found by email in any case, a record the earlier client wrote included. */
  get(email: string): Promise<GuestDetails | null>;
  /** Refuses a second record for the same email. */
  create(details: Omit<GuestDetails, "promo_codes"> & { promo_codes?: Record<string, number> }): Promise<void>;
  /** Changes the record where it is; throws when the email has none. */
  update(email: string, patch: Partial<Pick<GuestDetails, "is_password_set" | "is_return_user">>): Promise<void>;
  /**
   * Counts one use of a promo code by a guest if they have uses left, atomically: of two bookings
   * racing for a once-per-guest code, one gets true. Creates the guest's record when missing.
   */
  claimPromoUse(input: { email: string; guestId: string; code: string; maxUses: number | null }): Promise<boolean>;
  /** Gives one use back (a booking that did not happen), never below zero; throws when the email has no record. */
  releasePromoUse(email: string, code: string): Promise<void>;
}

/* ---------- center pricing ---------- */

export type CenterPrice = {
  serviceId: string;
  centerId: string;
  price: Cents;
  isPrepaidService: boolean;
};

/** What a service costs at one clinic, and whether it is paid when booked. */
export interface CenterPricingStore {
  /** The prices of these services at one center (any number of ids); a service without one is left out. */
  get(centerId: string, serviceIds: string[]): Promise<CenterPrice[]>;
  /** Creates or replaces the price of a service at a center. */
  put(price: CenterPrice): Promise<void>;
}

/* ---------- visit revisions ---------- */

/**
 * How many times a visit was changed here (moved, cancelled): the SEQUENCE of its calendar event,
 * so a calendar replaces the event it has instead of adding a second one. 0 for a visit never changed.
 */
export interface VisitRevisionStore {
  get(visitId: string): Promise<number>;
  /** One more change, atomically; the new number. */
  bump(visitId: string, now: number): Promise<number>;
}

/* ---------- promo codes ---------- */

/** First-party promo codes and their discount rules, by code in any case. */
export interface PromoCodeStore {
  get(code: string): Promise<PromoCode | null>;
  /** Creates or replaces the code (kept in upper case). */
  put(promo: PromoCode): Promise<void>;
}

/* ---------- accounts, their sessions and one-time codes ---------- */

export type AccountRecord = {
  id: string;
  email: string;
  guestId: string;
  centerId: string;
  passwordHash: string;
  createdAt: number;
  passwordChangedAt: number;
  /**
   * The referral code the customer typed when registering. Zenoti files guests under configured
   * referral sources, not codes, so the code is kept here for the referral programme.
   */
  referralCode?: string | null;
};

export class DuplicateAccountError extends Error {
  constructor() {
    super("An account with this email already exists");
    this.name = "DuplicateAccountError";
  }
}

/** Accounts of people who set a password, linked to the spa guest (docs/decisions/006). */
export interface AccountStore {
  /** Throws DuplicateAccountError when the email already has one. */
  create(account: AccountRecord): Promise<void>;
  getByEmail(email: string): Promise<AccountRecord | null>;
  getById(id: string): Promise<AccountRecord | null>;
  updatePassword(id: string, passwordHash: string, changedAt: number): Promise<void>;
}

export type UserSessionRecord = {
  tokenHash: string;
  userId: string;
  createdAt: number;
  expiresAt: number;
  revoked: boolean;
};

/** The server-side records behind the session cookie, keyed by a hash of the token. */
export interface UserSessionStore {
  create(session: UserSessionRecord): Promise<void>;
  get(tokenHash: string): Promise<UserSessionRecord | null>;
  /** Revoking a session that does not exist does nothing. */
  revoke(tokenHash: string): Promise<void>;
  /** Revokes every session of the user, except the one given (the one that changed the password). */
  revokeAllOfUser(userId: string, exceptTokenHash?: string): Promise<void>;
}

export type OneTimeCodeRecord = {
  email: string;
  codeHash: string;
  expiresAt: number;
  attempts: number;
  sentAt: number;
};

/** One one-time code per email at a time; a new one replaces the old. */
export interface OneTimeCodeStore {
  put(code: OneTimeCodeRecord): Promise<void>;
  get(email: string): Promise<OneTimeCodeRecord | null>;
  /** Counts a wrong guess; returns the wrong guesses so far (0 when there is no code). */
  countWrongGuess(email: string): Promise<number>;
  delete(email: string): Promise<void>;
}

/* ---------- payment attempts ---------- */

/**
 * Where one confirm-and-pay stands. "started": confirm sent, its answer not yet known. "confirmed":
 * the appointment exists, no charge sent. "charging": a charge was sent, its answer not yet known.
 * "verifying": the charge answered with a 3-D Secure page; the guest is at their bank's check.
 * "undoing": the lines are being removed (after a refusal, or by the reconciler). Final: "booked", "declined" (the card was refused, the lines removed), "undone" (never finished,
 * lines removed, nothing charged), "released" (the hold was gone, nothing booked).
 */
export type PaymentAttemptState =
  | "started"
  | "confirmed"
  | "charging"
  | "verifying"
  | "undoing"
  | "booked"
  | "declined"
  | "undone"
  | "released";

export const FINAL_ATTEMPT_STATES: readonly PaymentAttemptState[] = ["booked", "declined", "undone", "released"];

export type PaymentAttempt = {
  key: string;
  state: PaymentAttemptState;
  /** Milliseconds since the epoch until which one request owns the attempt. */
  leaseUntil: number;
  createdAt: number;
  updatedAt: number;
  bookingId: string;
  /** The held start, clinic-local ("2026-12-01T09:30:00"). */
  slot: string;
  guestId: string;
  centerId: string;
  accountId: string;
  prepaid: boolean;
  contact: { firstName: string; email: string; phone: string } | null;
  promoCode: string | null;
  promoClaimed: boolean;
  /** The offer code was sent to the invoice (whatever the answer). */
  promoApplied: boolean;
  /** When the confirm was first sent; before that, nothing can exist at the back end. */
  confirmSentAt: number | null;
  invoiceId: string | null;
  appointmentId: string | null;
  invoiceItemIds: string[];
  serviceNames: string[];
  /**
   * When the visit ends on the clinic's clock, from the confirm's answer (null when the booking was
   * found among the guest's appointments instead; absent in older records).
   */
  visitEnd?: string | null;
  /** The nurse the confirm's answer named for the visit (null when not known; absent in older records). */
  nurseName?: string | null;
  /** Why the lines are being removed: the final state once they are gone. */
  undoAs: "declined" | "undone" | null;
  /** When the last charge was sent; a charge whose answer was lost may still land for a while. */
  chargeSentAt: number | null;
  /** The 3-D Secure page the charge answered with (state "verifying"); absent in older records. */
  verifyUri?: string | null;
  /**
   * What the back end's invoice asks, in cents, when it differed from what the guest was shown and
   * nothing was charged; the guest is shown it and asked again. Absent in older records.
   */
  backEndDue?: number | null;
  /**
   * What the back end's invoice said was paid and is still due, in cents, and its number, when the
   * attempt read it on its way to booked (a prepaid visit): the confirmation shows them without
   * reading it again. Absent when not read (the clinic holds the card) and in older records.
   */
  bookedInvoice?: { paid: number; due: number; reference: string | null } | null;
  /** The confirmation email and text went out. */
  notified: boolean;
  /** A session of the guest's package pays for the treatment (absent in older records). */
  packageUse?: { userPackageId: string } | null;
  /** The redemption was sent to the invoice (whatever the answer); absent in older records. */
  packageRedeemed?: boolean;
};

export type PaymentAttemptClaim =
  | { state: "claimed"; attempt: PaymentAttempt }
  | { state: "busy"; attempt: PaymentAttempt }
  | { state: "final"; attempt: PaymentAttempt };

/**
 * Payment attempts, one per confirm-and-pay key: the idempotency record of a booking
 * (docs/decisions/008).
 */
export interface PaymentAttemptStore {
  /**
   * Creates the attempt, or takes over one whose lease ran out (its request died), or answers
   * "busy" while another request holds it, or "final" once it has ended; atomically.
   */
  claim(fresh: PaymentAttempt, now: number): Promise<PaymentAttemptClaim>;
  /** Writes the attempt (state, what is known, and its lease). */
  save(attempt: PaymentAttempt): Promise<void>;
  get(key: string): Promise<PaymentAttempt | null>;
  /** Unfinished attempts nobody holds that have been idle since before `idleBefore`, oldest first. */
  listStale(now: number, idleBefore: number, limit: number): Promise<PaymentAttempt[]>;
}

export function isFinalAttempt(attempt: PaymentAttempt): boolean {
  return FINAL_ATTEMPT_STATES.includes(attempt.state);
}

/** The rule both adapters apply inside their transaction. */
export function decideClaim(
  existing: PaymentAttempt | null,
  fresh: PaymentAttempt,
  now: number,
): PaymentAttemptClaim & { write: PaymentAttempt | null } {
  if (!existing) return { state: "claimed", attempt: fresh, write: fresh };
  if (isFinalAttempt(existing)) return { state: "final", attempt: existing, write: null };
  if (existing.leaseUntil > now) return { state: "busy", attempt: existing, write: null };
  const taken = { ...existing, leaseUntil: fresh.leaseUntil, updatedAt: now };
  return { state: "claimed", attempt: taken, write: taken };
}

/* ---------- purchases (memberships, packages, gift cards) ---------- */

/**
 * Where one online purchase stands (docs/decisions/031). "started": the record exists, no sale
 * invoice asked for yet. "invoiced": the back end's sale invoice exists, unpaid; the guest is sent
 * to the hosted card page. "charging": a charge was sent, its answer not yet known. "verifying": the
 * charge answered with a 3-D Secure page. "paid": the invoice owes nothing; closing it (and, for a
 * gift card, sending it) is left. "declined": the card or the charge was refused and nothing was
 * paid; the guest may try another card on the same invoice. "not-charged": a charge whose answer
 * never came (lost, or the request died before or while sending it) and that the invoice shows
 * unpaid once it could no longer land: nothing was paid and nothing was refused; the guest may try
 * again on the same invoice. Final: "completed", and "cancelled"
 * (the back end asked another price than the page showed: nothing was charged, the guest buys again).
 */
export type PurchaseState =
  | "started"
  | "invoiced"
  | "charging"
  | "verifying"
  | "paid"
  | "declined"
  | "not-charged"
  | "completed"
  | "cancelled";

export function isFinalPurchase(purchase: Pick<Purchase, "state">): boolean {
  return purchase.state === "completed" || purchase.state === "cancelled";
}

export type PurchaseKind = "membership" | "package" | "gift-card";

export type GiftCardOrder = {
  templateId: string;
  /** The card's value in cents (a preset's, or the custom amount). */
  valueCents: Cents;
  custom: boolean;
  occasionId: string;
  recipientName: string;
  recipientEmail: string;
  message: string;
  /** YYYY-MM-DD on the clinic's calendar; the card is emailed that day. */
  deliveryDate: string;
};

export type Purchase = {
  /** Random, unguessable: it is in the purchase's URLs. */
  id: string;
  /** The idempotency key: the signed-in user's id and the key the form carried. One purchase per key. */
  key: string;
  state: PurchaseState;
  /** Milliseconds since the epoch until which one request owns the purchase. */
  leaseUntil: number;
  createdAt: number;
  updatedAt: number;
  userId: string;
  guestId: string;
  centerId: string;
  kind: PurchaseKind;
  /** The plan, package or gift-card template sold. */
  itemId: string;
  itemName: string;
  /** What the guest was shown as the price, in cents. */
  shownCents: Cents;
  giftCard: GiftCardOrder | null;
  invoiceId: string | null;
  /** The invoice's number as the clinic prints it, once read. */
  reference: string | null;
  /** When the sale invoice was asked for (its answer may have been lost). */
  invoiceRequestedAt: number | null;
  /** The sale invoice's balance was read and is the price the guest was shown. */
  priceChecked: boolean;
  /**
   * The guest's saved cards when they were last sent to the hosted card page (how many, and a
   * digest of their ids): a different set on return is how we know a card was added.
   */
  knownCards: { count: number; digest: string } | null;
  accountId: string | null;
  /** When the last charge was sent; a charge whose answer was lost may still land for a while. */
  chargeSentAt: number | null;
  verifyUri: string | null;
  /** What was paid, in cents, once the invoice owed nothing. */
  paidCents: Cents | null;
  /** The invoice was closed (the sale is final at the back end). */
  closed: boolean;
  /** For a gift card: the back end was asked to email it to the recipient. */
  giftCardSent: boolean;
  /** Why the last card or charge was refused, in the guest's words. */
  declineMessage: string | null;
};

export type PurchaseClaim =
  | { state: "claimed"; purchase: Purchase }
  | { state: "busy"; purchase: Purchase }
  | { state: "final"; purchase: Purchase };

export interface PurchaseStore {
  /**
   * Creates the purchase unless one with the same `key` exists, atomically: the one that exists
   * (a double submit or a retry gets the first) or the new one.
   */
  createOnce(fresh: Purchase): Promise<{ created: boolean; purchase: Purchase }>;
  /**
   * Takes the purchase for one request until `leaseUntil`: "busy" while another request holds it,
   * "final" once it has ended; atomically.
   */
  claim(id: string, leaseUntil: number, now: number): Promise<PurchaseClaim | null>;
  /** Writes the purchase (state, what is known, and its lease). */
  save(purchase: Purchase): Promise<void>;
  get(id: string): Promise<Purchase | null>;
  /** A user's purchases, newest first, at most `limit`. */
  listForUser(userId: string, limit: number): Promise<Purchase[]>;
  /**
   * Purchases whose charge may have been made but which are not finished ("charging", "verifying",
   * "paid"), that nobody holds and that have been idle since before `idleBefore`, oldest first.
   */
  listUnfinished(now: number, idleBefore: number, limit: number): Promise<Purchase[]>;
}

/** The states the reconciler finishes: a charge may have been made. */
export const UNFINISHED_PURCHASE_STATES: readonly PurchaseState[] = ["charging", "verifying", "paid"];

/** The rule both adapters apply inside their transaction. */
export function decidePurchaseClaim(
  existing: Purchase,
  leaseUntil: number,
  now: number,
): PurchaseClaim & { write: Purchase | null } {
  if (isFinalPurchase(existing)) return { state: "final", purchase: existing, write: null };
  if (existing.leaseUntil > now) return { state: "busy", purchase: existing, write: null };
  const taken = { ...existing, leaseUntil, updatedAt: now };
  return { state: "claimed", purchase: taken, write: taken };
}

/** Emails identify guests case-insensitively. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

/* ---------- referrals (docs/decisions/032) ---------- */

/** An account's referral code (the spec's userCode) and whose it is. */
export type ReferralCodeRecord = {
  /** Upper case, as shown and shared. */
  code: string;
  accountId: string;
  guestId: string;
  /** The referrer's first name, for the friend's landing page. */
  firstName: string;
  centerId: string;
  createdAt: number;
};

/**
 * A friend referred by a code. "registered": the friend came with the code and is known by email;
 * "rewarded": their first signature facial was completed and the referrer was credited, once.
 */
export type ReferralState = "registered" | "rewarded";

export type Referral = {
  /** The friend's email (kept as typed); a friend is referred once, whatever the case of the email. */
  friendEmail: string;
  friendFirstName: string;
  /** The friend's guest at the back end, once known. */
  friendGuestId: string | null;
  code: string;
  referrerAccountId: string;
  referrerGuestId: string;
  createdAt: number;
  state: ReferralState;
  /** When the back end was last asked whether the friend's first facial was completed. */
  checkedAt: number | null;
  /** Points credited to the referrer (0 until rewarded). */
  rewardPoints: number;
  rewardedAt: number | null;
  /** The friend's completed visit the reward was for. */
  visitId: string | null;
  /**
   * When the reward's credit was handed on (decision 032): accepted by the chain's automation (the
   * referral-reward lead), or, with no lead webhook configured, left to the ledger. Null until
   * then, and the reconciler sends it again.
   */
  creditSentAt: number | null;
  /** When a send of the credit last failed; null before any did. */
  creditTriedAt: number | null;
};

/** What recording a referred friend did: recorded, refused as referred before, or refused as the code is used up. */
export type ReferralAdded = "added" | "already-referred" | "used-up";

export interface ReferralStore {
  /**
   * The account's code; when it has none, one made by `make()` is saved (another is made when the
   * code is taken), atomically: an account has one code however many requests ask at once.
   */
  codeFor(
    owner: Omit<ReferralCodeRecord, "code" | "createdAt">,
    make: () => string,
    now: number,
  ): Promise<ReferralCodeRecord>;
  /** The code's owner, the code in any case; null when unknown. */
  byCode(code: string): Promise<ReferralCodeRecord | null>;
  /** The account's code; null before one was made. */
  forOwner(accountId: string): Promise<ReferralCodeRecord | null>;
  /**
   * Records a referred friend unless that email was already referred ("already-referred") or the
   * code already refers `cap` friends ("used-up"); nothing is written then. The count and the
   * write are one transaction, so however many friends use a code at once, it refers at most `cap`.
   */
  add(referral: Referral, cap: number): Promise<ReferralAdded>;
  /**
   * Takes back a friend's referral under this code that never got its guest (the registration or
   * booking it was made for did not go through), so that it counts no more; true when it did.
   */
  release(friendEmail: string, code: string): Promise<boolean>;
  /** The referral of a friend, by email in any case. */
  forFriend(email: string): Promise<Referral | null>;
  /** A referrer's referrals, newest first, at most `limit`. */
  listByReferrer(accountId: string, limit: number): Promise<Referral[]>;
  /** Changes the friend's referral where it is; throws when the email has none. */
  update(
    friendEmail: string,
    patch: Partial<Pick<Referral, "friendGuestId" | "checkedAt" | "creditSentAt" | "creditTriedAt">>,
  ): Promise<void>;
  /**
   * Marks the referral rewarded, atomically: true for the one call that did it, false when it was
   * already rewarded (or there is no such referral). No one earns twice.
   */
  reward(friendEmail: string, reward: { points: number; visitId: string; now: number }): Promise<boolean>;
  /**
   * Referrals not yet rewarded whose friend's guest is known and that were not checked since
   * `checkedBefore` (never-checked first, then oldest check), at most `limit`.
   */
  listAwaitingReward(checkedBefore: number, limit: number): Promise<Referral[]>;
  /**
   * Rewarded referrals whose credit was not handed on yet and was last tried (or, never tried,
   * rewarded) before `triedBefore`, least recently first, at most `limit`: one the automation keeps
   * refusing goes behind the others each time.
   */
  listUncredited(triedBefore: number, limit: number): Promise<Referral[]>;
}

/* ---------- affiliate attribution (impactAffiliateDetails) ---------- */

/** The spec's impactAffiliateDetails, one per user (the back end's guest id). */
export type AffiliateDetails = {
  user_id: string;
  user_email: string;
  /** The ad-click id from the landing URL. */
  irclickid: string;
  /** When the click landed, milliseconds since the epoch. */
  timestamp: number;
  /** The user's first treatment was completed within the attribution window. */
  isFtTreatedTriggered: boolean;
  /** The attribution window ended without a first treatment. */
  isExpired: boolean;
  /** When the back end was last asked about the first treatment (absent in older records). */
  checkedAt?: number | null;
};

export interface AffiliateStore {
  get(userId: string): Promise<AffiliateDetails | null>;
  /**
   * Creates the user's record, or, when the click id differs, replaces its click id and timestamp
   * and clears both flags (a new click starts a new window); nothing when it is the same click id.
   */
  record(input: {
    userId: string;
    userEmail: string;
    clickId: string;
    clickedAt: number;
  }): Promise<"created" | "updated" | "unchanged">;
  /** Changes the flags or the check time; throws when the user has no record. */
  update(
    userId: string,
    patch: Partial<Pick<AffiliateDetails, "isFtTreatedTriggered" | "isExpired" | "checkedAt">>,
  ): Promise<void>;
  /** Records with neither flag set, not checked since `checkedBefore` (never-checked first), at most `limit`. */
  listOpen(checkedBefore: number, limit: number): Promise<AffiliateDetails[]>;
}

/* ---------- pricing configuration (partner prices, tiers, LHR add-on prices) ---------- */

/** A price tier (spec section 9): an offer code that charges `charge` for each of its services. */
export type PriceTier = { code: string; charge: Cents; serviceIds: string[] };
/** An offer tier: a percent off for each of its services, charged by the back end's campaign `code` (null: none yet). */
export type OfferTier = { percent: number; serviceIds: string[]; code: string | null };

/** The tier configuration, one record: kept in the store, not in code. */
export type PricingTiers = {
  priceTiers: PriceTier[];
  /** The code used for a service in no price tier (the spec's FT50RAF). */
  defaultPriceTier: string;
  offerTiers: OfferTier[];
};

/** A partner's prices (the spec's partnerPricing), by its partnerType in upper case. */
export type PartnerPricing = {
  partnerType: string;
  /** The partner's name as shown to the visitor. */
  name: string;
  prices: { serviceId: string; price: Cents }[];
};

export interface PricingStore {
  /** The partner's prices; null for a partner with none. `partnerType` is matched in upper case. */
  partner(partnerType: string): Promise<PartnerPricing | null>;
  /** Creates or replaces a partner's prices (its type kept in upper case). */
  putPartner(pricing: PartnerPricing): Promise<void>;
  /** The tier configuration; null when none was ever saved. */
  tiers(): Promise<PricingTiers | null>;
  putTiers(tiers: PricingTiers): Promise<void>;
  /** The prices of these LHR add-on areas (any number of ids); an area without one is left out. */
  addOnPrices(serviceIds: string[]): Promise<{ serviceId: string; price: Cents }[]>;
  /** Creates or replaces an add-on area's price. */
  putAddOnPrice(price: { serviceId: string; price: Cents }): Promise<void>;
}

/* ---------- recovery messages for unfinished bookings (docs/decisions/059) ---------- */

/**
 * One booking draft whose guest agreed to one message with a link back to it: what the link
 * restores (ids only), where the message goes, and how far it got. The least personal data the
 * message needs: one contact and the guest's back-end id (to know they booked), never a name.
 */
export type BookingRecovery = {
  /** Random, unguessable: the signed link names it. */
  id: string;
  /** The draft's own id: one record, so one message, per draft. */
  draftId: string;
  centerId: string;
  serviceId: string;
  addOnIds: string[];
  /** The guest's record at the back end, when known: a visit booked there since means no message. */
  guestId: string | null;
  /** Where the message goes; null once the link was followed. */
  contact: { channel: "email" | "sms"; to: string } | null;
  /** When the guest ticked the box. */
  consentAt: number;
  createdAt: number;
  /** Not sent before (the delay, out of the clinic's night). */
  dueAt: number;
  /** The clinic's IANA zone, whose clock says what night is. */
  timeZone: string;
  /** The site's public origin the guest used, for the link. */
  origin: string;
  state: RecoveryState;
  sentAt: number | null;
};

export interface BookingRecoveryStore {
  /** Creates the draft's record unless it has one, atomically: the one that exists, or the new one. */
  createOnce(fresh: BookingRecovery): Promise<{ created: boolean; recovery: BookingRecovery }>;
  get(id: string): Promise<BookingRecovery | null>;
  forDraft(draftId: string): Promise<BookingRecovery | null>;
  /** Writes the record as given (it exists). */
  save(recovery: BookingRecovery): Promise<void>;
  /** "pending" records due by `now`, soonest due first, at most `limit`. */
  listDue(now: number, limit: number): Promise<BookingRecovery[]>;
  /**
   * Takes a "pending" record for sending, atomically: it becomes "sending" and is returned to the one
   * caller that took it; null for everyone else (another instance took it, or it is no longer pending).
   */
  claim(id: string): Promise<BookingRecovery | null>;
  remove(id: string): Promise<void>;
  /** Removes every record of this guest (they booked); how many there were. */
  removeForGuest(guestId: string): Promise<number>;
  /** Removes the records created before `createdBefore` (their link has expired); how many there were. */
  removeCreatedBefore(createdBefore: number, limit: number): Promise<number>;
}

/* ---------- the waitlist of full days (decision 058) ---------- */

/**
 * One guest waiting for a time to open: what they would book (clinic, treatment, add-ons, nurse),
 * the days and parts of the day that suit, and the one contact to tell. Nothing else about them is
 * kept, and the entry is deleted when it ends (the time booked, the guest left, its last day over).
 */
export type WaitlistEntry = {
  /** Random, unguessable: signed into the entry's links. */
  id: string;
  centerId: string;
  serviceId: string;
  addOnIds: string[];
  /** The nurse asked for; null for any nurse. */
  therapistId: string | null;
  /** Clinic-local days ("YYYY-MM-DD"), ascending. */
  days: string[];
  parts: ("morning" | "afternoon" | "evening")[];
  channel: "email" | "sms";
  /** An email in lower case, or a mobile's ten digits. */
  contact: string;
  /** The signed-in guest's account, to list and leave the entry there; null for a guest without one. */
  accountId: string | null;
  /** The site the guest joined on: the messages' links lead back to it. */
  origin: string;
  createdAt: number;
  /** When the entry's last day ends on the clinic's clock (milliseconds since the epoch). */
  expiresAt: number;
  /** The open times the guest was told about (clinic-local), so none is told twice. */
  offered: string[];
  /** When the periodic check last read the entry's days; null before it did. */
  checkedAt: number | null;
};

/**
 * A clinic day on which a time may open: a visit cancelled or moved (at once), a hold (when it runs
 * out, as Zenoti lets it go only then). The first pass from `at` on looks at the day.
 */
export type WaitlistSignal = { centerId: string; date: string; at: number };

export interface WaitlistStore {
  /**
   * Adds the entry unless its contact already has `cap` entries ("full"); the count and the write are
   * one transaction, so however many joins race, a contact has at most `cap`.
   */
  add(entry: WaitlistEntry, cap: number): Promise<"added" | "full">;
  get(id: string): Promise<WaitlistEntry | null>;
  /** Deletes the entry; true when there was one. */
  remove(id: string): Promise<boolean>;
  /** An account's entries, oldest first. */
  listForAccount(accountId: string): Promise<WaitlistEntry[]>;
  /** The entries of a contact (an email in lower case, a mobile's ten digits), oldest first. */
  listForContact(contact: string): Promise<WaitlistEntry[]>;
  /** The entries of a clinic waiting for that day, in the order they joined (oldest first). */
  listForDay(centerId: string, date: string): Promise<WaitlistEntry[]>;
  /** Entries not checked since `checkedBefore` (never-checked first, then oldest check), at most `limit`. */
  listUnchecked(checkedBefore: number, limit: number): Promise<WaitlistEntry[]>;
  /**
   * Records that the entry's guest is told about `slot`, atomically: true for the one call that
   * did (the caller then sends the message), false when it was already told or the entry is gone.
   */
  offer(id: string, slot: string, keep: number): Promise<boolean>;
  /** Takes back an offer whose message could not be sent, so the next pass tells it again. */
  withdrawOffer(id: string, slot: string): Promise<void>;
  /** Notes when the entry's days were read; nothing when the entry is gone. */
  markChecked(id: string, now: number): Promise<void>;
  /** Deletes the entries whose last day is over; how many. */
  removeExpired(now: number): Promise<number>;
  /** Notes that a time may open at the clinic that day from `at` on (the same note twice is one). */
  signal(signal: WaitlistSignal): Promise<void>;
  /** The notes due by `dueBy`, earliest first, at most `limit`. */
  listSignals(dueBy: number, limit: number): Promise<WaitlistSignal[]>;
  /** Clears that note (another of the same day stays). */
  clearSignal(signal: WaitlistSignal): Promise<void>;
  /**
   * Takes the named lease for `holder` until `until`, atomically: true when it was free (never
   * taken, run out, or already this holder's), false while another holder has it. What keeps one
   * instance at a time on the waitlist's pass, and the periodic check to its interval across restarts.
   */
  lease(name: string, holder: string, until: number, now: number): Promise<boolean>;
}
