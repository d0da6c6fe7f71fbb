import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { REFERRAL_CODE_MESSAGES, REFERRAL_MESSAGES, REFERRAL_REWARD_POINTS } from "~/domain/referrals";
import { createRecordingAnalytics } from "../../tests/helpers/recording-analytics";
import { startSandbox, TEST_API_KEY } from "../../tests/helpers/sandbox-server";
import { seededServices } from "../../tests/helpers/seeded-services";
import { createAccountService } from "../accounts/account-service.server";
import type { CurrentUser, Services } from "../services";
import { createNoLeadWebhooks, type Lead } from "../leads/lead-webhooks.server";
import { seedGuid } from "../spa-sandbox/db";
import { createSpaClient, type SpaClient } from "../spa/client.server";
import { createSqliteStores } from "../store/sqlite-store.server";
import type { Stores } from "../store/stores.server";
import {
  checkReferralFor,
  checkReferralRewards,
  CREDIT_RESEND_AFTER_MS,
  lookUpReferralCode,
  MAX_FRIENDS_PER_CODE,
  reconcileReferrals,
  recordReferral,
  referralCodeOf,
  REWARD_CHECK_EVERY_MS,
  shareTheGlow,
} from "./referrals.server";

/**
 * The referral programme against the sandbox and the SQLite stores (decision 032): one code per
 * account, who a code can refer, and the referrer's 5,000 points once the friend's first signature
 * facial is closed in the back end, credited once however many checks run at once.
 */

const AUSTIN = seedGuid("center:ATX");
const ZONE = "America/Chicago";
// 09:00 in Austin on Monday 30 November 2026.
const NOW = Date.parse("2026-11-30T15:00:00Z");
/** The race: more friends than a code may refer, registering at once. */
const CONCURRENT_FRIENDS = 40;
const BOOKING_DAYS = ["2026-12-01", "2026-12-02", "2026-12-03", "2026-12-04", "2026-12-05", "2026-12-07", "2026-12-08"];

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let spa: SpaClient;
let stores: Stores;
let services: Services;
const leads: Lead[] = [];
/** What the chain's automation answers a lead that must arrive (a reward's credit). */
let automation: "sent" | "failed" = "sent";
const analytics = createRecordingAnalytics();
let people = 0;
let bookings = 0;

/** Services on the shared sandbox with stores of their own (seeded as the embedded set-up is). */
async function servicesWith(own: Stores): Promise<Services> {
  return seededServices(spa, own, {
    analytics,
    leads: {
      kind: "http",
      send: (lead: Lead) => leads.push(lead),
      deliver: async (lead: Lead) => (leads.push(lead), automation),
      close: async () => {},
      stats: () => ({ sent: 0, failed: 0, dropped: 0, inFlight: 0 }),
    },
  });
}

/** Runs a test on stores of its own, with services over them, closed afterwards. */
async function withOwnStores(test: (own: Stores, via: Services) => Promise<void>) {
  const own = createSqliteStores(":memory:");
  try {
    await test(own, await servicesWith(own));
  } finally {
    await own.close();
  }
}

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => NOW, holdSeconds: 600 });
  spa = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY }, clock: () => NOW });
  stores = createSqliteStores(":memory:");
  services = await servicesWith(stores);
});
afterAll(async () => {
  await sandbox.stop();
  await stores.close();
});
beforeEach(() => {
  automation = "sent";
  leads.length = 0;
  analytics.events.length = 0;
});

const api = (method: string, path: string, body?: unknown) =>
  fetch(`${sandbox.baseUrl}${path}`, {
    method,
    headers: { authorization: `apikey ${TEST_API_KEY}`, "content-type": "application/json" },
    body: body ? JSON.stringify(body) : undefined,
  }).then((r) => r.json() as Promise<Record<string, unknown>>);

/** A guest at the Austin clinic with an email and a mobile no other guest of these tests has. */
async function newGuest(firstName: string): Promise<{ guestId: string; email: string; firstName: string }> {
  people += 1;
  const email = `${firstName.toLowerCase()}.${people}.${randomUUID().slice(0, 8)}@example.com`;
  const guest = await spa.createGuest({
    centerId: AUSTIN,
    firstName,
    lastName: "Tester",
    email,
    phone: `512556${String(people).padStart(4, "0")}`,
    consents: { marketingEmail: false, marketingSms: false, transactionalEmail: true, transactionalSms: true },
    tags: [],
  });
  return { guestId: guest.id, email, firstName };
}

