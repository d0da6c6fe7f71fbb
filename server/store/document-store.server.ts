import type { PromoCode } from "~/domain/discounts";
import type { Cents } from "~/domain/money";

/**
 * The first-party records that live beside the spa back end (spec section 3, "Document-store
 * collections"). SQLite under the data directory by default, Firestore in production. Money is
 * in cents here as everywhere in the app; the Firestore adapter keeps the shared collections'
 * decimal dollars and converts (docs/decisions/011).
 */

export type GuestDetails = {
  email: string;
  guest_id: string;
  is_password_set: boolean;
  is_return_user: boolean;
  /** Promo code to the number of times this guest has used it. */
  promo_codes: Record<string, number>;
};

export type CenterPrice = {
  serviceId: string;
  centerId: string;
  price: Cents;
  isPrepaidService: boolean;
};

/** Prices negotiated with a partner, looked up by partnerType in upper case. */
export type PartnerPricing = {
  partnerType: string;
  /** Service id to price. */
  prices: Record<string, Cents>;
};

export type ImpactAffiliateDetails = {
  user_id: string;
  user_email: string;
  irclickid: string;
  /** Milliseconds since the epoch. */
  timestamp: number;
  isFtTreatedTriggered: boolean;
  isExpired: boolean;
};

export interface DocumentStore {
  readonly kind: "sqlite" | "firestore";

  getGuestDetails(email: string): Promise<GuestDetails | null>;
  createGuestDetails(details: Omit<GuestDetails, "promo_codes"> & { promo_codes?: Record<string, number> }): Promise<void>;
  updateGuestDetails(email: string, patch: Partial<Pick<GuestDetails, "is_password_set" | "is_return_user">>): Promise<void>;
  /** Adds delta (1 or -1) to a promo code's use count, never below zero; returns the new count. */
  adjustPromoCodeCount(email: string, code: string, delta: 1 | -1): Promise<number>;

  /** Center prices for these services (any number of ids). */
  getCenterPricing(centerId: string, serviceIds: string[]): Promise<CenterPrice[]>;
  putCenterPrice(price: CenterPrice): Promise<void>;

  getPartnerPricing(partnerType: string): Promise<PartnerPricing | null>;
  putPartnerPricing(pricing: PartnerPricing): Promise<void>;

  getAffiliateDetails(userId: string): Promise<ImpactAffiliateDetails | null>;
  /** Creates the record, or updates irclickid and timestamp when the click id differs. */
  recordAffiliateClick(details: { user_id: string; user_email: string; irclickid: string; timestamp: number }): Promise<ImpactAffiliateDetails>;

  /** Add-on laser-hair-removal prices keyed by service id. */
  getAddOnLhrPrices(serviceIds: string[]): Promise<Record<string, Cents>>;
  putAddOnLhrPrice(serviceId: string, price: Cents): Promise<void>;

  /**
   * Counts one use of a promo code by a guest if they have uses left, atomically: of two bookings
   * racing for a once-per-guest code, one gets true. Creates the guest's record when missing.
   */
  claimPromoUse(input: { email: string; guestId: string; code: string; maxUses: number | null }): Promise<boolean>;

  /**
   * Payment attempts, one per confirm-and-pay key (see docs/decisions/008). `claim` creates the
   * attempt, or takes over one whose lease ran out (its request died), or answers "busy" while
   * another request holds it, or "final" once it has ended.
   */
  claimPaymentAttempt(fresh: PaymentAttempt, now: number): Promise<PaymentAttemptClaim>;
  /** Writes the attempt (state, what is known, and its lease). */
  savePaymentAttempt(attempt: PaymentAttempt): Promise<void>;
  getPaymentAttempt(key: string): Promise<PaymentAttempt | null>;
  /** Unfinished attempts nobody holds that have been idle since before `idleBefore`. */
  listStalePaymentAttempts(now: number, idleBefore: number, limit: number): Promise<PaymentAttempt[]>;

