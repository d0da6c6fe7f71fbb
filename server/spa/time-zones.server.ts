import { findIana } from "windows-iana";

/**
 * Zenoti is a .NET system and names a center's time zone the Windows way: `time_zone.name` is the
 * display string ("(UTC-05:00) Eastern Time (US & Canada)"), and a Windows id ("Eastern Standard
 * Time") may come as `standard_name`. Our dates need IANA names. Windows ids go through the CLDR
 * mapping (the windows-iana package); display strings through the table below; an unknown display
 * string through its "(UTC±hh:mm)" offset.
 */

/** When nothing can be read: the chain's head office is in US Central time. */
export const DEFAULT_TIME_ZONE = "America/Chicago";

/**
 * The zones of the US and Canada, and US territories: Windows id and display string, as current
 * Windows writes them (the offset is the standard one). Older Windows versions wrote "GMT" where
 * newer ones write "UTC"; a display string is looked up by its place name, so both read the same.
 */
const displayNames: Record<string, string> = {
  "Eastern Standard Time": "(UTC-05:00) Eastern Time (US & Canada)",
  "US Eastern Standard Time": "(UTC-05:00) Indiana (East)",
  "Central Standard Time": "(UTC-06:00) Central Time (US & Canada)",
  "Canada Central Standard Time": "(UTC-06:00) Saskatchewan",
  "Mountain Standard Time": "(UTC-07:00) Mountain Time (US & Canada)",
  "US Mountain Standard Time": "(UTC-07:00) Arizona",
  "Yukon Standard Time": "(UTC-07:00) Yukon",
  "Pacific Standard Time": "(UTC-08:00) Pacific Time (US & Canada)",
  "Alaskan Standard Time": "(UTC-09:00) Alaska",
  "Aleutian Standard Time": "(UTC-10:00) Aleutian Islands",
  "Hawaiian Standard Time": "(UTC-10:00) Hawaii",
  "Atlantic Standard Time": "(UTC-04:00) Atlantic Time (Canada)",
  "Newfoundland Standard Time": "(UTC-03:30) Newfoundland",
  "SA Western Standard Time": "(UTC-04:00) Georgetown, La Paz, Manaus, San Juan",
  "West Pacific Standard Time": "(UTC+10:00) Guam, Port Moresby",
  UTC: "(UTC) Coordinated Universal Time",
};

const DISPLAY_NAME = /^\s*\((?:UTC|GMT)\s*(?:([+-])(\d{1,2}):?(\d{2}))?\)\s*(.*?)\s*$/i;

const windowsIdByPlace = new Map(
  Object.entries(displayNames).map(([windowsId, display]) => [DISPLAY_NAME.exec(display)![4].toLowerCase(), windowsId]),
);

/** A zone that keeps the daylight-saving rules usual at each North American standard offset. */
const zoneByOffsetMinutes: Record<number, string> = {
  [-210]: "America/St_Johns",
  [-240]: "America/Halifax",
  [-300]: "America/New_York",
  [-360]: "America/Chicago",
  [-420]: "America/Denver",
  [-480]: "America/Los_Angeles",
  [-540]: "America/Anchorage",
  [-600]: "Pacific/Honolulu",
  0: "Etc/UTC",
};

function isIanaName(name: string): boolean {
  if (!name.includes("/")) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The IANA zone CLDR names first for a Windows id (its "001" territory), or null. */
export function ianaFromWindowsId(windowsId: string): string | null {
  const zones = findIana(windowsId.trim());
  return zones.length > 0 ? zones[0] : null;
}

/** Reads a display string: its place name, else its standard offset. */
export function ianaFromDisplayName(displayName: string): string | null {
  const match = DISPLAY_NAME.exec(displayName);
  if (!match) return null;
  const [, sign, hours, minutes, place] = match;
  const windowsId = windowsIdByPlace.get(place.toLowerCase());
  if (windowsId) return ianaFromWindowsId(windowsId);
  const offset = sign ? (sign === "-" ? -1 : 1) * (Number(hours) * 60 + Number(minutes)) : 0;
  if (zoneByOffsetMinutes[offset]) return zoneByOffsetMinutes[offset];
  // Etc/GMT zones have no daylight saving and their sign is the POSIX one, opposite to UTC's.
  if (offset % 60 === 0 && Math.abs(offset) <= 14 * 60) return `Etc/GMT${offset > 0 ? "-" : "+"}${Math.abs(offset / 60)}`;
  return null;
}

/** One name in any of the forms Zenoti or a test may give: display string, Windows id, IANA name. */
function ianaFromName(name: string | null | undefined): string | null {
  const text = name?.trim();
  if (!text) return null;
  if (text.startsWith("(")) return ianaFromDisplayName(text);
  return ianaFromWindowsId(text) ?? (isIanaName(text) ? text : null);
}

/**
 * A center's IANA zone from Zenoti's time-zone block: `name` (the display string) first, as public
 * code reads it; then `standard_name`; else the default.
 */
export function toIanaTimeZone(zone: { name?: string | null; standard_name?: string | null } | string | null | undefined): string {
  if (typeof zone === "string" || zone == null) return ianaFromName(zone) ?? DEFAULT_TIME_ZONE;
  return ianaFromName(zone.name) ?? ianaFromName(zone.standard_name) ?? DEFAULT_TIME_ZONE;
}

/** The Windows display string of a Windows id we know, as Zenoti's `time_zone.name` carries it. */
export function windowsDisplayName(windowsId: string): string | null {
  return displayNames[windowsId] ?? null;
}