/** A signed-in account (and its guest): someone with a code to share. */
async function newReferrer(own: Stores = stores, firstName = "Mia"): Promise<CurrentUser> {
  const guest = await newGuest(firstName);
  const user: CurrentUser = { id: randomUUID(), email: guest.email, guestId: guest.guestId, centerId: AUSTIN };
  await own.accounts.create({
    ...user,
    passwordHash: "not-a-real-hash",
    createdAt: NOW,
    passwordChangedAt: NOW,
    referralCode: null,
  });
  return user;
}

/** Books a visit of the seed's service for the guest on a day to come; its invoice and treatment's appointment. */
async function book(guestId: string, serviceCode: string): Promise<{ invoiceId: string; appointmentId: string }> {
  const date = BOOKING_DAYS[bookings++ % BOOKING_DAYS.length];
  const bookingId = await spa.createBooking({
    centerId: AUSTIN,
    date,
    guestId,
    serviceId: seedGuid(`service:${serviceCode}`),
    therapistId: null,
    addOnIds: [],
  });
  const { times } = await spa.listSlots(bookingId, date);
  expect(await spa.reserveSlot(bookingId, times[0], ZONE)).not.toBeNull();
  const confirmed = (await spa.confirmBooking(bookingId, ZONE))!;
  const visits = await spa.listGuestAppointments(guestId);
  const visit = visits.find((v) => v.invoiceId === confirmed.invoiceId)!;
  return { invoiceId: confirmed.invoiceId, appointmentId: visit.services[0].appointmentId };
}

/** The front desk closes the visit (status 1), after it was moved into the past. */
async function close(invoiceId: string): Promise<void> {
  expect(
    (await api("POST", `/v1/sandbox/appointments/${invoiceId}/move`, { start: "2026-11-20T10:00:00" })).success,
  ).toBe(true);
  expect((await api("POST", `/v1/invoices/${invoiceId}/close`)).success).toBe(true);
}

/** A friend referred by the referrer's code, with a guest at the back end. */
async function referredFriend(
  referrer: CurrentUser,
  via: Services = services,
  emailCase: (email: string) => string = (e) => e,
) {
  const friend = await newGuest("Zoe");
  const owner = await referralCodeOf(via, referrer);
  expect(
    await recordReferral(
      via,
      owner,
      { email: emailCase(friend.email), firstName: friend.firstName, guestId: friend.guestId },
      NOW,
    ),
  ).toBe("added");
  return { ...friend, owner, referral: async () => (await via.stores.referrals.forFriend(friend.email))! };
}

/** The same services with a back end whose visits cannot be read. */
function withUnreadableVisits(base: Services): Services & { calls: () => number } {
  let calls = 0;
  return {
    ...base,
    spa: {
      ...base.spa,
      listGuestAppointments: async () => {
        calls += 1;
        throw new Error("the back end is down");
      },
    },
    calls: () => calls,
  };
}

