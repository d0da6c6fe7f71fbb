import { randomBytes } from "node:crypto";
import { sameId, type Center } from "~/domain/catalog";
import { addDays } from "~/domain/booking";
import { chosenDays, contactOf, partsLabel, type DayPart } from "~/domain/waitlist";
import { formatClock, formatDay, instantOf } from "~/lib/dates";

import { forgetOpenTimes, openTimes } from "../booking/holds.server";
import { consume, WAITLIST_ENTRIES_PER_CONTACT } from "../limits/policy.server";
import { logger } from "../observability/logger.server";
import type { Services } from "../services";
import type { WaitlistEntry } from "../store/stores.server";

/**
 * The waitlist of full days (issue 33, decision 058): joining, leaving, the account's list, and
 * following an offered time's link. The pass that tells the guests is in `pass.server.ts`.
 */

export type JoinRequest = {
  /** The clinic of the booking in progress, and the clinic the form named. */
  center: Center;
  clinic: string;
  serviceId: string;
  addOnIds: string[];
  /** The clinic's nurses: a nurse asked for must be one of them. */
  nurses: readonly { id: string }[];
  /** The days the form offered. */
  offeredDays: readonly string[];
  days: string[];
  parts: DayPart[];
  /** A nurse's id, or empty for any nurse. */
  therapist: string | undefined;
  contact: string;
  accountId: string | null;
  origin: string;
  clientIp: string;
};

export type JoinOutcome =
  | { kind: "joined"; entry: WaitlistEntry }
  | { kind: "unknown-clinic" }
  | { kind: "unknown-day" }
  | { kind: "unknown-nurse" }
  | { kind: "bad-contact" }
  | { kind: "full"; places: number }
  | { kind: "too-many"; message: string; retryAfterSeconds: number };

/** When a clinic day ends, as an instant: the entry's last day is over then. */
export function dayEndsAt(date: string, timeZone: string): number {
  return instantOf(`${addDays(date, 1)}T00:00:00`, timeZone);
}

/**
 * Puts the guest on the waitlist: the clinic, days and nurse checked against what the clinic
 * offers, the address's joins counted, and at most a few entries per contact (held by the store).
 * Only what telling the guest takes is kept: the choice, the days and parts, one contact.
 */
export async function joinWaitlist(services: Services, request: JoinRequest, now = Date.now()): Promise<JoinOutcome> {
  if (!sameId(request.clinic, request.center.id)) return { kind: "unknown-clinic" };
  const days = chosenDays(request.days, request.offeredDays);
  if (!days) return { kind: "unknown-day" };
  const nurse = request.therapist ? request.nurses.find((n) => sameId(n.id, request.therapist!)) : null;
  if (request.therapist && !nurse) return { kind: "unknown-nurse" };
  const contact = contactOf(request.contact);
  if (!contact) return { kind: "bad-contact" };
  const limited = await consume(services, "waitlistJoin", { ip: request.clientIp });
  if (!limited.ok) return { kind: "too-many", message: limited.message, retryAfterSeconds: limited.retryAfterSeconds };
  const entry: WaitlistEntry = {
    id: randomBytes(16).toString("base64url"),
    centerId: request.center.id,
    serviceId: request.serviceId,
    addOnIds: request.addOnIds,
    therapistId: nurse?.id ?? null,
    days,
    parts: [...new Set(request.parts)].sort(),
    channel: contact.channel,
    contact: contact.to,
    accountId: request.accountId,
    origin: request.origin,
    createdAt: now,
    expiresAt: dayEndsAt(days.at(-1)!, request.center.timeZone),
    offered: [],
    checkedAt: null,
  };
  const added = await services.stores.waitlist.add(entry, WAITLIST_ENTRIES_PER_CONTACT);
  if (added === "full") return { kind: "full", places: WAITLIST_ENTRIES_PER_CONTACT };
  logger.info("waitlist joined", { days: days.length, parts: entry.parts.length, anyNurse: !nurse });
  return { kind: "joined", entry };
}

/** The entry ends (left, or its time booked): deleted with what it held. True when there was one. */
export async function endWaitlistEntry(services: Services, entryId: string, why: "left" | "booked"): Promise<boolean> {
  const removed = await services.stores.waitlist.remove(entryId);
  if (removed) logger.info("waitlist entry ended", { why });
  return removed;
}

/**
 * A booking made: the guest's entries at that clinic waiting for that day end, the time they
 * waited for taken (whether they came by an offer's link or found it themselves). The guest is
 * known by the contacts the booking has (its email and mobile, the account's email).
 */
