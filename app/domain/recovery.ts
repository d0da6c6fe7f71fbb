import { dayjs } from "~/lib/dayjs";

/**
 * The rules of the recovery message for an unfinished booking (decision 059): one message, after
 * the delay operations set, never in the clinic's night hours (its own clock), never without the
 * guest's consent, never twice for the same draft. Whether the guest booked meanwhile is asked by
 * the job; everything else is decided here, from the record and the clock alone.
 */

/** The clinic's night on its own clock, in minutes after midnight; `start` after `end` runs over midnight. */
export type NightHours = { start: number; end: number };

/** 21:00 to 08:00 on the clinic's clock: no message arrives while most guests sleep. */
export const DEFAULT_NIGHT_HOURS: NightHours = { start: 21 * 60, end: 8 * 60 };

/** How long a recovery link opens its booking, and how long a record is kept at most. */
export const RECOVERY_LINK_DAYS = 7;

const CLOCK = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]):([0-5]\d)$/;

/**
 * "21:00-08:00" as night hours; "off" (or "none") for none; undefined for anything else. Two equal
 * ends are refused: a night of no length or of the whole day is a typing mistake.
 */
export function parseNightHours(value: string): NightHours | null | undefined {
  const text = value.trim().toLowerCase();
  if (text === "off" || text === "none") return null;
  const match = CLOCK.exec(text);
  if (!match) return undefined;
  const start = Number(match[1]) * 60 + Number(match[2]);
  const end = Number(match[3]) * 60 + Number(match[4]);
  return start === end ? undefined : { start, end };
}

function minuteOfDay(local: dayjs.Dayjs): number {
  return local.hour() * 60 + local.minute();
}

function inside(minute: number, night: NightHours): boolean {
  return night.start < night.end
    ? minute >= night.start && minute < night.end
    : minute >= night.start || minute < night.end;
}

/** The instant falls in the clinic's night hours (none: never). */
export function isNightTime(instant: number, timeZone: string, night: NightHours | null): boolean {
  return night !== null && inside(minuteOfDay(dayjs(instant).tz(timeZone)), night);
}

/** The first instant at or after `instant` outside the clinic's night hours. */
export function afterNight(instant: number, timeZone: string, night: NightHours | null): number {
  if (!night || !isNightTime(instant, timeZone, night)) return instant;
  const local = dayjs(instant).tz(timeZone);
  // A night over midnight that began this evening ends tomorrow morning.
  const day = night.start > night.end && minuteOfDay(local) >= night.start ? local.add(1, "day") : local;
  const clock = `${String(Math.floor(night.end / 60)).padStart(2, "0")}:${String(night.end % 60).padStart(2, "0")}`;
  return dayjs.tz(`${day.format("YYYY-MM-DD")}T${clock}:00`, "YYYY-MM-DDTHH:mm:ss", timeZone).valueOf();
}

/** When the message for a draft whose guest stopped at `stoppedAt` is due: after the delay, out of the night. */
export function recoveryDueAt(stoppedAt: number, delayMs: number, timeZone: string, night: NightHours | null): number {
  return afterNight(stoppedAt + delayMs, timeZone, night);
}

export type RecoveryState = "pending" | "sending" | "sent" | "followed";

/** What the rules read of a record. */
export type RecoveryFacts = {
  state: RecoveryState;
  /** When the guest ticked the box; null: they did not (or took it back). */
  consentAt: number | null;
  /** Where to send it; null once the link was followed (the contact is deleted then). */
  hasContact: boolean;
  dueAt: number;
  timeZone: string;
};

/**
 * What to do with a record now. "send": due, by day, consented, never sent. "wait": not yet (the
 * delay, or the night). "done": it was sent or is being sent, or cannot be (no consent, no contact):
 * never again for this draft.
 */
export function recoveryVerdict(
  record: RecoveryFacts,
  now: number,
  night: NightHours | null,
): "send" | "wait" | "done" {
  if (record.state !== "pending" || record.consentAt === null || !record.hasContact) return "done";
  if (now < record.dueAt) return "wait";
  return isNightTime(now, record.timeZone, night) ? "wait" : "send";
}