describe("a referral code", () => {
  it("is made once per account: asking again, or twice at once, gives the same code", async () => {
    const user = await newReferrer(stores, "Mia");
    const [first, second] = await Promise.all([referralCodeOf(services, user), referralCodeOf(services, user)]);
    expect(first.code).toMatch(/^MIA-[2-9A-HJ-NP-Z]{4}$/);
    expect(second.code).toBe(first.code);
    expect((await referralCodeOf(services, user)).code).toBe(first.code);
    expect(first).toMatchObject({ accountId: user.id, guestId: user.guestId, firstName: "Mia", centerId: AUSTIN });
    expect(await stores.referrals.forOwner(user.id)).toMatchObject({ code: first.code });
    // Another account gets another code.
    expect((await referralCodeOf(services, await newReferrer())).code).not.toBe(first.code);
  });

  it("is looked up in any case; a malformed or unknown code refers no one", async () => {
    const user = await newReferrer();
    const { code } = await referralCodeOf(services, user);
    expect(await lookUpReferralCode(services, code)).toMatchObject({ ok: true, owner: { accountId: user.id, code } });
    expect(await lookUpReferralCode(services, ` ${code.toLowerCase()} `)).toMatchObject({
      ok: true,
      owner: { accountId: user.id },
    });
    expect(await lookUpReferralCode(services, "not a code!")).toEqual({ ok: false, reason: "malformed" });
    expect(await lookUpReferralCode(services, "")).toEqual({ ok: false, reason: "malformed" });
    // Well formed, but 0, O, 1, I and L are never in a code's tail: this one cannot be anyone's.
    expect(await lookUpReferralCode(services, "MIA-0000")).toEqual({ ok: false, reason: "malformed" });
    expect(await lookUpReferralCode(services, "NOBODY-2345")).toEqual({ ok: false, reason: "unknown" });
  });

  it(`is used up after ${MAX_FRIENDS_PER_CODE} friends`, async () => {
    const user = await newReferrer();
    const owner = await referralCodeOf(services, user);
    for (let i = 0; i < MAX_FRIENDS_PER_CODE - 1; i++) {
      expect(
        await recordReferral(
          services,
          owner,
          { email: `friend.${i}.${owner.code}@example.com`, firstName: "Friend", guestId: null },
          NOW + i,
        ),
      ).toBe("added");
    }
    expect(await lookUpReferralCode(services, owner.code)).toMatchObject({ ok: true });
    expect(
      await recordReferral(
        services,
        owner,
        { email: `friend.last.${owner.code}@example.com`, firstName: "Friend", guestId: null },
        NOW + 100,
      ),
    ).toBe("added");
    expect(await lookUpReferralCode(services, owner.code)).toEqual({ ok: false, reason: "used-up" });
    expect(
      await checkReferralFor(services, owner.code, { email: "someone.new@example.com", isNewClient: true }),
    ).toEqual({
      ok: false,
      message: "That referral code has been used as many times as it can be.",
    });
  });
});

