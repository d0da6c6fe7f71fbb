import type { Dayjs } from "dayjs";
import { BASE_TAGS } from "~/domain/guest";
import { dayjs } from "~/lib/dayjs";
import { guestCreatePayload } from "../spa/booking.server";
import { toIanaTimeZone } from "../spa/time-zones.server";
import { confirmBooking, createBooking, reserveSlot } from "./booking";
import { findRow, seedGuid, type SandboxDb } from "./db";
import { isRefusal, type Refusal } from "./errors";
import { createGuest } from "./guests";
import { addPoints, giveMembership } from "./memberships";
import { applyCampaign } from "./payments";
import { SEED_DEMO_GUEST, SEED_DEMO_MEMBERSHIP, seedDemoPoints, seedDemoVisits, type SeedDemoVisit } from "./seed-data";
import { cancelVisit, closeVisit, markNoShow, moveVisit } from "./visits";

/** The demo guest's id, the same on every machine: the account seeded in the app's stores names it. */
export const DEMO_GUEST_ID = seedGuid("guest:demo");

/** Her Glow Monthly membership's user_membership_id, the same on every machine. */
export const DEMO_MEMBERSHIP_ID = seedGuid("guest-membership:demo");

const DAY_FORMAT = "YYYY-MM-DD";
const SUNDAY = 0;

/**
 * Seeds the demo guest and her visits into a new sandbox, relative to the day it is seeded, through
 * the sandbox's own calls: a guest created as the webstore creates one, each visit booked, reserved
 * and confirmed, then cancelled, moved back, closed or marked a no-show as the clinic would. All or
 * nothing; a refusal is a fault of the seed and is thrown.
 */
export function seedDemoGuest(db: SandboxDb, now: number): void {
  const guest = SEED_DEMO_GUEST;
  const centerId = seedGuid(`center:${guest.centerCode}`);
  const center = findRow<{ time_zone_name: string }>(db, "centers", centerId)!;
  const today = dayjs.utc(dayjs(now).tz(toIanaTimeZone(center.time_zone_name)).format(DAY_FORMAT), DAY_FORMAT);
  // The payload the webstore sends when a guest registers (server/spa/booking.server.ts).
  const profile = guestCreatePayload({
    centerId,
    firstName: guest.firstName,
    lastName: guest.lastName,
    email: guest.email,
    phone: guest.phone,
    birthDate: guest.dateOfBirth,
    address: guest.address,
    consents: { ...guest.consents, transactionalEmail: true, transactionalSms: true },
    tags: [...BASE_TAGS, "Webstore"],
  });
  db.transaction(() => {
    accepted(
      createGuest(db, { mandatoryFields: ["email", "mobile_phone"] }, profile, { now, id: DEMO_GUEST_ID }),
      "the guest",
    );
    seedDemoVisits.forEach((visit, index) => {
      seedVisit(db, centerId, today, visit, now);
      // She joined at that visit: the visits booked after it have member prices, as the back end gives them.
      if (index === SEED_DEMO_MEMBERSHIP.visit) seedMembership(db, centerId, today, now);
    });
    seedPoints(db, today, now);
  })();
}

/** The day a past visit of the seed was on (a Sunday becomes the Saturday before). */
function visitDay(today: Dayjs, index: number): string {
  const visit = seedDemoVisits[index];
  return openDay(today.add(visit.days, "day"), visit.days < 0 ? -1 : 1).format(DAY_FORMAT);
}

/** Her membership, since the visit she joined at. */
function seedMembership(db: SandboxDb, centerId: string, today: Dayjs, now: number) {
  const m = SEED_DEMO_MEMBERSHIP;
  accepted(
    giveMembership(
      db,
      DEMO_GUEST_ID,
      {
        membership_id: seedGuid(`membership:${m.plan}`),
        center_id: centerId,
        status: m.status,
        recurrence_status: m.recurrenceStatus,
        member_since: visitDay(today, m.visit),
        credit_balance: { service: m.serviceCredit },
      },
      now,
      DEMO_MEMBERSHIP_ID,
    ),
    "her membership",
  );
}

