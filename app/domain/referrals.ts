import type { Cents } from "./money";
import { isNewClientVersion, serviceKind } from "./service-kinds";

/**
 * The referral programme (spec sections 1 and 9): a friend's first signature laser facial costs
 * $50 instead of $275; once that visit is completed (status 1) the referrer earns 5,000 loyalty
 * points ($50 at 100 points a dollar), once per friend.
 */
export const REFERRAL_REWARD_POINTS = 5000;
/** What the friend pays for their first signature laser facial. */
export const REFERRAL_FRIEND_PRICE: Cents = 5000;
/** The new-client facial's list price the offer is measured against (spec section 9). */
export const REFERRAL_LIST_PRICE: Cents = 27500;

/** The alphabet of a code's random part: no 0/O, 1/I/L, so a code read aloud is typed right. */
const CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/**
 * A referral code for a first name: its letters (at most 6, "FRIEND" when it has none a code can
 * carry) and four random characters, e.g. "MIA-7K3Q". `random` gives bytes (crypto in production).
 */
export function makeReferralCode(firstName: string, random: (size: number) => Uint8Array): string {
  const letters = firstName
    .normalize("NFD")
    .replace(/[^A-Za-z]/g, "")
    .toUpperCase()
    .slice(0, 6);
  const bytes = random(4);
  const tail = Array.from(bytes, (b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join("");
  return `${letters || "FRIEND"}-${tail}`;
}

/** The treatment the friend's offer is for: the new-client version of the signature facial. */
export function isReferralTreatment(name: string): boolean {
  return serviceKind(name) === "facial" && isNewClientVersion(name);
}

/** A code refers at most this many friends: beyond it the code is used up (the offer is for friends, not a coupon site). */
export const MAX_FRIENDS_PER_CODE = 25;

export const REFERRAL_MESSAGES = {
  unknown: "We couldn't find that referral code. Please check it with the friend who shared it.",
  own: "That's your own referral code: share it with a friend instead.",
  alreadyReferred: "This email was already referred by a friend, so the offer can't be used again.",
  notNew: "The friend offer is for a first visit, and our records show you've visited us before.",
} as const;

/** Why a code in a link refers no one, besides being unknown. */
export const REFERRAL_CODE_MESSAGES = {
  malformed: "That referral link looks incomplete. Please check it with the friend who shared it.",
  usedUp: "That referral code has been used as many times as it can be.",
  usedUpBooking: "The referral code you came with was used up by other friends a moment ago.",
  usedUpMeanwhile:
    "That referral code was used up by other friends a moment ago. Remove it to continue without the friend offer.",
} as const;

/** Why a code cannot refer this friend, or null when it can. */
export function referralRefusal(input: {
  known: boolean;
  ownerEmail: string | null;
  friendEmail: string | null;
  alreadyReferred: boolean;
  friendIsNewClient: boolean;
}): keyof typeof REFERRAL_MESSAGES | null {
  if (!input.known) return "unknown";
  if (
    input.ownerEmail &&
    input.friendEmail &&
    input.ownerEmail.trim().toLowerCase() === input.friendEmail.trim().toLowerCase()
  )
    return "own";
  if (input.alreadyReferred) return "alreadyReferred";
  if (!input.friendIsNewClient) return "notNew";
  return null;
}

/** A referrer's tally for the share page: friends referred, rewarded, and points earned. */
export function referralTally(referrals: { state: "registered" | "rewarded"; rewardPoints: number }[]): {
  referred: number;
  rewarded: number;
  points: number;
} {
  return {
    referred: referrals.length,
    rewarded: referrals.filter((r) => r.state === "rewarded").length,
    points: referrals.reduce((sum, r) => sum + (r.state === "rewarded" ? r.rewardPoints : 0), 0),
  };
}

/**
 * Where a rewarded referral's points are. The back end publishes no call that adds points to a
 * guest's loyalty balance (decision 038), so points earned here reach it only through the chain's
 * automation: "sent" when it accepted them (it adds them to the balance), "waiting" until then.
 * Neither is a claim that the balance has them.
 */
export type ReferralCredit = "sent" | "waiting";

export function referralCredit(referral: {
  state: "registered" | "rewarded";
  creditSentAt: number | null;
}): ReferralCredit | null {
  if (referral.state !== "rewarded") return null;
  return referral.creditSentAt === null ? "waiting" : "sent";
}

/** The points a referrer earned, split into those handed on to be added to the loyalty balance and those waiting. */
export type ReferralPointsStatus = { earned: number; sent: number; waiting: number };

export function referralPointsStatus(
  referrals: { state: "registered" | "rewarded"; rewardPoints: number; creditSentAt: number | null }[],
): ReferralPointsStatus {
  const status: ReferralPointsStatus = { earned: 0, sent: 0, waiting: 0 };
  for (const referral of referrals) {
    const credit = referralCredit(referral);
    if (!credit) continue;
    status.earned += referral.rewardPoints;
    status[credit] += referral.rewardPoints;
  }
  return status;
}

const points = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "point" : "points"}`;

/**
 * The share page's plain words about the points: the balance the back end has, what was handed on
 * to be added to it, and what waits and why. `creditedBy`: "automation" when the chain's
 * automation adds referral points (a lead webhook is configured), "nobody" when nothing can.
 */
export function referralPointsWords(
  input: ReferralPointsStatus & { creditedBy: "automation" | "nobody"; balance: number | null },
): string[] {
  const words: string[] = [];
  if (input.balance !== null) words.push(`Your loyalty balance at our clinics today: ${points(input.balance)}.`);
  if (input.sent > 0) words.push(`${points(input.sent)} sent to our loyalty programme to be added to your balance.`);
  if (input.waiting > 0) {
    words.push(
      input.creditedBy === "automation"
        ? `${points(input.waiting)} waiting to be added to your balance: we send them to our loyalty programme again every few minutes until it takes them. They are not in your balance yet.`
        : `${points(input.waiting)} waiting to be added to your balance: our clinic system has no way for this website to add points, so the front desk adds them: show this page at your next visit. They are not in your balance yet.`,
    );
  }
  return words;
}

/**
 * The ways to share a code that work without JavaScript: an email and a text whose bodies carry
 * the landing page's address.
 */
export function shareLinks(input: { firstName: string; url: string }): { email: string; sms: string; message: string } {
  const message = `I love my laser facials at Glow Clinic. Your first signature laser facial is $50 instead of $275 with my link: ${input.url}`;
  const subject = `${input.firstName} sent you $225 off your first laser facial`;
  return {
    message,
    email: `mailto:?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(message)}`,
    sms: `sms:?&body=${encodeURIComponent(message)}`,
  };
}