describe("a code's cap under load (decision 038)", () => {
  let phones = 0;
  /** A friend registering with the code: details no guest of these tests has. */
  const registration = (code: string) => {
    phones += 1;
    return {
      firstName: "Friend",
      lastName: "Tester",
      email: `friend.${phones}.${randomUUID().slice(0, 8)}@example.com`,
      phone: `512559${String(phones).padStart(4, "0")}`,
      centerId: AUSTIN,
      address: "1 Oak St",
      city: "Austin",
      zip: "78701",
      password: "Glow!Skin2026",
      referralCode: code,
      marketingEmail: false,
      marketingSms: false,
    };
  };

  it(`${CONCURRENT_FRIENDS} friends checked and recorded at once with one code: exactly ${MAX_FRIENDS_PER_CODE} are referred, the others told it is used up`, async () => {
    await withOwnStores(async (own, via) => {
      const owner = await referralCodeOf(via, await newReferrer(own));
      const emails = Array.from({ length: CONCURRENT_FRIENDS }, (_, i) => `at.once.${i}.${owner.code}@example.com`);
      // What registration and the booking's details step do for each friend: check, then record.
      const outcomes = await Promise.all(
        emails.map(async (email) => {
          const check = await checkReferralFor(via, owner.code, { email, isNewClient: true });
          return check.ok
            ? recordReferral(via, check.owner, { email, firstName: "Friend", guestId: null }, NOW)
            : check.message;
        }),
      );
      expect(outcomes.filter((o) => o === "added")).toHaveLength(MAX_FRIENDS_PER_CODE);
      expect(
        outcomes.filter((o) => o !== "added").every((o) => o === "used-up" || o === REFERRAL_CODE_MESSAGES.usedUp),
      ).toBe(true);
      expect(await own.referrals.listByReferrer(owner.accountId, 100)).toHaveLength(MAX_FRIENDS_PER_CODE);
      expect(
        analytics.events.filter((e) => e.name === "referral_registered" && e.userId === owner.accountId),
      ).toHaveLength(MAX_FRIENDS_PER_CODE);
    });
  });

  it("friends registering at once for a code's last places: as many are registered as there are places, the others keep their form and get nothing made", async () => {
    await withOwnStores(async (own, via) => {
      const owner = await referralCodeOf(via, await newReferrer(own));
      const places = 2;
      for (let i = 0; i < MAX_FRIENDS_PER_CODE - places; i++) {
        expect(
          await recordReferral(
            via,
            owner,
            { email: `earlier.${i}.${owner.code}@example.com`, firstName: "Friend", guestId: null },
            NOW,
          ),
        ).toBe("added");
      }
      const accounts = createAccountService(via, () => NOW);
      const friends = Array.from({ length: places + 3 }, () => registration(owner.code));
      const results = await Promise.all(friends.map((friend) => accounts.register(friend)));

      expect(results.filter((r) => r.ok)).toHaveLength(places);
      for (const [i, friend] of friends.entries()) {
        const result = results[i];
        if (result.ok) {
          expect(await own.referrals.forFriend(friend.email)).toMatchObject({
            code: owner.code,
            friendGuestId: result.value.user.guestId,
          });
          continue;
        }
        expect(result).toMatchObject({ ok: false, field: "referralCode" });
        expect([REFERRAL_CODE_MESSAGES.usedUp, REFERRAL_CODE_MESSAGES.usedUpMeanwhile]).toContain(result.message);
        // A friend turned away has no account and no guest record naming the referrer.
        expect(await own.accounts.getByEmail(friend.email)).toBeNull();
        expect(await spa.findGuestsByEmail(friend.email)).toEqual([]);
      }
      expect(await own.referrals.listByReferrer(owner.accountId, 100)).toHaveLength(MAX_FRIENDS_PER_CODE);
    });
    // Five registrations hash five passwords at once: slow on a busy machine.
  }, 120_000);

  it("a friend whose code is used up between the check and the write is told so, and nothing is made for them", async () => {
    await withOwnStores(async (own, via) => {
      const owner = await referralCodeOf(via, await newReferrer(own));
      // Other friends take the code's last places while this one is being checked.
      const racing: Stores = {
        ...own,
        referrals: {
          ...own.referrals,
          add: async (referral, cap) => {
            for (let i = 0; i < cap; i++)
              await own.referrals.add({ ...referral, friendEmail: `faster.${i}.${referral.friendEmail}` }, cap);
            return own.referrals.add(referral, cap);
          },
        },
      };
      const friend = registration(owner.code);
      const result = await createAccountService({ ...via, stores: racing }, () => NOW).register(friend);
      expect(result).toEqual({ ok: false, field: "referralCode", message: REFERRAL_CODE_MESSAGES.usedUpMeanwhile });
      expect(await own.referrals.forFriend(friend.email)).toBeNull();
      expect(await own.accounts.getByEmail(friend.email)).toBeNull();
      expect(await spa.findGuestsByEmail(friend.email)).toEqual([]);
    });
  });

  it("a registration that does not go through gives the code's place back", async () => {
    await withOwnStores(async (own, via) => {
      const owner = await referralCodeOf(via, await newReferrer(own));
      const friend = registration(owner.code);
      const down = {
        ...via,
        spa: { ...spa, createGuest: async () => Promise.reject(new Error("back end down")) },
      } as Services;
      await expect(createAccountService(down, () => NOW).register(friend)).rejects.toThrow("back end down");
      expect(await own.referrals.forFriend(friend.email)).toBeNull();
      // The same friend registers again once the back end is back, and is referred.
      expect((await createAccountService(via, () => NOW).register(friend)).ok).toBe(true);
      expect(await own.referrals.forFriend(friend.email)).toMatchObject({
        code: owner.code,
        state: "registered",
        friendGuestId: expect.any(String),
      });
    });
  });
});

