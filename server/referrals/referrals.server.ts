import { randomBytes } from "node:crypto";
import { REFERRAL_CODE, normalizeReferralCode } from "~/domain/attribution";
import {
  isReferralTreatment,
  makeReferralCode,
  MAX_FRIENDS_PER_CODE,
  REFERRAL_CODE_MESSAGES,
  REFERRAL_MESSAGES,
  REFERRAL_REWARD_POINTS,
  referralCredit,
  referralPointsStatus,
  referralRefusal,
  referralTally,
  type ReferralCredit,
  type ReferralPointsStatus,
} from "~/domain/referrals";
import { APPOINTMENT_STATUS } from "~/domain/appointments";
import type { CurrentUser, Services } from "../services";
import { logger } from "../observability/logger.server";
import type { Referral, ReferralAdded, ReferralCodeRecord } from "../store/stores.server";

/**
 * How long a friend's visits are not asked about again from the share page: a referrer who reloads
 * it sees a visit closed since within seconds, and costs at most one call per friend that often.
 */
export const REWARD_CHECK_EVERY_MS = 10_000;
/** How long the reconciler leaves a friend before asking again (a referrer who never looks is still credited). */
export const RECONCILE_CHECK_EVERY_MS = 60 * 60_000;
/** The most friends one view of the share page asks the back end about (one call each). */
const CHECKS_PER_VIEW = 5;
/** The most referrals one reconciler pass checks. */
const CHECKS_PER_PASS = 20;
export { MAX_FRIENDS_PER_CODE };

/** The signed-in account's code, made the first time it is asked for (the spec's userCode). */
export async function referralCodeOf(services: Services, user: CurrentUser): Promise<ReferralCodeRecord> {
  const known = await services.stores.referrals.forOwner(user.id);
  if (known) return known;
  const guest = await services.spa.getGuest(user.guestId);
  const firstName = guest?.firstName?.trim() || "Friend";
  return services.stores.referrals.codeFor(
    { accountId: user.id, guestId: user.guestId, firstName, centerId: user.centerId },
    () => makeReferralCode(firstName, (size) => randomBytes(size)),
    Date.now(),
  );
}

export type ReferrerLookup =
  | { ok: true; owner: ReferralCodeRecord }
  | { ok: false; reason: "malformed" | "unknown" | "used-up" };

/** The owner of a code typed or followed, or why it refers no one. */
export async function lookUpReferralCode(services: Services, raw: string): Promise<ReferrerLookup> {
  const code = normalizeReferralCode(raw);
  if (!REFERRAL_CODE.test(code)) return { ok: false, reason: "malformed" };
  const owner = await services.stores.referrals.byCode(code);
  if (!owner) return { ok: false, reason: "unknown" };
  const referred = await services.stores.referrals.listByReferrer(owner.accountId, MAX_FRIENDS_PER_CODE);
  if (referred.length >= MAX_FRIENDS_PER_CODE) return { ok: false, reason: "used-up" };
  return { ok: true, owner };
}

export type FriendCheck = { ok: true; owner: ReferralCodeRecord } | { ok: false; message: string };

/**
 * Whether this code can refer this friend: a code that exists and is not used up, not the friend's
 * own, an email not referred before, and a friend new to the clinics (`isNewClient`, as the caller
 * knows it, and no guest with their mobile number when it is given). Checked before the friend's guest record is made, so the back end's record can name
 * the referrer.
 */
export async function checkReferralFor(
  services: Services,
  raw: string,
  friend: { email: string; isNewClient: boolean; phone?: string },
): Promise<FriendCheck> {
  const found = await lookUpReferralCode(services, raw);
  if (!found.ok)
    return {
      ok: false,
      message: found.reason === "used-up" ? REFERRAL_CODE_MESSAGES.usedUp : REFERRAL_MESSAGES.unknown,
    };
  const ownerAccount = await services.stores.accounts.getById(found.owner.accountId);
  const refusal = referralRefusal({
    known: true,
    ownerEmail: ownerAccount?.email ?? null,
    friendEmail: friend.email,
    alreadyReferred: Boolean(await services.stores.referrals.forFriend(friend.email)),
    // A mobile number already on a guest record is someone the clinics know (the referrer's own, under another email, too).
    friendIsNewClient:
      friend.isNewClient && !(friend.phone && (await services.spa.findGuestsByPhone(friend.phone)).length > 0),
  });
  return refusal ? { ok: false, message: REFERRAL_MESSAGES[refusal] } : { ok: true, owner: found.owner };
}

/**
 * Records the friend under the referrer's code: once per friend, and at most
 * `MAX_FRIENDS_PER_CODE` friends per code however many register at once (the store counts and
 * writes in one transaction, decision 038). Called before the friend's guest is made (`guestId`
 * null), so a code used up between the check and this write refuses the friend before anything is
 * made; `noteReferredGuest` then adds the guest, or `releaseReferral` takes the claim back.
 */