  /** First-party promo codes and their discount rules. */
  getPromoCode(code: string): Promise<PromoCode | null>;
  putPromoCode(promo: PromoCode): Promise<void>;

  /** Accounts of people who set a password; linked to the spa guest. */
  createAccount(account: AccountRecord): Promise<void>;
  getAccountByEmail(email: string): Promise<AccountRecord | null>;
  getAccountById(id: string): Promise<AccountRecord | null>;
  updateAccountPassword(id: string, passwordHash: string, changedAt: number): Promise<void>;

  /** Server-side records behind the session cookie, keyed by a hash of the token. */
  createUserSession(session: UserSessionRecord): Promise<void>;
  getUserSession(tokenHash: string): Promise<UserSessionRecord | null>;
  revokeUserSession(tokenHash: string): Promise<void>;
  /** Revokes every session of the user, except the one given (the one that changed the password). */
  revokeUserSessions(userId: string, exceptTokenHash?: string): Promise<void>;

  /** One one-time code per email at a time; a new one replaces the old. */
  putOneTimeCode(code: OneTimeCodeRecord): Promise<void>;
  getOneTimeCode(email: string): Promise<OneTimeCodeRecord | null>;
  /** Counts a wrong guess; returns the attempts so far. */
  countOneTimeCodeAttempt(email: string): Promise<number>;
  deleteOneTimeCode(email: string): Promise<void>;

  close(): Promise<void>;
}

export type AccountRecord = {
  id: string;
  email: string;
  guestId: string;
  centerId: string;
  passwordHash: string;
  createdAt: number;
  passwordChangedAt: number;
};

export type UserSessionRecord = { tokenHash: string; userId: string; createdAt: number; expiresAt: number; revoked: boolean };

export type OneTimeCodeRecord = { email: string; codeHash: string; expiresAt: number; attempts: number; sentAt: number };

export class DuplicateAccountError extends Error {
  constructor() {
    super("An account with this email already exists");
    this.name = "DuplicateAccountError";
  }
}

/**
 * Where one confirm-and-pay stands. "started": confirm sent, its answer not yet known. "confirmed":
 * the appointment exists, no charge sent. "charging": a charge was sent, its answer not yet known.
 * "undoing": the lines are being removed (after a refusal, or by the reconciler). Final: "booked", "declined" (the card was refused, the lines removed), "undone" (never finished,
 * lines removed, nothing charged), "released" (the hold was gone, nothing booked).
 */
export type PaymentAttemptState = "started" | "confirmed" | "charging" | "undoing" | "booked" | "declined" | "undone" | "released";

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
  /** Why the lines are being removed: the final state once they are gone. */
  undoAs: "declined" | "undone" | null;
  /** When the last charge was sent; a charge whose answer was lost may still land for a while. */
  chargeSentAt: number | null;
  /** The confirmation email and text went out. */
  notified: boolean;
};

export type PaymentAttemptClaim =
  | { state: "claimed"; attempt: PaymentAttempt }
  | { state: "busy"; attempt: PaymentAttempt }
  | { state: "final"; attempt: PaymentAttempt };

export function isFinalAttempt(attempt: PaymentAttempt): boolean {
  return FINAL_ATTEMPT_STATES.includes(attempt.state);
}

/** The rule both adapters apply inside their transaction. */
export function decideClaim(existing: PaymentAttempt | null, fresh: PaymentAttempt, now: number): PaymentAttemptClaim & { write: PaymentAttempt | null } {
  if (!existing) return { state: "claimed", attempt: fresh, write: fresh };
  if (isFinalAttempt(existing)) return { state: "final", attempt: existing, write: null };
  if (existing.leaseUntil > now) return { state: "busy", attempt: existing, write: null };
  const taken = { ...existing, leaseUntil: fresh.leaseUntil, updatedAt: now };
  return { state: "claimed", attempt: taken, write: taken };
}

/** Emails identify guests case-insensitively. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

/** Firestore's `in` filter takes at most 10 values; the spec queries service ids in chunks of 10. */
export function chunk<T>(items: T[], size = 10): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}