describe("who a code can refer", () => {
  it("a new friend with an email not referred before", async () => {
    const user = await newReferrer();
    const { code } = await referralCodeOf(services, user);
    expect(
      await checkReferralFor(services, code.toLowerCase(), { email: "a.new.friend@example.com", isNewClient: true }),
    ).toMatchObject({ ok: true, owner: { accountId: user.id } });
    expect(
      await checkReferralFor(services, "NOBODY-2345", { email: "a.new.friend@example.com", isNewClient: true }),
    ).toEqual({ ok: false, message: REFERRAL_MESSAGES.unknown });
    expect(await checkReferralFor(services, "??", { email: "a.new.friend@example.com", isNewClient: true })).toEqual({
      ok: false,
      message: REFERRAL_MESSAGES.unknown,
    });
  });

  it("not the owner of the code, whatever the case of the email", async () => {
    const user = await newReferrer();
    const { code } = await referralCodeOf(services, user);
    for (const email of [
      user.email,
      user.email.toUpperCase(),
      ` ${user.email.replace(/^./, (c) => c.toUpperCase())} `,
    ]) {
      expect(await checkReferralFor(services, code, { email, isNewClient: true })).toEqual({
        ok: false,
        message: REFERRAL_MESSAGES.own,
      });
    }
  });

  it("not an email referred before, by this code or another, in any case", async () => {
    const first = await referralCodeOf(services, await newReferrer());
    const second = await referralCodeOf(services, await newReferrer());
    const email = `Friend.${randomUUID().slice(0, 8)}@Example.com`;
    expect(await recordReferral(services, first, { email, firstName: "Ana", guestId: null }, NOW)).toBe("added");
    expect(analytics.events.filter((e) => e.name === "referral_registered")).toEqual([
      expect.objectContaining({ userId: first.accountId }),
    ]);
    expect(await checkReferralFor(services, second.code, { email: email.toLowerCase(), isNewClient: true })).toEqual({
      ok: false,
      message: REFERRAL_MESSAGES.alreadyReferred,
    });
    expect(await checkReferralFor(services, first.code, { email: email.toUpperCase(), isNewClient: true })).toEqual({
      ok: false,
      message: REFERRAL_MESSAGES.alreadyReferred,
    });
    // A second record of the same friend is refused, and nothing is counted for it.
    expect(
      await recordReferral(services, second, { email: email.toUpperCase(), firstName: "Ana", guestId: null }, NOW),
    ).toBe("already-referred");
    expect(analytics.events.filter((e) => e.name === "referral_registered")).toHaveLength(1);
    expect((await stores.referrals.forFriend(email.toLowerCase()))?.referrerAccountId).toBe(first.accountId);
  });

  it("not a client who has been to the clinics before", async () => {
    const { code } = await referralCodeOf(services, await newReferrer());
    expect(await checkReferralFor(services, code, { email: "been.before@example.com", isNewClient: false })).toEqual({
      ok: false,
      message: REFERRAL_MESSAGES.notNew,
    });
  });
});

