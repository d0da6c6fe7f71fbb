import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestGuest, startSandbox, TEST_API_KEY } from "../../tests/helpers/sandbox-server";
import { createMemoryRateLimiter } from "../accounts/rate-limit.server";
import type { Services } from "../services";
import type { Message, Notifier } from "../notify/notifier.server";
import { seedGuid } from "../spa-sandbox/db";
import { createCachedCatalog } from "../spa/catalog-cache.server";
import { createSpaClient, type SpaClient } from "../spa/client.server";
import { createSqliteStores } from "../store/sqlite-store.server";
import { accountVisitPaths, type VisitAccess } from "./access.server";
import { createManageLinks } from "./manage-link.server";
import {
  confirmNewTime,
  holdNewTime,
  rescheduleTimes,
  type ConfirmMoveOutcome,
  type RescheduleHold,
} from "./reschedule.server";
import { findVisit, loadGuestVisits, type Visit } from "./visits.server";

/**
 * Several windows (tabs, or a phone and a laptop through the manage link) each hold a new time for
 * the same visit and confirm at once. The visit ends at one time; every window must be told it.
 */

const AUSTIN = seedGuid("center:ATX");
const FACIAL = seedGuid("service:FT-RET");
const ZONE = "America/Chicago";
const NOW = Date.parse("2026-11-30T15:00:00Z");
const ORIGIN = "https://glow.example";

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let spa: SpaClient;
let services: Services;
let sent: Message[];

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => NOW, holdSeconds: 600 });
  spa = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY }, clock: () => NOW });
  const notifier: Notifier = {
    kind: "outbox",
    async send(message) {
      sent.push(message);
      return { id: String(sent.length) };
    },
    async recent() {
      return [];
    },
  };
  services = {
    spa,
    catalog: createCachedCatalog(spa, { ttlMs: 60_000, staleMs: 0 }),
    stores: createSqliteStores(":memory:"),
    notifier,
    manageLinks: createManageLinks(["a-secret-of-at-least-thirty-two-characters!"], () => NOW),
  } as unknown as Services;
});
beforeEach(() => {
  sent = [];
  services.rateLimiter = createMemoryRateLimiter(() => NOW);
});
afterAll(async () => {
  await sandbox.stop();
});

/** A guest with one visit on the date, at its first open time. */
async function guestWithVisit(name: string, date: string): Promise<string> {
  const guestId = await createTestGuest(spa, AUSTIN, name, "Windows");
  const bookingId = await spa.createBooking({
    centerId: AUSTIN,
    date,
    guestId,
    serviceId: FACIAL,
    therapistId: null,
    addOnIds: [],
  });
  const { times } = await spa.listSlots(bookingId, date);
  expect(await spa.reserveSlot(bookingId, times[0], ZONE)).not.toBeNull();
  expect(await spa.confirmBooking(bookingId, ZONE)).not.toBeNull();
  return guestId;
}

/** The visit as a window's page reads it when it opens (as `requireVisitAccess` does for the account). */
async function openVisit(guestId: string): Promise<VisitAccess> {
  const [visit] = await loadGuestVisits(services, guestId, NOW);
  return { via: "account", guestId, visit, paths: accountVisitPaths(visit.id), token: null, user: null };
}

async function visitNow(guestId: string, id: string): Promise<Visit> {
  return findVisit(await loadGuestVisits(services, guestId, NOW), id)!;
}

/** A window that chose a time: its hold on a reschedule booking of its own. */
async function holdIn(access: VisitAccess, slot: string): Promise<RescheduleHold> {
  const outcome = await holdNewTime(services, access, slot);
  if (outcome.kind !== "held") throw new Error(`not held: ${outcome.kind}`);
  return outcome.hold;
}

/** The time each window is told its visit has. */
function toldTime(outcome: ConfirmMoveOutcome): string | null {
  if (outcome.kind === "moved") return outcome.start;
  if (outcome.kind === "changed-elsewhere") return outcome.visit.start;
  return null;
}

