import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Service } from "~/domain/catalog";
import { completedVisit, startSandbox } from "../../tests/helpers/sandbox-server";
import { TEST_API_KEY } from "../../tests/helpers/sandbox-server";
import { createAccountService } from "../accounts/account-service.server";
import { createMemoryRateLimiter } from "../accounts/rate-limit.server";
import type { Services } from "../services";
import type { Lead } from "../leads/lead-webhooks.server";
import { createRecordingAnalytics } from "../../tests/helpers/recording-analytics";
import { parseEnv } from "../env.server";
import { createOutboxNotifier } from "../notify/notifier.server";
import { seedGuid } from "../spa-sandbox/db";
import { createCachedCatalog } from "../spa/catalog-cache.server";
import { createSpaClient } from "../spa/client.server";
import { referralNotBookedMessage } from "../referrals/referrals.server";
import { createSqliteStores } from "../store/sqlite-store.server";
import type { Referral } from "../store/stores.server";
import type { Draft } from "./draft.server";
import { completeVerification, submitBookingDetails } from "./guest-details.server";
import { chooseTime } from "./hold-slot.server";
import { openTimes } from "./holds.server";

/**
 * The details step against the sandbox as strict as Zenoti (email and mobile mandatory): a guest
 * record only from real details, an existing client proven by a code, and no second record.
 */

const AUSTIN = seedGuid("center:ATX");
const DATE = "2026-12-01";

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let services: Services;
let facial: Service;
let catalog: Service[];
let notifier: ReturnType<typeof createOutboxNotifier>;
let n = 0;
/** The leads the lead webhooks were given. */
const leads: Lead[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => Date.parse("2026-11-30T15:00:00Z"), holdSeconds: 3600 });
  const spa = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
  notifier = createOutboxNotifier(":memory:");
  services = {
    env: parseEnv({ NODE_ENV: "test" }),
    spa,
    stores: createSqliteStores(":memory:"),
    catalog: createCachedCatalog(spa, { ttlMs: 600_000, staleMs: 0 }),
    notifier,
    rateLimiter: createMemoryRateLimiter(),
    analytics: createRecordingAnalytics(),
    leads: {
      kind: "http",
      send: (lead: Lead) => leads.push(lead),
      close: async () => {},
      stats: () => ({ sent: 0, failed: 0, dropped: 0, inFlight: 0 }),
    },
  } as unknown as Services;
  services.accounts = createAccountService(services);
  catalog = (await services.catalog.listServices(AUSTIN))!;
  facial = catalog.find((s) => s.name === "Signature Laser Facial - New Client")!;
});
afterAll(async () => {
  await sandbox.stop();
});

function guestCount(): number {
  return (sandbox.db.prepare("SELECT COUNT(*) AS n FROM guests").get() as { n: number }).n;
}

function person() {
  n += 1;
  return {
    firstName: "Ana",
    lastName: "Lopez",
    email: `ana.${n}.${Date.now()}@example.com`,
    phone: `51255501${String(n).padStart(2, "0")}`,
  };
}

/** A visitor not yet known who chose the nth open time of the day. */
async function chosen(
  nth: number,
  ip = `10.1.0.${nth}`,
  therapistId: string | null = null,
): Promise<{ draft: Draft; ip: string }> {
  const { times } = await openTimes(services, {
    centerId: AUSTIN,
    serviceId: facial.id,
    addOnIds: [],
    therapistId,
    date: DATE,
  });
  const draft: Draft = { centerId: AUSTIN, serviceId: facial.id, addOnIds: [], therapistId };
  const outcome = await chooseTime(services, {
    draft,
    centerId: AUSTIN,
    service: facial,
    slot: times[nth],
    date: DATE,
  });
  if (outcome.kind !== "chosen") throw new Error(outcome.kind);
  return { draft: outcome.draft, ip };
}

async function lastCode(to: string): Promise<string> {
  const message = (await notifier.recent(50)).find((m) => m.to === to && m.kind === "one-time-code");
  return /code is (\d{6})/.exec(message?.body ?? "")![1];
}