describe("the referrer's reward", () => {
  it("nothing before the friend's new-client facial is closed; after, 5,000 points once however many checks run", async () => {
    const referrer = await newReferrer(stores, "Mia");
    // The friend typed their email with capitals; the reward is found by it whatever the case.
    const friend = await referredFriend(referrer, services, (e) => e.replace(/^zoe/, "Zoe"));
    expect((await friend.referral()).friendEmail).toMatch(/^Zoe\./);
    const visit = await book(friend.guestId, "FT-NEW");

    expect(await checkReferralRewards(services, [await friend.referral()], NOW)).toBe(0);
    expect(await friend.referral()).toMatchObject({
      state: "registered",
      checkedAt: NOW,
      rewardPoints: 0,
      rewardedAt: null,
      visitId: null,
    });
    expect(leads).toEqual([]);

    await close(visit.invoiceId);
    const registered = await friend.referral();
    const later = NOW + 60_000;
    // Two instances check the same friend at once, each with the referral as it read it.
    const counts = await Promise.all([
      checkReferralRewards(services, [registered], later),
      checkReferralRewards(services, [registered], later),
    ]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await friend.referral()).toMatchObject({
      state: "rewarded",
      rewardPoints: REFERRAL_REWARD_POINTS,
      rewardedAt: later,
      visitId: visit.appointmentId,
    });
    // Checked again later (with the referral as first read, and as it is now): nothing more.
    expect(await checkReferralRewards(services, [registered], later + 3_600_000)).toBe(0);
    expect(await checkReferralRewards(services, [await friend.referral()], later + 3_600_000)).toBe(0);
    expect(await reconcileReferrals(services, later + 7_200_000)).toBe(0);

    expect(REFERRAL_REWARD_POINTS).toBe(5000);
    expect(leads).toEqual([
      expect.objectContaining({
        kind: "referral-reward",
        firstName: "Mia",
        email: referrer.email,
        centerId: AUSTIN,
        guestId: referrer.guestId,
        reward: { points: 5000, friendVisitId: visit.appointmentId, key: `referral:${friend.guestId.toLowerCase()}` },
      }),
    ]);
    expect(analytics.events.filter((e) => e.name === "referral_rewarded")).toEqual([
      expect.objectContaining({ userId: referrer.id, properties: { appointmentId: visit.appointmentId } }),
    ]);
    const share = await shareTheGlow(services, referrer, later + 3 * REWARD_CHECK_EVERY_MS);
    expect(share.tally).toEqual({ referred: 1, rewarded: 1, points: 5000 });
  });

  it("a closed visit of another treatment (the returning facial, a peel) gives nothing", async () => {
    const referrer = await newReferrer();
    const friend = await referredFriend(referrer);
    await close((await book(friend.guestId, "FT-RET")).invoiceId);
    await close((await book(friend.guestId, "PEEL-CLARIFY")).invoiceId);
    expect(await checkReferralRewards(services, [await friend.referral()], NOW)).toBe(0);
    expect(await friend.referral()).toMatchObject({ state: "registered", rewardPoints: 0, checkedAt: NOW });
    expect(leads).toEqual([]);
  });

  it("a friend without a guest yet, or already rewarded, is not asked about", async () => {
    const referrer = await newReferrer();
    const owner = await referralCodeOf(services, referrer);
    const email = `no.guest.${randomUUID().slice(0, 8)}@example.com`;
    await recordReferral(services, owner, { email, firstName: "Ana", guestId: null }, NOW);
    const watched = withUnreadableVisits(services);
    expect(await checkReferralRewards(watched, [(await stores.referrals.forFriend(email))!], NOW)).toBe(0);
    expect(watched.calls()).toBe(0);
    expect((await stores.referrals.forFriend(email))?.checkedAt).toBeNull();
  });

  it("a friend whose visits cannot be read is left registered for a later check, behind the others", async () => {
    const referrer = await newReferrer();
    const friend = await referredFriend(referrer);
    const visit = await book(friend.guestId, "FT-NEW");
    await close(visit.invoiceId);
    const down = withUnreadableVisits(services);
    expect(await checkReferralRewards(down, [await friend.referral()], NOW)).toBe(0);
    expect(down.calls()).toBe(1);
    expect(await friend.referral()).toMatchObject({ state: "registered", checkedAt: NOW, rewardPoints: 0 });
    expect(leads).toEqual([]);
    // The next check, with the back end back, credits it.
    expect(await checkReferralRewards(services, [await friend.referral()], NOW + 1)).toBe(1);
    expect(await friend.referral()).toMatchObject({ state: "rewarded", visitId: visit.appointmentId });
  });

  it("the reconciler asks about friends not asked about for an hour", () =>
    withOwnStores(async (own, via) => {
      const referrer = await newReferrer(own);
      const due = await referredFriend(referrer, via);
      const recent = await referredFriend(referrer, via);
      await close((await book(due.guestId, "FT-NEW")).invoiceId);
      await close((await book(recent.guestId, "FT-NEW")).invoiceId);
      await own.referrals.update(recent.email, { checkedAt: NOW - 60_000 });
      await own.referrals.update(due.email, { checkedAt: NOW - 2 * 3_600_000 });
      expect(await reconcileReferrals(via, NOW)).toBe(1);
      expect(await due.referral()).toMatchObject({ state: "rewarded", checkedAt: NOW });
      expect(await recent.referral()).toMatchObject({ state: "registered", checkedAt: NOW - 60_000 });
      // An hour on, the other one's turn.
      expect(await reconcileReferrals(via, NOW + 3_600_000)).toBe(1);
      expect(await recent.referral()).toMatchObject({ state: "rewarded" });
      expect(
        leads
          .filter((l) => l.kind === "referral-reward")
          .map((l) => l.reward?.key)
          .sort(),
      ).toEqual([`referral:${due.guestId.toLowerCase()}`, `referral:${recent.guestId.toLowerCase()}`].sort());
    }));
});

