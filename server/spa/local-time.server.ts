/**
 * Zenoti's times. Zenoti sends a clinic's times as wall-clock time in the clinic's zone with no
 * offset ("2026-12-07T10:00:00"); seconds, fractional seconds and an offset have been seen or may
 * come, so all of them are read. The app keeps clinic times as "YYYY-MM-DDTHH:mm:ss" and instants as
 * ISO UTC strings (decision record 016).
 */
import { zoneParts } from "~/lib/dates";

const PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** A time as Zenoti wrote it: its wall clock, and its offset in minutes east of UTC when it named one. */
export type ZenotiTime = { local: string; offsetMinutes: number | null };

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** Reads one of Zenoti's times; null when it is not a real date and time. */
export function parseZenotiTime(value: string): ZenotiTime | null {
  const match = PATTERN.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0));
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC rolls Feb 30 over to March: a round trip catches impossible dates and clock times.
  const check = new Date(wall);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59)
    return null;
  return { local: wallClockString(wall), offsetMinutes: parseOffset(match[7]) };
}

function parseOffset(text: string | undefined): number | null {
  if (!text) return null;
  if (text.toUpperCase() === "Z") return 0;
  const digits = text.slice(1).replace(":", "");
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2));
  return text.startsWith("-") ? -minutes : minutes;
}

/** A wall clock held as if it were UTC milliseconds, written "YYYY-MM-DDTHH:mm:ss". */
function wallClockString(wallMs: number): string {
  const d = new Date(wallMs);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** The zone's wall clock at an instant, as if it were UTC milliseconds. */
function wallClockAt(instantMs: number, timeZone: string): number {
  const parts = zoneParts(instantMs, timeZone);
  return Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
}

function offsetAt(instantMs: number, timeZone: string): number {
  const whole = Math.floor(instantMs / 1000) * 1000;
  return Math.round((wallClockAt(whole, timeZone) - whole) / MINUTE_MS);
}

/**
 * The instant a wall-clock time names in a zone. Around a change of clocks it follows what a
 * calendar does: a time that happens twice (clocks back) is its first occurrence, and a time that
 * never happens (clocks forward) is moved forward by the gap.
 */
export function wallClockInstant(local: string, timeZone: string): number {
  const parsed = parseZenotiTime(local);
  if (!parsed) throw new RangeError(`Not a local time: ${local}`);
  const wall = Date.parse(`${parsed.local}Z`);
  // A day either side of the time lies outside any change of clocks that touches it.
  const before = offsetAt(wall - DAY_MS, timeZone);
  const after = offsetAt(wall + DAY_MS, timeZone);
  const candidates = [wall - before * MINUTE_MS, wall - after * MINUTE_MS].filter(
    (t) => wallClockAt(t, timeZone) === wall,
  );
  if (candidates.length > 0) return Math.min(...candidates);
  return wall - before * MINUTE_MS;
}

/** An instant as the zone's wall clock, "YYYY-MM-DDTHH:mm:ss". */
export function clinicLocalAt(instantMs: number, timeZone: string): string {
  return wallClockString(wallClockAt(instantMs, timeZone));
}

/**
 * The instant one of Zenoti's times names: its own offset when it has one, otherwise the clinic's
 * wall clock in the clinic's zone. Null when the text is not a time.
 */
export function clinicInstant(value: string, timeZone: string): number | null {
  const parsed = parseZenotiTime(value);
  if (!parsed) return null;
  if (parsed.offsetMinutes === null) return wallClockInstant(parsed.local, timeZone);
  return Date.parse(`${parsed.local}Z`) - parsed.offsetMinutes * MINUTE_MS;
}

/**
 * One of Zenoti's times as the clinic's wall clock, "YYYY-MM-DDTHH:mm:ss", fractional seconds
 * dropped. A time with an offset is moved into the clinic's zone when the zone is known; without
 * it the wall clock is kept as written, which is the clinic's own when Zenoti adds the clinic's
 * offset to a clinic time. Null when the text is not a time.
 */
export function clinicLocal(value: string, timeZone?: string): string | null {
  const parsed = parseZenotiTime(value);
  if (!parsed) return null;
  if (parsed.offsetMinutes === null || !timeZone) return parsed.local;
  return clinicLocalAt(clinicInstant(value, timeZone)!, timeZone);
}
