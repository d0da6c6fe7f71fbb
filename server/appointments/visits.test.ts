import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestGuest, startSandbox, TEST_API_KEY } from "../../tests/helpers/sandbox-server";
import type { Services } from "../services";
import { seedGuid } from "../spa-sandbox/db";
import { createCachedCatalog } from "../spa/catalog-cache.server";
import { createSpaClient, type SpaClient } from "../spa/client.server";
import { findVisit, isChangeable, loadGuestVisits, toVisitView, visitsOfTab, type Visit } from "./visits.server";

const AUSTIN = seedGuid("center:ATX");
const FACIAL = seedGuid("service:FT-RET");
const NOW = Date.parse("2026-11-30T15:00:00Z");

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let spa: SpaClient;
let services: Services;

const newGuestId = (name: string) => createTestGuest(spa, AUSTIN, name, "Visits");

async function book(
  guestId: string,
  date: string,
  addOnCodes: string[] = [],
  therapistId: string | null = null,
): Promise<string> {
  const bookingId = await spa.createBooking({
    centerId: AUSTIN,
    date,
    guestId,
    serviceId: FACIAL,
    therapistId,
    addOnIds: addOnCodes.map((c) => seedGuid(`service:${c}`)),
  });
  const { times } = await spa.listSlots(bookingId, date);
  expect(await spa.reserveSlot(bookingId, times[0], "America/Chicago")).not.toBeNull();
  const confirmed = await spa.confirmBooking(bookingId, "America/Chicago");
  return confirmed!.items[0].appointmentId;
}

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => NOW, holdSeconds: 600 });
  spa = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
  services = { spa, catalog: createCachedCatalog(spa, { ttlMs: 60_000, staleMs: 0 }) } as unknown as Services;
});
afterAll(async () => {
  await sandbox.stop();
});

describe("a guest's visits", () => {
  it("come with their clinic, nurse, services in order, and an end over the total duration", async () => {
    const guestId = await newGuestId("Ana");
    const [nurse] = (await spa.listTherapists(AUSTIN)) ?? [];
    const appointmentId = await book(guestId, "2026-12-07", ["ADD-LED"], nurse.id);
    const visits = await loadGuestVisits(services, guestId, NOW);
    expect(visits).toHaveLength(1);
    const [visit] = visits;
    expect(visit.center?.id).toBe(AUSTIN);
    expect(visit.appointmentId).toBe(appointmentId);
    expect(visit.services.map((s) => s.isAddOn)).toEqual([false, true]);
    // The nurse the guest asked for; a visit booked with any nurse names none.
    expect(visit.nurse).toBe(nurse.displayName);
    await book(guestId, "2026-12-08");
    expect((await loadGuestVisits(services, guestId, NOW)).find((v) => v.id !== visit.id)?.nurse).toBeNull();
    expect(visit.status).toBe(0);
    expect(visit.statusLabel).toBe("Booked");
    expect(visit.upcoming).toBe(true);
    const minutes = visit.services.reduce((sum, s) => sum + s.durationMinutes, 0);
    expect(Date.parse(`${visit.end}Z`) - Date.parse(`${visit.start}Z`)).toBe(minutes * 60_000);
    expect(toVisitView(visit)).toMatchObject({
      when: expect.stringMatching(/^December 7, 2026 \d{1,2}:\d{2} (AM|PM)$/),
      month: "December 2026",
      statusLabel: "Booked",
    });
  });

  it("are found by their group, invoice or appointment id, and never among another guest's", async () => {
    const mine = await newGuestId("Bea");
    const theirs = await newGuestId("Cy");
    const appointmentId = await book(mine, "2026-12-08");
    await book(theirs, "2026-12-08");
    const visits = await loadGuestVisits(services, mine, NOW);
    const visit = visits[0];
    expect(findVisit(visits, appointmentId.toUpperCase())).toBe(visit);
    expect(findVisit(visits, visit.id)).toBe(visit);
    expect(findVisit(visits, visit.invoiceId!)).toBe(visit);
    const other = (await loadGuestVisits(services, theirs, NOW))[0];
    expect(findVisit(visits, other.id)).toBeNull();
    expect(findVisit(visits, other.appointmentId)).toBeNull();
  });
});

describe("the tabs and what may change", () => {
  const visit = (over: Partial<Visit>): Visit =>
    ({
      id: over.start ?? "v",
      invoiceId: "i",
      appointmentId: "a",
      center: { timeZone: "America/Chicago" },
      services: [],
      start: "2026-12-07T10:00:00",
      end: "2026-12-07T10:30:00",
      status: 0,
      statusLabel: "Booked",
      upcoming: true,
      nurse: null,
      discount: null,
      ...over,
    }) as Visit;

  it("lists upcoming visits soonest first, and the rest latest first", () => {
    const visits = [
      visit({ start: "2026-12-09T10:00:00" }),
      visit({ start: "2026-12-07T10:00:00" }),
      visit({ start: "2026-10-01T10:00:00", upcoming: false, status: 1 }),
      visit({ start: "2026-12-10T10:00:00", upcoming: false, status: -1 }),
    ];
    expect(visitsOfTab(visits, "upcoming").map((v) => v.start)).toEqual(["2026-12-07T10:00:00", "2026-12-09T10:00:00"]);
    expect(visitsOfTab(visits, "past").map((v) => v.start)).toEqual(["2026-12-10T10:00:00", "2026-10-01T10:00:00"]);
  });

  it("lets a booked visit change until it starts, on the clinic's clock", () => {
    const startsAt = Date.parse("2026-12-07T16:00:00Z");
    expect(isChangeable(visit({}), startsAt - 1)).toBe(true);
    expect(isChangeable(visit({}), startsAt)).toBe(false);
    expect(isChangeable(visit({ status: -1 }), 0)).toBe(false);
    expect(isChangeable(visit({ status: 1 }), 0)).toBe(false);
    expect(isChangeable(visit({ invoiceId: null }), 0)).toBe(false);
    expect(isChangeable(visit({ center: null }), 0)).toBe(false);
  });
});