describe("the reward's credit", () => {
  it("is sent again by the reconciler until the automation accepts it, then never again, always under the friend's key", () =>
    withOwnStores(async (own, via) => {
      const referrer = await newReferrer(own);
      const friend = await referredFriend(referrer, via);
      const visit = await book(friend.guestId, "FT-NEW");
      await close(visit.invoiceId);
      automation = "failed";
      expect(await checkReferralRewards(via, [await friend.referral()], NOW)).toBe(1);
      const credits = () => leads.filter((l) => l.kind === "referral-reward");
      await expect.poll(() => credits().length).toBe(1);
      expect(await friend.referral()).toMatchObject({ state: "rewarded", creditSentAt: null });

      // Not sent again while the first send may still be on its way; after five minutes, it is.
      await reconcileReferrals(via, NOW + CREDIT_RESEND_AFTER_MS - 1);
      expect(credits()).toHaveLength(1);
      await reconcileReferrals(via, NOW + CREDIT_RESEND_AFTER_MS + 1);
      expect(credits()).toHaveLength(2);
      expect((await friend.referral()).creditSentAt).toBeNull();

      expect((await friend.referral()).creditTriedAt).toBe(NOW + CREDIT_RESEND_AFTER_MS + 1);

      // Five minutes after that try, accepted.
      automation = "sent";
      await reconcileReferrals(via, NOW + 2 * CREDIT_RESEND_AFTER_MS);
      expect(credits()).toHaveLength(2);
      await reconcileReferrals(via, NOW + 2 * CREDIT_RESEND_AFTER_MS + 2);
      expect(credits()).toHaveLength(3);
      expect((await friend.referral()).creditSentAt).toBe(NOW + 2 * CREDIT_RESEND_AFTER_MS + 2);
      await reconcileReferrals(via, NOW + 10 * CREDIT_RESEND_AFTER_MS);
      expect(credits()).toHaveLength(3);
      const key = `referral:${friend.guestId.toLowerCase()}`;
      expect(credits().map((l) => l.reward)).toEqual(
        [1, 2, 3].map(() => ({ points: 5000, friendVisitId: visit.appointmentId, key })),
      );
    }));

  it("a credit the automation keeps refusing goes behind the others, which are still sent", () =>
    withOwnStores(async (own, via) => {
      const referrer = await newReferrer(own);
      const refused = await referredFriend(referrer, via);
      const later = await referredFriend(referrer, via);
      await close((await book(refused.guestId, "FT-NEW")).invoiceId);
      await close((await book(later.guestId, "FT-NEW")).invoiceId);
      automation = "failed";
      await checkReferralRewards(via, [await refused.referral()], NOW);
      await checkReferralRewards(via, [await later.referral()], NOW + 1_000);
      await expect.poll(async () => (await later.referral()).creditTriedAt).toBe(NOW + 1_000);
      expect((await refused.referral()).creditTriedAt).toBe(NOW);

      // One pass tries the first; the next, the other: a refused credit does not hold up the rest.
      const limited = {
        ...via,
        stores: {
          ...own,
          referrals: { ...own.referrals, listUncredited: (before: number) => own.referrals.listUncredited(before, 1) },
        },
      };
      await reconcileReferrals(limited, NOW + CREDIT_RESEND_AFTER_MS + 2_000);
      expect((await refused.referral()).creditTriedAt).toBe(NOW + CREDIT_RESEND_AFTER_MS + 2_000);
      automation = "sent";
      await reconcileReferrals(limited, NOW + CREDIT_RESEND_AFTER_MS + 3_000);
      expect((await later.referral()).creditSentAt).toBe(NOW + CREDIT_RESEND_AFTER_MS + 3_000);
      expect((await refused.referral()).creditSentAt).toBeNull();
    }));

  it("without a lead webhook nothing can add the points: the credit waits, untouched, and is sent once a webhook is configured", () =>
    withOwnStores(async (own, via) => {
      const off = { ...via, leads: createNoLeadWebhooks() };
      const referrer = await newReferrer(own);
      const friend = await referredFriend(referrer, off);
      await close((await book(friend.guestId, "FT-NEW")).invoiceId);
      expect(await checkReferralRewards(off, [await friend.referral()], NOW)).toBe(1);
      await reconcileReferrals(off, NOW + 10 * CREDIT_RESEND_AFTER_MS);
      expect(await friend.referral()).toMatchObject({ state: "rewarded", creditSentAt: null, creditTriedAt: null });
      expect((await shareTheGlow(off, referrer, NOW + 10 * CREDIT_RESEND_AFTER_MS)).loyalty).toMatchObject({
        earned: 5000,
        sent: 0,
        waiting: 5000,
        creditedBy: "nobody",
      });

      // The automation configured later is sent the points owed, under the friend's key, once.
      await reconcileReferrals(via, NOW + 11 * CREDIT_RESEND_AFTER_MS);
      expect(leads.filter((l) => l.kind === "referral-reward").map((l) => l.reward)).toEqual([
        { points: 5000, friendVisitId: expect.any(String), key: `referral:${friend.guestId.toLowerCase()}` },
      ]);
      expect((await friend.referral()).creditSentAt).toBe(NOW + 11 * CREDIT_RESEND_AFTER_MS);
      await reconcileReferrals(via, NOW + 20 * CREDIT_RESEND_AFTER_MS);
      expect(leads.filter((l) => l.kind === "referral-reward")).toHaveLength(1);
    }));
});

