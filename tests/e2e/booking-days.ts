import fs from "node:fs";
import path from "node:path";
import type { TestInfo } from "@playwright/test";
import { centerSlug } from "../../app/domain/catalog";
import { seedGuid } from "../../server/spa-sandbox/db";
import { nurseDayOff, seedCenters } from "../../server/spa-sandbox/seed-data";

/**
 * The clinics the test servers' sandboxes are seeded with, and which clinic and days a booking test
 * may take. Every server seeds the same chain (server/spa-sandbox/seed-data.ts), with the same ids.
 */
export type Clinic = {
  /** Its page is /locations/<slug>. */
  slug: string;
  /** "Glow Clinic Houston Heights", as pages show it. */
  name: string;
  centerId: string;
  /** Its ZIP code: a search for it on the home page finds this clinic first. */
  zip: string;
  /** Takes payment at booking ("Pay ... and book"); the others hold the card ("Book appointment"). */
  prepaid: boolean;
  /** Charges the list prices of the seed data (price level 1): a facial is $275 there. */
  listPrices: boolean;
  nurses: { name: string; dayOff: number }[];
};

export const CLINICS: Clinic[] = seedCenters.map((center) => ({
  slug: centerSlug(center.name),
  name: `Glow Clinic ${center.name}`,
  centerId: seedGuid(`center:${center.code}`),
  zip: center.zip,
  prepaid: center.prepaid,
  listPrices: center.priceLevel === 1,
  nurses: center.nurses.map((name, place) => ({ name, dayOff: nurseDayOff(place) })),
}));

/**
 * Austin: the home clinic of every test account, where tests that book nothing start, and where
 * guests are made straight in the back end. Never handed out for booking, so a test that counts one
 * clinic's guests (trust-holds) never counts those.
 */
export const HOME_CLINIC = CLINICS.find((c) => c.slug === "austin-downtown")!;

/** A nurse of the clinic who works on that date. */
export function nurseWorkingOn(clinic: Clinic, date: string): string {
  const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
  return clinic.nurses.find((n) => n.dayOff !== weekday)!.name;
}

export type BookingDayOptions = {
  /** A clinic that takes payment at booking; by default one that holds the card. */
  prepaid?: boolean;
  /** A clinic charging list prices (only among those that hold the card). */
  listPrices?: boolean;
  /** How many dates to take at that clinic, one after another in its date list (default 1). */
  days?: number;
  /** Clinics (slugs) not to take, e.g. one a test server refuses. */
  except?: string[];
  /**
   * Only dates at most this many days after today (UTC), for a feature that looks only so far
   * ahead: 12 keeps a date within the waitlist's two weeks of every clinic's today.
   */
  withinDays?: number;
};

export type BookingDay = {
  clinic: Clinic;
  /** The first of `dates`. */
  date: string;
  /** Open dates (Monday to Saturday, "YYYY-MM-DD"), ascending, no other test's. */
  dates: string[];
};

/**
 * The clinics of each kind, list-price ones first, so that with a few workers each still gets one.
 * Austin is left out (HOME_CLINIC).
 */
const POOLS = {
  payLater: CLINICS.filter((c) => !c.prepaid && c !== HOME_CLINIC).sort(
    (a, b) => Number(b.listPrices) - Number(a.listPrices),
  ),
  prepaid: CLINICS.filter((c) => c.prepaid),
};

const DAY_MS = 86_400_000;
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The dates every clinic offers whatever its time zone and the hour: from tomorrow (UTC) to 26 days
 * on. A clinic lists 28 days from its own today, which is today or yesterday in UTC; tomorrow has no
 * time in the past yet. Sundays are closed and not listed.
 */
function openDates(now = Date.now()): string[] {
  const today = Date.parse(`${isoDate(now)}T12:00:00Z`);
  const dates: string[] = [];
  for (let i = 1; i <= 26; i++) {
    const date = isoDate(today + i * DAY_MS);
    if (new Date(`${date}T12:00:00Z`).getUTCDay() !== 0) dates.push(date);
  }
  return dates;
}