export async function recordReferral(
  services: Services,
  owner: ReferralCodeRecord,
  friend: { email: string; firstName: string; guestId: string | null },
  now = Date.now(),
): Promise<ReferralAdded> {
  const added = await services.stores.referrals.add(
    {
      friendEmail: friend.email,
      friendFirstName: friend.firstName,
      friendGuestId: friend.guestId,
      code: owner.code,
      referrerAccountId: owner.accountId,
      referrerGuestId: owner.guestId,
      createdAt: now,
      state: "registered",
      checkedAt: null,
      rewardPoints: 0,
      rewardedAt: null,
      visitId: null,
      creditSentAt: null,
      creditTriedAt: null,
    },
    MAX_FRIENDS_PER_CODE,
  );
  if (added === "added")
    services.analytics.record({
      name: "referral_registered",
      userId: owner.accountId,
      properties: { centerId: owner.centerId },
    });
  return added;
}

/** What the friend is told when their referral was not recorded after all (another friend took the code's last place, or the email was referred meanwhile). */
export function referralNotRecordedMessage(outcome: Exclude<ReferralAdded, "added">): string {
  return outcome === "used-up" ? REFERRAL_CODE_MESSAGES.usedUpMeanwhile : REFERRAL_MESSAGES.alreadyReferred;
}

/** What a friend booking with a code is told when it was used up (or they were referred) meanwhile: the booking goes on at the usual price. */
export function referralNotBookedMessage(outcome: Exclude<ReferralAdded, "added">): string {
  return `${outcome === "used-up" ? REFERRAL_CODE_MESSAGES.usedUpBooking : REFERRAL_MESSAGES.alreadyReferred} Your booking goes on at the usual price.`;
}

/** The friend's guest, once made: from then on the reward is checked for. */
export async function noteReferredGuest(services: Services, friendEmail: string, guestId: string): Promise<void> {
  await services.stores.referrals.update(friendEmail, { friendGuestId: guestId });
}

/**
 * Takes back a friend's referral whose registration or booking did not go through (no guest was
 * made), so the code's place is free again. Never throws: a claim left behind only holds one place.
 */
export async function releaseReferral(
  services: Services,
  owner: ReferralCodeRecord,
  friendEmail: string,
): Promise<void> {
  await services.stores.referrals
    .release(friendEmail, owner.code)
    .catch((error: Error) => logger.warn("referral claim not released", { error: error.message }));
}

/**
 * Asks the back end whether each friend's first signature facial was completed (status 1) and, for
 * each that was, credits the referrer 5,000 points, once: the store's reward is atomic, so two
 * instances checking the same friend credit it once. The reward goes to the automation webhook
 * too, which credits the points in the back end's loyalty programme (decision 032). A friend whose
 * visits cannot be read is left for the next check.
 */
export async function checkReferralRewards(
  services: Services,
  referrals: Referral[],
  now = Date.now(),
): Promise<number> {
  let rewarded = 0;
  for (const referral of referrals) {
    if (referral.state !== "registered" || !referral.friendGuestId) continue;
    try {
      const visits = await services.spa.listGuestAppointments(referral.friendGuestId, { size: 100 });
      const completed = visits
        .flatMap((visit) => visit.services)
        .find((service) => service.status === APPOINTMENT_STATUS.CLOSED && isReferralTreatment(service.name));
      await services.stores.referrals.update(referral.friendEmail, { checkedAt: now });
      if (!completed) continue;
      if (
        !(await services.stores.referrals.reward(referral.friendEmail, {
          points: REFERRAL_REWARD_POINTS,
          visitId: completed.appointmentId,
          now,
        }))
      )
        continue;
      rewarded += 1;
      services.analytics.record({
        name: "referral_rewarded",
        userId: referral.referrerAccountId,
        properties: { appointmentId: completed.appointmentId },
      });
      // In the background: a credit that does not arrive is sent again by the reconciler.
      void sendRewardCredit(services, { ...referral, visitId: completed.appointmentId }, now);
    } catch (error) {
      logger.warn("referral reward not checked", { error: (error as Error).message });
      // Asked again later, not first in line: one friend whose visits cannot be read never holds up the rest.
      await services.stores.referrals.update(referral.friendEmail, { checkedAt: now }).catch(() => undefined);
    }
  }
  return rewarded;
}

/**
 * Sends a reward's credit to the chain's automation (the referral-reward lead), which credits the
 * points in the back end's loyalty programme (Zenoti publishes no call that adds points, decision
 * 038), and notes when it was accepted, or when it failed (it then goes behind the others
 * waiting). Its key names the friend's guest, so a credit sent twice (a lost answer, two
 * instances) is credited once. With no lead webhook configured nothing can add the points: the
 * credit stays waiting (the share page says so) and is sent once a webhook is configured.
 * Never throws.
 */