export async function endEntriesOnBooking(
  services: Services,
  booking: { centerId: string; date: string; contacts: (string | null | undefined)[] },
): Promise<number> {
  const contacts = new Set(
    booking.contacts.flatMap((c) => {
      const contact = c ? contactOf(c) : null;
      return contact ? [contact.to] : [];
    }),
  );
  let ended = 0;
  for (const contact of contacts) {
    for (const entry of await services.stores.waitlist.listForContact(contact)) {
      if (sameId(entry.centerId, booking.centerId) && entry.days.includes(booking.date)) {
        if (await endWaitlistEntry(services, entry.id, "booked")) ended += 1;
      }
    }
  }
  return ended;
}

/** A leave link: the entry named is left, whatever state it is in. */
export async function leaveByLink(
  services: Services,
  token: string | undefined,
): Promise<{ kind: "invalid" } | { kind: "left" } | { kind: "already-gone" }> {
  const link = services.waitlistLinks.readLeave(token);
  if (!link) return { kind: "invalid" };
  return (await endWaitlistEntry(services, link.entryId, "left")) ? { kind: "left" } : { kind: "already-gone" };
}

/** An entry as the account page and the messages show it. */
export type WaitlistEntryView = {
  id: string;
  clinic: string;
  treatment: string;
  nurse: string | null;
  days: string[];
  parts: string;
};

/** What an entry is for, in words: the clinic, treatment and nurse names from the (cached) catalog. */
export async function entryView(services: Services, entry: WaitlistEntry): Promise<WaitlistEntryView> {
  const [center, menu, nurses] = await Promise.all([
    services.catalog.getCenter(entry.centerId).catch(() => null),
    services.catalog.listServices(entry.centerId).catch(() => null),
    entry.therapistId ? services.catalog.listTherapists(entry.centerId).catch(() => null) : null,
  ]);
  const nurse = entry.therapistId ? nurses?.find((n) => sameId(n.id, entry.therapistId!)) : null;
  return {
    id: entry.id,
    clinic: center?.name ?? "the clinic",
    treatment: menu?.find((s) => sameId(s.id, entry.serviceId))?.displayName ?? "your treatment",
    nurse: nurse ? nurse.displayName : null,
    days: entry.days,
    parts: partsLabel(entry.parts),
  };
}

/** A signed-in guest's entries, for the account area. */
export async function accountWaitlist(services: Services, accountId: string): Promise<WaitlistEntryView[]> {
  const entries = await services.stores.waitlist.listForAccount(accountId);
  return Promise.all(entries.map((entry) => entryView(services, entry)));
}

/** Leaves one of the account's entries; false when it is not theirs (or gone already). */
export async function leaveFromAccount(services: Services, accountId: string, entryId: string): Promise<boolean> {
  const entry = await services.stores.waitlist.get(entryId);
  if (!entry || entry.accountId !== accountId) return false;
  return endWaitlistEntry(services, entry.id, "left");
}

export type FollowedOffer =
  | { kind: "invalid" }
  | { kind: "ended" }
  | { kind: "gone"; entry: WaitlistEntry; slot: string; when: string }
  | { kind: "open"; entry: WaitlistEntry; slot: string; when: string };

/** "10:30 AM on Tuesday, December 8". */
export function slotWords(slot: string): string {
  return `${formatClock(slot.slice(11, 16))} on ${formatDay(slot.slice(0, 10), "dddd, MMMM D")}`;
}

/**
 * An offer's link followed: the entry must still be waiting and the time still open, read afresh
 * from the back end (another waiting guest may have booked it a moment ago: the first to book wins).
 * Nothing is changed here; the page opens the time step on the time when it is open.
 */
export async function followOffer(services: Services, token: string | undefined): Promise<FollowedOffer> {
  const link = services.waitlistLinks.readOffer(token);
  if (!link) return { kind: "invalid" };
  const entry = await services.stores.waitlist.get(link.entryId);
  if (!entry) return { kind: "ended" };
  const query = {
    centerId: entry.centerId,
    serviceId: entry.serviceId,
    addOnIds: entry.addOnIds,
    therapistId: entry.therapistId,
    date: link.slot.slice(0, 10),
  };
  forgetOpenTimes(query);
  const { times } = await openTimes(services, query);
  const when = slotWords(link.slot);
  return times.includes(link.slot)
    ? { kind: "open", entry, slot: link.slot, when }
    : { kind: "gone", entry, slot: link.slot, when };
}