/**
 * Gives the test a clinic and `days` dates there that no other test of this run books, on the server
 * at `baseURL` (each server has a sandbox of its own).
 *
 * - Workers running at the same time never share a clinic: the clinics of each kind are dealt out by
 *   `testInfo.parallelIndex` (which Playwright keeps unique among running workers), so a test may
 *   count a clinic's guests or break its back-end calls (the fault proxy) without meeting another.
 *   With more workers than clinics of a kind (6 prepaid, 8 pay-later) some share.
 * - Tests one after another in the same place (the same parallelIndex: its next test, the worker of
 *   the other project, a worker started again after a failure) do not get the same date at a clinic
 *   until every date of the place's clinics was handed out (then they are handed out again from the
 *   first, one clinic at a time): the last date handed out at each clinic is kept in a ledger under
 *   the run's output directory, which Playwright empties at the start of every run, as the servers
 *   empty their data.
 * - Each test takes, among its clinics of the kind asked for with enough dates left, the one with the
 *   earliest free date.
 *   Which one is noted in the test's annotations ("booking days").
 */
export function claimBookingDays(testInfo: TestInfo, baseURL: string, options: BookingDayOptions = {}): BookingDay {
  const days = options.days ?? 1;
  const lanes = Math.max(1, testInfo.config.workers);
  const lane = testInfo.parallelIndex;
  const pool = (options.prepaid ? POOLS.prepaid : POOLS.payLater).filter((c) => !options.except?.includes(c.slug));
  let mine = pool.filter((_, i) => i % lanes === lane % lanes);
  if (mine.length === 0) mine = [pool[lane % pool.length]];
  if (options.listPrices) {
    const listed = pool.filter((c) => c.listPrices);
    mine = mine.filter((c) => c.listPrices);
    if (mine.length === 0) mine = [listed[lane % listed.length]];
  }

  const ledger = path.join(
    testInfo.project.outputDir,
    ".booking-days",
    `port-${new URL(baseURL).port}-lane-${lane}.json`,
  );
  const handedOut: Record<string, string> = fs.existsSync(ledger) ? JSON.parse(fs.readFileSync(ledger, "utf8")) : {};
  const dates = openDates().filter(
    (d) => options.withinDays === undefined || Date.parse(`${d}T12:00:00Z`) - Date.now() <= options.withinDays * DAY_MS,
  );
  const freeFrom = (clinic: Clinic) => dates.filter((d) => d > (handedOut[clinic.slug] ?? ""));
  // Of this place's clinics with `days` dates left, the one whose next free date is earliest.
  const roomy = mine.filter((c) => freeFrom(c).length >= days);
  let clinic = roomy.length > 0 ? roomy.reduce((best, c) => (freeFrom(c)[0] < freeFrom(best)[0] ? c : best)) : mine[0];
  if (roomy.length === 0) {
    // Every date of this place's clinics was handed out: they are handed out again from the first,
    // at the clinic used least lately. A date given twice holds only the visits of tests that ran
    // before here, one at a time; never a running test's (workers running at once never share a clinic).
    if (dates.length < days) throw new Error(`A test asks for ${days} booking days; a clinic lists ${dates.length}.`);
    clinic = mine.reduce((least, c) => ((handedOut[c.slug] ?? "") < (handedOut[least.slug] ?? "") ? c : least));
    handedOut[clinic.slug] = "";
    testInfo.annotations.push({
      type: "booking days",
      description: `${clinic.slug}: every date was handed out once; again from the first`,
    });
  }
  const taken = freeFrom(clinic).slice(0, days);
  handedOut[clinic.slug] = taken.at(-1)!;
  fs.mkdirSync(path.dirname(ledger), { recursive: true });
  fs.writeFileSync(`${ledger}.tmp`, JSON.stringify(handedOut));
  fs.renameSync(`${ledger}.tmp`, ledger);
  testInfo.annotations.push({
    type: "booking days",
    description: `${clinic.slug} ${taken.join(" ")} (${new URL(baseURL).port})`,
  });
  return { clinic, date: taken[0], dates: taken };
}