describe("the details step", () => {
  it("choosing a time makes no guest record and holds nothing", async () => {
    const before = guestCount();
    const { draft } = await chosen(0);
    expect(draft.slot).toMatch(/^2026-12-01T/);
    expect(draft.hold).toBeUndefined();
    expect(guestCount()).toBe(before);
  });

  it("a new visitor's guest is made from their real details, and the time is held for it", async () => {
    const { draft, ip } = await chosen(1);
    const details = person();
    const before = guestCount();
    const outcome = await submitBookingDetails(services, {
      draft,
      details,
      service: facial,
      timeZone: "America/Chicago",
      clientIp: ip,
    });
    expect(outcome.kind).toBe("saved");
    if (outcome.kind !== "saved") return;
    expect(outcome.draft.hold?.slot).toBe(draft.slot);
    expect(outcome.draft.slot).toBeUndefined();
    expect(guestCount()).toBe(before + 1);
    const guest = await services.spa.getGuest(outcome.draft.guestId!);
    expect(guest).toMatchObject({ firstName: "Ana", email: details.email, phone: details.phone });
    expect(await services.stores.guestDetails.get(details.email)).toMatchObject({
      guest_id: guest!.id,
      is_password_set: false,
    });
    // The new guest is one lead for the marketing webhooks, with the time they chose.
    expect(leads.filter((lead) => lead.email === details.email)).toEqual([
      expect.objectContaining({
        kind: "booking",
        firstName: "Ana",
        lastName: "Lopez",
        phone: details.phone,
        centerId: AUSTIN,
        guestId: guest!.id,
        booking: { start: draft.slot, services: [facial.name] },
      }),
    ]);
  });

  it("a fixer on its own is not held for a new visitor, and no guest record is made for it", async () => {
    const fixer = (await services.catalog.listServices(AUSTIN))!.find((s) => s.name === "Fixer")!;
    const { times } = await openTimes(services, {
      centerId: AUSTIN,
      serviceId: fixer.id,
      addOnIds: [],
      therapistId: null,
      date: DATE,
    });
    const picked = await chooseTime(services, {
      draft: { centerId: AUSTIN, serviceId: fixer.id, addOnIds: [], therapistId: null },
      centerId: AUSTIN,
      service: fixer,
      slot: times[0],
      date: DATE,
    });
    if (picked.kind !== "chosen") throw new Error(picked.kind);
    const before = guestCount();
    const outcome = await submitBookingDetails(services, {
      draft: picked.draft,
      details: person(),
      service: fixer,
      timeZone: "America/Chicago",
      clientIp: "10.1.9.9",
    });
    expect(outcome).toMatchObject({ kind: "not-held", outcome: { kind: "fixer-alone" } });
    expect(guestCount()).toBe(before);
  });

  it("an existing client proves the record with a code to the contact on file and books as that guest", async () => {
    const existing = person();
    const known = await services.spa.createGuest({
      centerId: AUSTIN,
      ...existing,
      consents: { marketingEmail: false, marketingSms: false, transactionalEmail: true, transactionalSms: true },
      tags: [],
    });
    const { draft, ip } = await chosen(2);
    const before = guestCount();
    // They typed their email and a different mobile number.
    const outcome = await submitBookingDetails(services, {
      draft,
      details: { ...existing, phone: "5125559999" },
      service: facial,
      timeZone: "America/Chicago",
      clientIp: ip,
    });
    expect(outcome.kind).toBe("verify");
    if (outcome.kind !== "verify") return;
    expect(outcome.draft.verification).toEqual({
      guestId: known.id,
      sentTo: [`a•••@example.com`, `•••-•••-${existing.phone.slice(-4)}`],
    });
    expect(outcome.draft.hold).toBeUndefined();

    const wrong = await completeVerification(services, {
      draft: outcome.draft,
      code: "000000" === (await lastCode(existing.email)) ? "111111" : "000000",
      service: facial,
      catalog,
      timeZone: "America/Chicago",
      clientIp: ip,
    });
    expect(wrong).toEqual({
      kind: "wrong-code",
      message: "That code is not valid. Please check it or request a new one.",
    });
    const smsCode = await lastCode(existing.phone);
    expect(smsCode).toBe(await lastCode(existing.email));
    const done = await completeVerification(services, {
      draft: outcome.draft,
      code: smsCode,
      service: facial,
      catalog,
      timeZone: "America/Chicago",
      clientIp: ip,
    });
    expect(done.kind).toBe("saved");
    if (done.kind !== "saved") return;
    expect(done.draft).toMatchObject({
      guestId: known.id,
      details: { email: existing.email, phone: existing.phone },
      hold: { slot: draft.slot },
    });
    expect(done.draft.verification).toBeUndefined();
    expect(guestCount()).toBe(before);
    // A client the clinics already had is no new lead.
    expect(leads.filter((lead) => lead.email === existing.email)).toEqual([]);
    // A password set later links the account to the same guest.
    expect(await services.stores.guestDetails.get(existing.email)).toMatchObject({
      guest_id: known.id,
      is_password_set: false,
    });
  });

  it("a returning client who chose the new-client facial before proving their record books the returning facial, and is remembered as returning", async () => {
    const existing = person();
    const known = await services.spa.createGuest({
      centerId: AUSTIN,
      ...existing,
      consents: { marketingEmail: false, marketingSms: false, transactionalEmail: true, transactionalSms: true },
      tags: [],
    });
    await completedVisit(sandbox, services.spa, {
      guestId: known.id,
      centerId: AUSTIN,
      serviceCode: "FT-NEW",
      date: "2026-12-02",
      pastStart: "2026-10-01T10:00:00",
    });
    const { draft, ip } = await chosen(6);
    const derma = catalog.find((s) => s.name.startsWith("Dermaplaning"))!;
    const outcome = await submitBookingDetails(services, {
      draft: { ...draft, addOnIds: [derma.id] },
      details: existing,
      service: facial,
      timeZone: "America/Chicago",
      clientIp: ip,
    });
    if (outcome.kind !== "verify") throw new Error(outcome.kind);
    const done = await completeVerification(services, {
      draft: outcome.draft,
      code: await lastCode(existing.email),
      service: facial,
      catalog,
      timeZone: "America/Chicago",
      clientIp: ip,
    });
    if (done.kind !== "saved") throw new Error(done.kind);
    const returning = catalog.find((s) => s.name === "Signature Laser Facial")!;
    expect(done.switched).toEqual({ from: facial.displayName, to: returning.displayName });
    // The returning facial is what is held, with its own version of the enhancement: of no extra length (decision 045).
    const returningDerma = catalog.find((s) => returning.addOnIds.includes(s.id) && s.name === derma.name)!;
    expect(returningDerma.id).not.toBe(derma.id);
    expect(returningDerma.durationMinutes).toBe(0);
    expect(done.draft).toMatchObject({
      guestId: known.id,
      serviceId: returning.id,
      addOnIds: [returningDerma.id],
      hold: { slot: draft.slot },
    });
    const booking = sandbox.db.prepare("SELECT items FROM bookings WHERE id = ?").get(done.draft.hold!.bookingId) as {
      items: string;
    };
    expect(booking.items.toLowerCase()).toContain(returning.id.toLowerCase());
    expect(booking.items.toLowerCase()).not.toContain(facial.id.toLowerCase());
    // The spec's is_return_user is written, so the next booking needs no look at the history.
    expect(await services.stores.guestDetails.get(existing.email)).toMatchObject({
      guest_id: known.id,
      is_return_user: true,
    });
  });

  it("a new client who proves their record keeps the new-client facial", async () => {
    const existing = person();
    await services.spa.createGuest({
      centerId: AUSTIN,
      ...existing,
      consents: { marketingEmail: false, marketingSms: false, transactionalEmail: true, transactionalSms: true },
      tags: [],
    });
    const { draft, ip } = await chosen(7);
    const outcome = await submitBookingDetails(services, {
      draft,
      details: existing,
      service: facial,
      timeZone: "America/Chicago",
      clientIp: ip,
    });
    if (outcome.kind !== "verify") throw new Error(outcome.kind);
    const done = await completeVerification(services, {
      draft: outcome.draft,
      code: await lastCode(existing.email),
      service: facial,
      catalog,
      timeZone: "America/Chicago",
      clientIp: ip,
    });
    if (done.kind !== "saved") throw new Error(done.kind);
    expect(done.switched).toBeUndefined();
    expect(done.draft.serviceId).toBe(facial.id);
    expect(await services.stores.guestDetails.get(existing.email)).toMatchObject({ is_return_user: false });
  });

  it("a mobile number on file is matched when the email is new", async () => {
    const existing = person();
    const known = await services.spa.createGuest({
      centerId: AUSTIN,
      ...existing,
      consents: { marketingEmail: false, marketingSms: false, transactionalEmail: true, transactionalSms: true },
      tags: [],
    });
    const { draft, ip } = await chosen(3);
    const outcome = await submitBookingDetails(services, {
      draft,
      details: { ...person(), phone: existing.phone },
      service: facial,
      timeZone: "America/Chicago",
      clientIp: ip,
    });
    expect(outcome).toMatchObject({ kind: "verify", draft: { verification: { guestId: known.id } } });
  });

  it("an email with an account here goes to the duplicate-email page", async () => {
    const { draft, ip } = await chosen(4);
    const details = person();
    const registered = await services.accounts.register({
      ...details,
      centerId: AUSTIN,
      address: "1 Oak St",
      city: "Austin",
      zip: "78701",
      password: "Glow!Skin2026",
      referralCode: null,
      marketingEmail: false,
      marketingSms: false,
    });
    expect(registered.ok).toBe(true);
    const outcome = await submitBookingDetails(services, {
      draft,
      details: { ...details, phone: "5125558888" },
      service: facial,
      timeZone: "America/Chicago",
      clientIp: ip,
    });
    expect(outcome).toEqual({ kind: "refused", errorPage: "/error?error=duplicate-email&redirect=samesite" });
  });

  it("a time taken before the details came is told, and the visitor is known for the next try", async () => {
    // Both asked for the same nurse (her day off is a Wednesday; this is a Tuesday).
    const nurse = seedGuid("therapist:ATX:1");
    const { draft, ip } = await chosen(5, "10.1.0.5", nurse);
    const rival = await chosen(5, "10.2.0.1", nurse);
    expect(rival.draft.slot).toBe(draft.slot);
    const first = await submitBookingDetails(services, {
      draft: rival.draft,
      details: person(),
      service: facial,
      timeZone: "America/Chicago",
      clientIp: rival.ip,
    });
    expect(first.kind).toBe("saved");
    const outcome = await submitBookingDetails(services, {
      draft,
      details: person(),
      service: facial,
      timeZone: "America/Chicago",
      clientIp: ip,
    });
    expect(outcome.kind).toBe("not-held");
    if (outcome.kind !== "not-held") return;
    expect(outcome.outcome.kind).toBe("taken");
    expect(outcome.outcome.draft.guestId).toBeTruthy();
    expect(outcome.outcome.draft.details).toBeTruthy();
  });
});