async function sendRewardCredit(services: Services, referral: Referral, now: number): Promise<boolean> {
  if (services.leads.kind === "off") return false;
  try {
    const [referrer, code] = await Promise.all([
      services.stores.accounts.getById(referral.referrerAccountId),
      services.stores.referrals.byCode(referral.code),
    ]);
    const sent = await services.leads.deliver({
      kind: "referral-reward",
      firstName: code?.firstName ?? "",
      lastName: null,
      email: referrer?.email ?? "",
      phone: null,
      centerId: referrer?.centerId ?? "",
      guestId: referral.referrerGuestId,
      reward: {
        points: REFERRAL_REWARD_POINTS,
        friendVisitId: referral.visitId ?? "",
        key: `referral:${(referral.friendGuestId ?? "").toLowerCase()}`,
      },
    });
    if (sent !== "sent") {
      await services.stores.referrals.update(referral.friendEmail, { creditTriedAt: now });
      return false;
    }
    await services.stores.referrals.update(referral.friendEmail, { creditSentAt: now });
    return true;
  } catch (error) {
    logger.warn("referral reward credit not sent", { error: (error as Error).message });
    return false;
  }
}

/** A reward's credit is first sent when it is earned; the reconciler sends it again this long after the last try. */
export const CREDIT_RESEND_AFTER_MS = 5 * 60_000;

/**
 * The reconciler's pass: friends not asked about for a while, a bounded number per pass; then the
 * rewards whose credit the automation has not accepted yet, least recently tried first.
 */
export async function reconcileReferrals(services: Services, now = Date.now()): Promise<number> {
  const due = await services.stores.referrals.listAwaitingReward(now - RECONCILE_CHECK_EVERY_MS, CHECKS_PER_PASS);
  const rewarded = await checkReferralRewards(services, due, now);
  // With no webhook there is nothing to send to: the credits wait, untouched, until one is configured.
  if (services.leads.kind === "off") return rewarded;
  for (const referral of await services.stores.referrals.listUncredited(
    now - CREDIT_RESEND_AFTER_MS,
    CHECKS_PER_PASS,
  )) {
    await sendRewardCredit(services, referral, now);
  }
  return rewarded;
}

export type ShareTheGlow = {
  code: string;
  firstName: string;
  referrals: { firstName: string; since: number; rewarded: boolean; points: number; credit: ReferralCredit | null }[];
  tally: { referred: number; rewarded: number; points: number };
  /**
   * Where the points earned are: handed to the chain's automation to add to the loyalty balance,
   * or waiting, and why (`creditedBy`); and the balance the back end has now (null when it could
   * not be read). The page never counts points earned here as in the balance.
   */
  loyalty: ReferralPointsStatus & { creditedBy: "automation" | "nobody"; balance: number | null };
};

/**
 * The share page: the account's code, the friends it referred, the points they earned and where
 * those points are. Friends not asked about in the last few seconds are asked about now (a few per
 * view), so a reward shows as soon as the visit is closed.
 */
export async function shareTheGlow(services: Services, user: CurrentUser, now = Date.now()): Promise<ShareTheGlow> {
  const owner = await referralCodeOf(services, user);
  let referrals = await services.stores.referrals.listByReferrer(user.id, 100);
  const due = referrals
    .filter(
      (r) =>
        r.state === "registered" &&
        r.friendGuestId &&
        (r.checkedAt === null || r.checkedAt < now - REWARD_CHECK_EVERY_MS),
    )
    .slice(0, CHECKS_PER_VIEW);
  const [rewardedNow, balance] = await Promise.all([
    due.length > 0 ? checkReferralRewards(services, due, now) : 0,
    // The balance as the back end has it; a page without it still shows the referrals.
    services.spa.loyaltyPoints(user.guestId).then(
      (points) => (points ? Math.max(0, Math.floor(points.balance)) : 0),
      (error: Error) => (logger.warn("loyalty balance not read for the share page", { error: error.message }), null),
    ),
  ]);
  if (rewardedNow > 0) referrals = await services.stores.referrals.listByReferrer(user.id, 100);
  return {
    code: owner.code,
    firstName: owner.firstName,
    referrals: referrals.map((r) => ({
      firstName: r.friendFirstName,
      since: r.createdAt,
      rewarded: r.state === "rewarded",
      points: r.rewardPoints,
      credit: referralCredit(r),
    })),
    tally: referralTally(referrals),
    loyalty: {
      ...referralPointsStatus(referrals),
      creditedBy: services.leads.kind === "off" ? "nobody" : "automation",
      balance,
    },
  };
}
