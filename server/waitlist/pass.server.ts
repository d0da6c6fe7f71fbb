import { randomUUID } from "node:crypto";
import type { Center } from "~/domain/catalog";
import { newFits, OFFERED_KEPT } from "~/domain/waitlist";
import { clinicToday, instantOf } from "~/lib/dates";
import { forgetOpenTimes, openTimes, type SlotQuery } from "../booking/holds.server";
import type { PeriodicPass } from "../jobs/periodic-passes.server";
import { logger } from "../observability/logger.server";
import type { Services } from "../services";
import { isSpaError } from "../spa/errors.server";
import type { WaitlistEntry, WaitlistSignal } from "../store/stores.server";
import { entryView, slotWords } from "./waitlist.server";

/**
 * The waitlist's pass (decision 058): tells waiting guests, in the order they joined, of a time
 * that opened on one of their days. It looks at a day when a feature noted that a time may open
 * there (a visit cancelled or moved, a hold running out), and every few minutes it reads a few days
 * of the entry checked longest ago (the periodic check: a time freed at the front desk, within the
 * Zenoti call budget). All its state is in the store, so a restart carries on, and a store lease
 * keeps it to one instance at a time; an offer is recorded before its message goes, once.
 */

/** The pass runs this often: a day noted is looked at within seconds. Without notes due, a run costs two store reads. */
export const WAITLIST_EVERY_MS = 5_000;
/** The lease an instance takes for a run; another takes over when it runs out (the first died). */
const LEASE_MS = 60_000;
/** The periodic check runs this often across all instances, */
export const CHECK_EVERY_MS = 3 * 60_000;
/** and reads at most this many days then: at most about two of Zenoti's calls a minute. */
const CHECK_READS = 6;
/** Days noted looked at in one run, at most. */
const NOTES_PER_RUN = 20;

type PassOptions = { clock?: () => number; holder?: string };

export type PassRun = { ran: boolean; told: number };

/** One run of the pass: the leases, the entries whose last day is over, the days noted, the periodic check. */
export async function runWaitlistPass(services: Services, options: PassOptions = {}): Promise<PassRun> {
  const clock = options.clock ?? Date.now;
  const waitlist = services.stores.waitlist;
  const now = clock();
  if (!(await waitlist.lease("waitlist-pass", options.holder ?? INSTANCE, now + LEASE_MS, now))) {
    return { ran: false, told: 0 };
  }
  const expired = await waitlist.removeExpired(now);
  if (expired > 0) logger.info("waitlist entries expired", { count: expired });
  let told = 0;
  // The days noted, each looked at once per run however many notes it has.
  const notes = await waitlist.listSignals(now, NOTES_PER_RUN);
  const days = new Map<string, WaitlistSignal[]>();
  for (const note of notes) {
    const key = `${note.centerId}|${note.date}`;
    days.set(key, [...(days.get(key) ?? []), note]);
  }
  for (const [, dayNotes] of days) {
    const { centerId, date } = dayNotes[0];
    const looked = await lookAtDay(services, centerId, date, { fresh: true, now: clock() });
    // A day the back end could not be asked about keeps its notes for the next run.
    if (looked === null) break;
    told += looked;
    for (const note of dayNotes) await waitlist.clearSignal(note);
  }
  // The periodic check, once per interval across instances and restarts: the lease's holder is new
  // each time, so only a lease run out lets it run again.
  if (await waitlist.lease("waitlist-check", randomUUID(), now + CHECK_EVERY_MS, now)) {
    told += await periodicCheck(services, clock);
  }
  return { ran: true, told };
}

const INSTANCE = randomUUID();

/**
 * The entry checked longest ago, its coming days from the nearest, as many as the check may read:
 * each day read tells every entry waiting for it. Days further on are read as they come nearer.
 */
async function periodicCheck(services: Services, clock: () => number): Promise<number> {
  const now = clock();
  const [entry] = await services.stores.waitlist.listUnchecked(now - CHECK_EVERY_MS, 1);
  if (!entry) return 0;
  const center = await services.catalog.getCenter(entry.centerId).catch(() => null);
  let told = 0;
  if (center) {
    const today = clinicToday(center.timeZone, new Date(now));
    for (const date of entry.days.filter((d) => d >= today).slice(0, CHECK_READS)) {
      const looked = await lookAtDay(services, entry.centerId, date, { fresh: false, now: clock(), only: entry });
      if (looked === null) break;
      told += looked;
    }
  }
  await services.stores.waitlist.markChecked(entry.id, clock());
  return told;
}