describe("the share page", () => {
  it("shows the code, the friends and the tally, asking about friends not asked about in the last minute", () =>
    withOwnStores(async (own, via) => {
      const referrer = await newReferrer(own, "Mia");
      const empty = await shareTheGlow(via, referrer, NOW);
      expect(empty).toEqual({
        code: expect.stringMatching(/^MIA-/),
        firstName: "Mia",
        referrals: [],
        tally: { referred: 0, rewarded: 0, points: 0 },
        loyalty: { earned: 0, sent: 0, waiting: 0, creditedBy: "automation", balance: 0 },
      });

      const been = await referredFriend(referrer, via);
      const booked = await referredFriend(referrer, via);
      await close((await book(been.guestId, "FT-NEW")).invoiceId);
      await book(booked.guestId, "FT-NEW");
      const owner = await referralCodeOf(via, referrer);
      await recordReferral(
        via,
        owner,
        { email: `no.guest.${randomUUID().slice(0, 8)}@example.com`, firstName: "Ana", guestId: null },
        NOW + 5,
      );

      const share = await shareTheGlow(via, referrer, NOW + 1000);
      expect(share.code).toBe(empty.code);
      expect(share.tally).toEqual({ referred: 3, rewarded: 1, points: 5000 });
      expect(share.referrals).toHaveLength(3);
      expect(share.referrals.filter((r) => r.rewarded)).toEqual([
        {
          firstName: "Zoe",
          since: NOW,
          rewarded: true,
          points: 5000,
          credit: expect.stringMatching(/^(sent|waiting)$/),
        },
      ]);
      expect(share.referrals.find((r) => r.firstName === "Ana")).toEqual({
        firstName: "Ana",
        since: NOW + 5,
        rewarded: false,
        points: 0,
        credit: null,
      });
      expect(leads.filter((l) => l.kind === "referral-reward")).toHaveLength(1);

      // The points are the ledger's: sent to the automation once it took them, never counted in the balance.
      await expect
        .poll(async () => (await shareTheGlow(via, referrer, NOW + 1500)).loyalty)
        .toEqual({ earned: 5000, sent: 5000, waiting: 0, creditedBy: "automation", balance: 0 });
      expect((await shareTheGlow(via, referrer, NOW + 1500)).referrals.find((r) => r.rewarded)?.credit).toBe("sent");

      // Within the minute the back end is not asked again; after it, the friend still waiting is.
      const watched = withUnreadableVisits(via);
      expect((await shareTheGlow(watched, referrer, NOW + 2000)).tally).toEqual({
        referred: 3,
        rewarded: 1,
        points: 5000,
      });
      expect(watched.calls()).toBe(0);
      expect((await shareTheGlow(watched, referrer, NOW + 1000 + REWARD_CHECK_EVERY_MS + 1)).tally).toEqual({
        referred: 3,
        rewarded: 1,
        points: 5000,
      });
      expect(watched.calls()).toBe(1);
    }));

  it("tells the balance the back end has apart from the points earned here, which wait while the automation refuses them", () =>
    withOwnStores(async (own, via) => {
      const referrer = await newReferrer(own, "Mia");
      // Points the clinics gave her themselves are her balance; the referral's are not in it.
      expect(
        (await api("POST", `/v1/sandbox/guests/${referrer.guestId}/points`, { points: 1200, reason: "Visit" })).balance,
      ).toBe(1200);
      automation = "failed";
      const friend = await referredFriend(referrer, via);
      await close((await book(friend.guestId, "FT-NEW")).invoiceId);
      await shareTheGlow(via, referrer, NOW);
      await expect.poll(async () => (await friend.referral()).creditTriedAt).toBe(NOW);
      const share = await shareTheGlow(via, referrer, NOW + 1000);
      expect(share.loyalty).toEqual({ earned: 5000, sent: 0, waiting: 5000, creditedBy: "automation", balance: 1200 });
      expect(share.referrals[0].credit).toBe("waiting");

      // A balance that cannot be read is left out; the referrals are still shown.
      const unread = {
        ...via,
        spa: { ...via.spa, loyaltyPoints: async () => Promise.reject(new Error("the back end is down")) },
      } as Services;
      expect((await shareTheGlow(unread, referrer, NOW + 2000)).loyalty).toEqual({
        earned: 5000,
        sent: 0,
        waiting: 5000,
        creditedBy: "automation",
        balance: null,
      });
    }));
});
