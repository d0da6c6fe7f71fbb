import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Center } from "~/domain/catalog";
import { instantOf } from "~/lib/dates";
import { createTestGuest, startSandbox, TEST_API_KEY, type TestSandbox } from "../../tests/helpers/sandbox-server";
import { createMemoryRateLimiter } from "../accounts/rate-limit.server";
import { createNoAnalytics } from "../analytics/analytics.server";
import { parseEnv } from "../env.server";
import { createOutboxNotifier } from "../notify/notifier.server";
import type { Services } from "../services";
import { seedGuid } from "../spa-sandbox/db";
import { createCachedCatalog } from "../spa/catalog-cache.server";
import { createSpaClient, type SpaClient } from "../spa/client.server";
import { createSqliteStores } from "../store/sqlite-store.server";
import type { Stores } from "../store/stores.server";
import { noteTimeMayOpen } from "../store/waitlist-signal.server";
import { createWaitlistLinks } from "./links.server";
import { runWaitlistPass } from "./pass.server";
import { endEntriesOnBooking, followOffer, joinWaitlist, leaveByLink, type JoinRequest } from "./waitlist.server";

/**
 * The waitlist from joining to the time taken (decision 058), against the sandbox: a nurse's full
 * day, two guests waiting, a visit cancelled, both told in the order they joined, the first to
 * book wins and the second's link says the time has gone; one instance at a time, state in the store.
 */

const NOW = Date.parse("2026-11-30T15:00:00Z");
const AUSTIN = seedGuid("center:ATX");
const FACIAL = seedGuid("service:FT-NEW");
const NURSE = seedGuid("therapist:ATX:3");
const MONDAY = "2026-12-07";
const SECRETS = ["a-secret-long-enough-for-the-waitlist-tests"];

let sandbox: TestSandbox;
let spa: SpaClient;
let stores: Stores;
let services: Services;
let center: Center;
let outbox: ReturnType<typeof createOutboxNotifier>;
let clock = NOW;
const now = () => clock;

beforeAll(async () => {
  sandbox = await startSandbox({ now, holdSeconds: 600 });
  spa = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY }, clock: now });
  stores = createSqliteStores(":memory:");
  outbox = createOutboxNotifier(":memory:");
  services = {
    env: parseEnv({ NODE_ENV: "test" }),
    spa,
    stores,
    catalog: createCachedCatalog(spa, { ttlMs: 600_000, staleMs: 0 }),
    notifier: outbox,
    waitlistLinks: createWaitlistLinks(SECRETS, now),
    rateLimiter: createMemoryRateLimiter(now),
    analytics: createNoAnalytics(),
  } as unknown as Services;
  center = (await services.catalog.getCenter(AUSTIN))!;
});
afterAll(async () => {
  await sandbox.stop();
  await stores.close();
  outbox.close();
});

/** Books the nurse's every open time that day for one guest: her day is full. The visits' invoices. */
async function fillNursesDay(): Promise<string[]> {
  const guestId = await createTestGuest(spa, AUSTIN, "Filler", "Guest");
  const invoices: string[] = [];
  for (let i = 0; i < 40; i++) {
    const request = { centerId: AUSTIN, date: MONDAY, guestId, serviceId: FACIAL, therapistId: NURSE, addOnIds: [] };
    const bookingId = await spa.createBooking(request);
    const { times } = await spa.listSlots(bookingId, MONDAY);
    if (times.length === 0) return invoices;
    expect(await spa.reserveSlot(bookingId, times[0], center.timeZone)).not.toBeNull();
    invoices.push((await spa.confirmBooking(bookingId, center.timeZone))!.invoiceId);
  }
  throw new Error("the nurse's day never filled");
}

const join = (contact: string, extra: Partial<JoinRequest> = {}) =>
  joinWaitlist(
    services,
    {
      center,
      clinic: AUSTIN,
      serviceId: FACIAL,
      addOnIds: [],
      nurses: [{ id: NURSE }],
      offeredDays: [MONDAY, "2026-12-08"],
      days: [MONDAY],
      parts: ["morning", "afternoon", "evening"],
      therapist: NURSE,
      contact,
      accountId: null,
      origin: "https://glow.example",
      clientIp: "203.0.113.7",
      ...extra,
    },
    clock,
  );

const offers = async () =>
  (await outbox.recent(50))
    .filter((m) => m.kind === "waitlist-offer")
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
const tokenIn = (body: string, kind: "offer" | "leave") => new RegExp(`/waitlist/${kind}/([\\w.-]+)`).exec(body)![1];