/** The points she earned at her completed visits. */
function seedPoints(db: SandboxDb, today: Dayjs, now: number) {
  for (const row of seedDemoPoints) {
    const visit = seedDemoVisits[row.visit];
    if (visit.outcome.kind !== "closed" || visit.days >= 0)
      throw new Error(
        `The demo guest's history cannot be seeded: points on visit ${row.visit}, which is not a completed one`,
      );
    accepted(
      addPoints(db, DEMO_GUEST_ID, { points: row.points, reason: row.reason, date: visitDay(today, row.visit) }, now),
      "her points",
    );
  }
}

function seedVisit(db: SandboxDb, centerId: string, today: Dayjs, visit: SeedDemoVisit, now: number) {
  const day = openDay(today.add(visit.days, "day"), visit.days < 0 ? -1 : 1);
  // The sandbox books only times to come, as Zenoti does: a past visit is booked on the same
  // weekday ahead (the same nurse works then), then moved back to its day.
  let bookedDay = day;
  while (!bookedDay.isAfter(today, "day")) bookedDay = bookedDay.add(1, "week");
  const date = bookedDay.format(DAY_FORMAT);
  const what = `the ${visit.service} visit of ${day.format(DAY_FORMAT)}`;
  const booking = accepted(
    createBooking(
      db,
      {
        center_id: centerId,
        date,
        guests: [
          {
            id: DEMO_GUEST_ID,
            items: [
              {
                item: { id: seedGuid(`service:${visit.service}`) },
                therapist: { id: regularNurse(db, centerId, day.day()) },
                add_ons: visit.addOns.map((code) => ({ item: { id: seedGuid(`service:${code}`) } })),
              },
            ],
          },
        ],
      },
      now,
    ),
    what,
  );
  accepted(reserveSlot(db, booking.id, `${date}T${visit.time}:00`, { now: () => now, holdSeconds: 60 }), what);
  const { invoiceId } = accepted(confirmBooking(db, booking.id, now), what);
  if (visit.offerCode) accepted(applyCampaign(db, invoiceId, visit.offerCode), what);
  // Cancelled while it was still ahead, days before it, as guests cancel.
  if (visit.outcome.kind === "cancelled")
    accepted(cancelVisit(db, invoiceId, seedGuid(`reason:${visit.outcome.reason}`), visit.outcome.comments, now), what);
  if (!bookedDay.isSame(day, "day")) done(moveVisit(db, invoiceId, `${day.format(DAY_FORMAT)}T${visit.time}:00`), what);
  if (visit.outcome.kind === "closed") done(closeVisit(db, invoiceId), what);
  if (visit.outcome.kind === "no-show") done(markNoShow(db, invoiceId, visit.outcome.comments), what);
}

/** The day itself, or the nearest open one in that direction: the clinics close on Sundays. */
function openDay(day: Dayjs, direction: 1 | -1): Dayjs {
  return day.day() === SUNDAY ? day.add(direction, "day") : day;
}

/**
 * The guest's regular nurse: the clinic's last nurse who works that weekday. A booking for any nurse
 * gets the first free one, so the demo's visits leave those times open to others.
 */
function regularNurse(db: SandboxDb, centerId: string, weekday: number): string {
  const nurse = db
    .prepare(
      "SELECT id FROM therapists WHERE center_id = ? AND (day_off IS NULL OR day_off != ?) ORDER BY code DESC LIMIT 1",
    )
    .get(centerId, weekday) as { id: string } | undefined;
  if (!nurse) throw new Error(`The demo guest's history cannot be seeded: no nurse works on weekday ${weekday}`);
  return nurse.id;
}

function accepted<T>(result: T | Refusal, what: string): T {
  if (isRefusal(result))
    throw new Error(
      `The demo guest's history cannot be seeded: ${what} was refused (${result.code} ${result.message})`,
    );
  return result;
}

function done(ok: boolean, what: string) {
  if (!ok) throw new Error(`The demo guest's history cannot be seeded: ${what} could not be changed`);
}