describe("confirming a new time from several windows at once", () => {
  it("moves the visit once and tells every window the time it really has", async () => {
    const guestId = await guestWithVisit("Ines", "2026-12-07");
    const windows = await Promise.all([0, 1, 2].map(() => openVisit(guestId)));
    const before = windows[0].visit.start;
    const open = await rescheduleTimes(services, windows[0], "2026-12-09");
    if (open === "not-movable") throw new Error("not movable");
    const slots = open.times.slice(0, 3);
    expect(new Set(slots).size).toBe(3);
    const holds = await Promise.all(windows.map((w, i) => holdIn(w, slots[i])));

    const outcomes = await Promise.all(windows.map((w, i) => confirmNewTime(services, w, holds[i], ORIGIN, NOW)));

    const visit = await visitNow(guestId, windows[0].visit.id);
    expect(visit.start).not.toBe(before);
    expect(slots).toContain(visit.start);
    expect(outcomes.map((o) => o.kind).sort()).toEqual(["changed-elsewhere", "changed-elsewhere", "moved"]);
    // Every window is told the visit's one real time: the winner its new time, the others the same, re-read.
    expect(outcomes.map(toldTime)).toEqual([visit.start, visit.start, visit.start]);
    const winner = outcomes.findIndex((o) => o.kind === "moved");
    expect(holds[winner].slot).toBe(visit.start);
    // One move, one message of it (an email and a text), one calendar revision.
    expect(
      sent
        .filter((m) => m.kind === "booking-rescheduled")
        .map((m) => m.channel)
        .sort(),
    ).toEqual(["email", "sms"]);
    expect(await services.stores.visitRevisions.get(visit.invoiceId!.toLowerCase())).toBe(1);
  });

  it("does not move a visit already moved by another window, even when this one confirms later", async () => {
    const guestId = await guestWithVisit("Jo", "2026-12-08");
    const [first, second] = await Promise.all([openVisit(guestId), openVisit(guestId)]);
    const open = await rescheduleTimes(services, first, "2026-12-10");
    if (open === "not-movable") throw new Error("not movable");
    const [firstHold, secondHold] = [await holdIn(first, open.times[0]), await holdIn(second, open.times[1])];
    expect(await confirmNewTime(services, first, firstHold, ORIGIN, NOW)).toMatchObject({
      kind: "moved",
      start: open.times[0],
    });
    // The second window's request reads the visit afresh (at the first window's time) but its hold was made from the old one.
    const later = await openVisit(guestId);
    const outcome = await confirmNewTime(services, later, secondHold, ORIGIN, NOW);
    expect(outcome).toMatchObject({ kind: "changed-elsewhere", visit: { start: open.times[0] } });
    expect((await visitNow(guestId, first.visit.id)).start).toBe(open.times[0]);
  });

  it("tells a window that confirms the same hold twice at once that the visit moved, and says it once", async () => {
    const guestId = await guestWithVisit("Kit", "2026-12-09");
    const [one, two] = await Promise.all([openVisit(guestId), openVisit(guestId)]);
    const open = await rescheduleTimes(services, one, "2026-12-11");
    if (open === "not-movable") throw new Error("not movable");
    const hold = await holdIn(one, open.times[0]);
    const outcomes = await Promise.all([
      confirmNewTime(services, one, hold, ORIGIN, NOW),
      confirmNewTime(services, two, hold, ORIGIN, NOW),
    ]);
    expect(outcomes.map((o) => o.kind)).toEqual(["moved", "moved"]);
    expect(outcomes.map((o) => (o.kind === "moved" ? o.duplicate : null)).sort()).toEqual([false, true]);
    expect((await visitNow(guestId, one.visit.id)).start).toBe(open.times[0]);
    expect(sent.filter((m) => m.kind === "booking-rescheduled" && m.channel === "email")).toHaveLength(1);
  });

  it("tells a window the visit was cancelled elsewhere, and leaves it cancelled", async () => {
    const guestId = await guestWithVisit("Lou", "2026-12-10");
    const access = await openVisit(guestId);
    const open = await rescheduleTimes(services, access, "2026-12-12");
    if (open === "not-movable") throw new Error("not movable");
    const hold = await holdIn(access, open.times[0]);
    const [reason] = await spa.listCancelReasons();
    await spa.cancelInvoice(access.visit.invoiceId!, reason.id, "Cancelled in another window");
    const outcome = await confirmNewTime(services, access, hold, ORIGIN, NOW);
    expect(outcome).toMatchObject({ kind: "changed-elsewhere", visit: { status: -1, start: access.visit.start } });
    expect((await visitNow(guestId, access.visit.id)).status).toBe(-1);
  });
});
