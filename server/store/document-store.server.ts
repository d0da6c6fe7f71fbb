import type { PromoCode } from "~/domain/discounts";

/**
 * The first-party records that live beside the spa back end (spec section 3, "Document-store
 * collections"). SQLite under the data directory by default, Firestore in production.
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
  price: number;
  isPrepaidService: boolean;
};

/** Prices negotiated with a partner, looked up by partnerType in upper case. */
export type PartnerPricing = {
  partnerType: string;
  /** Service id to price. */
  prices: Record<string, number>;
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
  getAddOnLhrPrices(serviceIds: string[]): Promise<Record<string, number>>;
  putAddOnLhrPrice(serviceId: string, price: number): Promise<void>;

  /**
   * Claims an idempotency key for one operation. The first caller gets "claimed" and must later
   * complete or release it; later callers see "pending" while it runs and the result once done.
   */
  claimIdempotencyKey(key: string, now: number): Promise<IdempotencyClaim>;
  completeIdempotencyKey(key: string, result: Record<string, string>): Promise<void>;
  releaseIdempotencyKey(key: string): Promise<void>;

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

export type IdempotencyClaim =
  | { state: "claimed" }
  | { state: "pending" }
  | { state: "done"; result: Record<string, string> };

/** A claim older than this is taken to have died with its process and may be taken over. */
export const IDEMPOTENCY_STALE_MS = 2 * 60_000;

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