describe("the waitlist of a full day", () => {
  let visits: string[];
  let anaToken: string;
  let boToken: string;

  it("refuses a day, a nurse or a clinic the clinic does not offer, and a contact past its few entries", async () => {
    expect(await join("x@example.com", { days: ["2026-12-13"] })).toEqual({ kind: "unknown-day" });
    expect(await join("x@example.com", { therapist: seedGuid("therapist:DAL:1") })).toEqual({ kind: "unknown-nurse" });
    expect(await join("x@example.com", { clinic: seedGuid("center:NOPE") })).toEqual({ kind: "unknown-clinic" });
    for (let i = 0; i < 3; i++) expect((await join("cap@example.com")).kind).toBe("joined");
    expect(await join("CAP@example.com")).toEqual({ kind: "full", places: 3 });
    for (const entry of await stores.waitlist.listForContact("cap@example.com")) await stores.waitlist.remove(entry.id);
  });

  it("tells nobody while the day stays full", async () => {
    visits = await fillNursesDay();
    expect(visits.length).toBeGreaterThan(2);
    const ana = await join("Ana@Example.com");
    clock += 1_000;
    const bo = await join("(512) 555-0199");
    expect([ana.kind, bo.kind]).toEqual(["joined", "joined"]);
    clock += 1_000;
    expect(await runWaitlistPass(services, { clock: now, holder: "instance-a" })).toEqual({ ran: true, told: 0 });
    expect(await offers()).toEqual([]);
  });

  it("tells the waiting guests, in the order they joined, when a visit that day is cancelled", async () => {
    const [reason] = await spa.listCancelReasons();
    await spa.cancelInvoice(visits[1], reason.id, "cannot come");
    await noteTimeMayOpen(stores, { centerId: AUSTIN, date: MONDAY, at: clock });
    clock += 1_000;
    // Another instance finds the pass taken; the one holding it runs it.
    expect(await runWaitlistPass(services, { clock: now, holder: "instance-b" })).toEqual({ ran: false, told: 0 });
    expect(await runWaitlistPass(services, { clock: now, holder: "instance-a" })).toEqual({ ran: true, told: 2 });
    const [first, second] = await offers();
    expect(first).toMatchObject({ channel: "email", to: "ana@example.com" });
    expect(second).toMatchObject({ channel: "sms", to: "5125550199" });
    expect(first.body).toMatch(
      /^A time you were waiting for just opened: \d{1,2}:\d{2} (AM|PM) on Monday, December 7,/,
    );
    expect(first.body).toContain("https://glow.example/waitlist/leave/");
    anaToken = tokenIn(first.body, "offer");
    boToken = tokenIn(second.body, "offer");
    // Told once: the next run has nothing new to say.
    clock += 1_000;
    await noteTimeMayOpen(stores, { centerId: AUSTIN, date: MONDAY, at: clock });
    expect((await runWaitlistPass(services, { clock: now, holder: "instance-a" })).told).toBe(0);
    expect(await offers()).toHaveLength(2);
  });

  it("gives the time to the first to book it; the other's link then says it has gone", async () => {
    const opened = await followOffer(services, anaToken);
    expect(opened.kind).toBe("open");
    if (opened.kind !== "open") return;
    expect(await followOffer(services, boToken)).toMatchObject({ kind: "open", slot: opened.slot });
    // Ana books it.
    const guestId = await createTestGuest(spa, AUSTIN, "Ana", "Waiting");
    const request = { centerId: AUSTIN, date: MONDAY, guestId, serviceId: FACIAL, therapistId: NURSE, addOnIds: [] };
    const bookingId = await spa.createBooking(request);
    expect(await spa.reserveSlot(bookingId, opened.slot, center.timeZone)).not.toBeNull();
    expect(await spa.confirmBooking(bookingId, center.timeZone)).not.toBeNull();
    expect(
      await endEntriesOnBooking(services, { centerId: AUSTIN, date: MONDAY, contacts: ["ana@example.com", null] }),
    ).toBe(1);
    expect(await followOffer(services, anaToken)).toEqual({ kind: "ended" });
    expect(await followOffer(services, boToken)).toMatchObject({ kind: "gone", slot: opened.slot });
  });

  it("changes nothing for a forged or altered link", async () => {
    expect(await followOffer(services, "not-a-token")).toEqual({ kind: "invalid" });
    expect(await followOffer(services, `${boToken.slice(0, -2)}xx`)).toEqual({ kind: "invalid" });
    const otherKey = createWaitlistLinks(["another-secret-that-is-long-enough-too"], now);
    const [entry] = await stores.waitlist.listForContact("5125550199");
    expect(await followOffer(services, otherKey.offer(entry.id, `${MONDAY}T09:00:00`, clock))).toEqual({
      kind: "invalid",
    });
    expect(await leaveByLink(services, otherKey.leave(entry.id, entry.expiresAt))).toEqual({ kind: "invalid" });
    expect(await stores.waitlist.get(entry.id)).not.toBeNull();
  });

  it("lets a guest leave in one click, once", async () => {
    const [last] = await offers().then((list) => list.slice(-1));
    const leave = tokenIn(last.body, "leave");
    expect(await leaveByLink(services, leave)).toEqual({ kind: "left" });
    expect(await leaveByLink(services, leave)).toEqual({ kind: "already-gone" });
    expect(await stores.waitlist.listForContact("5125550199")).toEqual([]);
  });

  it("deletes an entry once its last day is over, and answers its links as ended", async () => {
    const joined = await join("late@example.com");
    expect(joined.kind).toBe("joined");
    if (joined.kind !== "joined") return;
    const offer = services.waitlistLinks.offer(
      joined.entry.id,
      `${MONDAY}T09:00:00`,
      instantOf(`${MONDAY}T09:00:00`, center.timeZone),
    );
    clock = joined.entry.expiresAt;
    await runWaitlistPass(services, { clock: now, holder: "instance-a" });
    expect(await stores.waitlist.get(joined.entry.id)).toBeNull();
    expect(await followOffer(services, offer)).toEqual({ kind: "ended" });
  });
});