function queryOf(entry: WaitlistEntry, date: string): SlotQuery {
  return {
    centerId: entry.centerId,
    serviceId: entry.serviceId,
    addOnIds: entry.addOnIds,
    therapistId: entry.therapistId,
    date,
  };
}

/**
 * Reads the day's open times for each choice the day's entries wait for (fresh after a note: the
 * time just freed), and tells each entry, in the order they joined, of the first time that fits
 * and it was not told about. The number told; null when the back end could not be asked.
 */
export async function lookAtDay(
  services: Services,
  centerId: string,
  date: string,
  options: { fresh: boolean; now: number; only?: WaitlistEntry },
): Promise<number | null> {
  const entries = options.only
    ? [options.only]
    : (await services.stores.waitlist.listForDay(centerId, date)).filter((e) => e.expiresAt > options.now);
  if (entries.length === 0) return 0;
  const center = await services.catalog.getCenter(centerId).catch(() => null);
  if (!center) return 0;
  const times = new Map<string, string[]>();
  let told = 0;
  for (const entry of entries) {
    const query = queryOf(entry, date);
    const key = JSON.stringify([query.serviceId, [...query.addOnIds].sort(), query.therapistId]);
    if (!times.has(key)) {
      try {
        if (options.fresh) forgetOpenTimes(query);
        const list = await openTimes(services, query);
        times.set(
          key,
          list.times.filter((t) => t.startsWith(date)),
        );
      } catch (error) {
        if (!isSpaError(error)) throw error;
        logger.warn("waitlist day not read", { kind: error.kind, status: error.status });
        return null;
      }
    }
    const [slot] = newFits({ days: [date], parts: entry.parts, offered: entry.offered }, times.get(key)!);
    if (slot && (await tell(services, center, entry, slot))) told += 1;
  }
  return told;
}

/**
 * Tells the entry's guest of the open time with its signed link, and how to leave the waitlist.
 * The offer is recorded first (only one instance or run sends it); a message that could not be
 * sent takes it back, for the next run.
 */
async function tell(services: Services, center: Center, entry: WaitlistEntry, slot: string): Promise<boolean> {
  if (!(await services.stores.waitlist.offer(entry.id, slot, OFFERED_KEPT))) return false;
  const links = services.waitlistLinks;
  const offer = `${entry.origin}/waitlist/offer/${links.offer(entry.id, slot, instantOf(slot, center.timeZone))}`;
  const leave = `${entry.origin}/waitlist/leave/${links.leave(entry.id, entry.expiresAt)}`;
  const view = await entryView(services, entry);
  const when = slotWords(slot);
  const body =
    entry.channel === "sms"
      ? `Glow Clinic: ${when} just opened at ${view.clinic}. Book it: ${offer} (first to book gets it). Leave the waitlist: ${leave}`
      : [
          `A time you were waiting for just opened: ${when}, ${view.treatment} at ${view.clinic}${view.nurse ? ` with ${view.nurse}` : ""}.`,
          "",
          `Book it here: ${offer}`,
          "",
          "Other guests on the waitlist may have been told too: the first to book it gets it. If it has gone when you open the link, we'll say so, and you stay on the waitlist.",
          "",
          `Don't want these messages? Leave the waitlist in one click: ${leave}`,
        ].join("\n");
  try {
    await services.notifier.send({
      channel: entry.channel,
      to: entry.contact,
      subject: `A time opened: ${when}`,
      body,
      kind: "waitlist-offer",
    });
    logger.info("waitlist offer sent", { channel: entry.channel });
    return true;
  } catch (error) {
    await services.stores.waitlist.withdrawOffer(entry.id, slot);
    logger.warn("waitlist offer not sent", { error: error instanceof Error ? error.message : String(error) });
    return false;
  }
}

/** The waitlist's pass, for the runner in `server/jobs/`. */
export function waitlistPass(services: Services): PeriodicPass {
  return { name: "waitlist notices", everyMs: WAITLIST_EVERY_MS, run: () => runWaitlistPass(services) };
}