describe("existing clients and accounts", () => {
  it("registering with an email the back end knows sends a code instead of making a second record", async () => {
    const existing = person();
    await services.spa.createGuest({
      centerId: AUSTIN,
      ...existing,
      consents: { marketingEmail: false, marketingSms: false, transactionalEmail: true, transactionalSms: true },
      tags: [],
    });
    const before = guestCount();
    const registration = {
      ...existing,
      centerId: AUSTIN,
      address: "1 Oak St",
      city: "Austin",
      zip: "78701",
      password: "Glow!Skin2026",
      referralCode: null,
      marketingEmail: false,
      marketingSms: false,
    };
    const result = await services.accounts.register(registration);
    expect(result).toMatchObject({ ok: false, existingGuest: true });
    expect(guestCount()).toBe(before);
    // A client the clinics already had is no new lead.
    expect(leads.filter((lead) => lead.email === existing.email)).toEqual([]);
    const login = await services.accounts.login(existing.email, "Glow!Skin2026");
    expect(login).toMatchObject({
      ok: false,
      message: "Invalid credentials. Please try resetting your password",
      existingGuest: true,
    });
    expect(
      (await services.accounts.resetPassword(existing.email, await lastCode(existing.email), "Glow!Skin2026")).ok,
    ).toBe(true);
    const signedIn = await services.accounts.login(existing.email, "Glow!Skin2026");
    expect(signedIn.ok && signedIn.value.user.guestId).toBe(
      (await services.spa.findGuestsByEmail(existing.email))[0].id,
    );
  });

  it("forgot-password sends a code to an email only the back end knows", async () => {
    const existing = person();
    await services.spa.createGuest({
      centerId: AUSTIN,
      ...existing,
      consents: { marketingEmail: false, marketingSms: false, transactionalEmail: true, transactionalSms: true },
      tags: [],
    });
    expect(await services.accounts.sendResetCode(existing.email)).toBe("sent");
    expect(await services.accounts.sendResetCode("nobody.here@example.com")).toBe("unknown");
  });

  it("a friend booking with a code that was used up between the check and the write books at the usual price and is told so", async () => {
    const owner = await services.stores.referrals.codeFor(
      {
        accountId: "busy-account",
        guestId: "00000000-0000-4000-8000-00000000beef",
        firstName: "Busy",
        centerId: AUSTIN,
      },
      () => "BUSY-2345",
      Date.now(),
    );
    const { draft, ip } = await chosen(6);
    const details = person();
    // Other friends take the code's last places while this one is being checked.
    const racing = {
      ...services,
      stores: {
        ...services.stores,
        referrals: {
          ...services.stores.referrals,
          add: async (referral: Referral, cap: number) => {
            for (let i = 0; i < cap; i++)
              await services.stores.referrals.add(
                { ...referral, friendEmail: `faster.${i}.${referral.friendEmail}` },
                cap,
              );
            return services.stores.referrals.add(referral, cap);
          },
        },
      },
    } as Services;
    const outcome = await submitBookingDetails(racing, {
      draft,
      details,
      service: facial,
      timeZone: "America/Chicago",
      clientIp: ip,
      attribution: { ref: owner.code },
    });
    expect(outcome).toMatchObject({ kind: "saved", notice: referralNotBookedMessage("used-up") });
    expect(await services.stores.referrals.forFriend(details.email)).toBeNull();
    // The guest was made without naming the referrer.
    const guest = outcome.kind === "saved" ? await services.spa.getGuest(outcome.draft.guestId!) : null;
    expect(guest).toBeTruthy();
    expect(
      JSON.stringify(
        sandbox.db
          .prepare("SELECT * FROM guests WHERE id = ?")
          .get(outcome.kind === "saved" ? outcome.draft.guestId : ""),
      ),
    ).not.toContain(owner.guestId);
  });

  it("a referrer the back end no longer knows does not lock the friend out: the guest is made without it", async () => {
    const owner = await services.stores.referrals.codeFor(
      {
        accountId: "gone-account",
        guestId: "00000000-0000-4000-8000-00000000dead",
        firstName: "Gone",
        centerId: AUSTIN,
      },
      () => "GONE-2345",
      Date.now(),
    );
    const details = person();
    const result = await services.accounts.register({
      ...details,
      centerId: AUSTIN,
      address: "1 Oak St",
      city: "Austin",
      zip: "78701",
      password: "Glow!Skin2026",
      referralCode: owner.code,
      marketingEmail: false,
      marketingSms: false,
    });
    expect(result.ok).toBe(true);
    expect(await services.stores.referrals.forFriend(details.email)).toMatchObject({
      code: "GONE-2345",
      state: "registered",
    });
  });

  it("a referral code is checked, kept with the account, recorded for the referrer and named in the back end's record", async () => {
    // The referrer: an existing guest of the sandbox with a code of their own.
    const referrer = await services.accounts.register({
      ...person(),
      centerId: AUSTIN,
      address: "2 Elm St",
      city: "Austin",
      zip: "78701",
      password: "Glow!Skin2026",
      referralCode: null,
      marketingEmail: false,
      marketingSms: false,
    });
    if (!referrer.ok) throw new Error("referrer not registered");
    const owner = await services.stores.referrals.codeFor(
      { accountId: referrer.value.user.id, guestId: referrer.value.user.guestId, firstName: "Ana", centerId: AUSTIN },
      () => "ANA-2345",
      Date.now(),
    );
    const details = person();
    const unknown = await services.accounts.register({
      ...details,
      centerId: AUSTIN,
      address: "1 Oak St",
      city: "Austin",
      zip: "78701",
      password: "Glow!Skin2026",
      referralCode: "NOBODY-2345",
      marketingEmail: false,
      marketingSms: false,
    });
    expect(unknown).toMatchObject({ ok: false, field: "referralCode" });
    const result = await services.accounts.register({
      ...details,
      centerId: AUSTIN,
      address: "1 Oak St",
      city: "Austin",
      zip: "78701",
      password: "Glow!Skin2026",
      referralCode: owner.code,
      marketingEmail: false,
      marketingSms: false,
    });
    expect(result.ok).toBe(true);
    expect(await services.stores.accounts.getByEmail(details.email)).toMatchObject({ referralCode: "ANA-2345" });
    const guest = result.ok ? await services.spa.getGuest(result.value.user.guestId) : null;
    expect(guest).toBeTruthy();
    expect(await services.stores.referrals.forFriend(details.email)).toMatchObject({
      code: "ANA-2345",
      referrerAccountId: referrer.value.user.id,
      state: "registered",
    });
    // A new registration is a lead for the marketing webhooks, with the guest record made for it.
    const guestId = result.ok ? result.value.user.guestId : "";
    expect(leads.filter((lead) => lead.email === details.email)).toEqual([
      expect.objectContaining({
        kind: "registration",
        firstName: "Ana",
        lastName: "Lopez",
        phone: details.phone,
        centerId: AUSTIN,
        guestId,
      }),
    ]);
  });
});
