import { findIana } from "windows-iana";

/**
 * Zenoti is a .NET system and names a center's time zone the Windows way: `time_zone.name` is the
 * display string ("(UTC-05:00) Eastern Time (US & Canada)"), and a Windows id ("Eastern Standard
 * Time") may come as `standard_name`. Our dates need IANA names. Windows ids go through the CLDR
 * mapping (the windows-iana package); display strings through the table below; an unknown display
 * string through its "(UTC±hh:mm)" offset.
 */

/** The sandbox's fallback for its own seed data only (the client never guesses a zone). */
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
  if (offset % 60 === 0 && Math.abs(offset) <= 14 * 60)
    return `Etc/GMT${offset > 0 ? "-" : "+"}${Math.abs(offset / 60)}`;
  return null;
}

/** One name in any of the forms Zenoti or a test may give: display string, Windows id, IANA name. */
function ianaFromName(name: string | null | undefined): string | null {
  const text = name?.trim();
  if (!text) return null;
  if (text.startsWith("(")) return ianaFromDisplayName(text);
  return ianaFromWindowsId(text) ?? (isIanaName(text) ? text : null);
}

/** Zenoti's time-zone block, as the centers list and its webhooks carry it. */
export type ZenotiTimeZone = {
  id?: number | string | null;
  name?: string | null;
  standard_name?: string | null;
  identifier_name?: string | null;
  abbreviation?: string | null;
};

/** What operations set when Zenoti names no zone: per center id, and per Zenoti time-zone id. */
export type TimeZoneSettings = {
  /** Center id (lower case) to IANA zone; wins over what Zenoti says. */
  byCenter: ReadonlyMap<string, string>;
  /** Zenoti's numeric time-zone id to IANA zone. */
  byZoneId: ReadonlyMap<number, string>;
};

export const NO_TIME_ZONE_SETTINGS: TimeZoneSettings = { byCenter: new Map(), byZoneId: new Map() };

/** How a center's zone was found, for the logs and the preflight. */
export type ZoneSource =
  | "setting for the center"
  | "zone name"
  | "setting for the zone id"
  | "zone id named by another center";

export type ResolvedZone = { timeZone: string; source: ZoneSource };

/** The zone's names in the order they are trusted: display string, Windows id, IANA identifier. */
export function zoneFromNames(zone: ZenotiTimeZone | null | undefined): string | null {
  if (!zone) return null;
  return ianaFromName(zone.name) ?? ianaFromName(zone.standard_name) ?? ianaFromName(zone.identifier_name);
}

export function zoneIdOf(zone: ZenotiTimeZone | null | undefined): number | null {
  const id = Number(zone?.id ?? NaN);
  return Number.isInteger(id) && id > 0 ? id : null;
}

/**
 * A center's IANA zone, never guessed (decision 035): the setting for the center; else a name Zenoti
 * gave; else the setting for Zenoti's numeric zone id; else the zone another center of the same
 * organisation names under that id (`learned`). Null when none of them says: the caller refuses the
 * center rather than show its times in a zone it is not in.
 */
export function resolveCenterTimeZone(
  centerId: string,
  zone: ZenotiTimeZone | null | undefined,
  settings: TimeZoneSettings,
  learned: ReadonlyMap<number, string> = new Map(),
): ResolvedZone | null {
  const set = settings.byCenter.get(centerId.toLowerCase());
  if (set) return { timeZone: set, source: "setting for the center" };
  const named = zoneFromNames(zone);
  if (named) return { timeZone: named, source: "zone name" };
  const id = zoneIdOf(zone);
  if (id === null) return null;
  const byId = settings.byZoneId.get(id);
  if (byId) return { timeZone: byId, source: "setting for the zone id" };
  const sibling = learned.get(id);
  return sibling ? { timeZone: sibling, source: "zone id named by another center" } : null;
}

/**
 * Reads a setting of `key=Zone` pairs (`SPA_CENTER_TIME_ZONES`, `SPA_TIME_ZONE_IDS`): each zone an
 * IANA name, a Windows id or a display string. Null names the first bad pair.
 */
export function parseZoneSetting(
  value: string | undefined,
  readKey: (key: string) => string | null,
): { entries: Map<string, string> } | { problem: string } {
  const entries = new Map<string, string>();
  for (const pair of (value ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const at = pair.indexOf("=");
    const key = at > 0 ? readKey(pair.slice(0, at).trim()) : null;
    const zone = at > 0 ? ianaFromName(pair.slice(at + 1)) : null;
    if (key === null || zone === null)
      return { problem: `"${pair.slice(0, 80)}" is not key=Zone (an IANA name such as America/Los_Angeles)` };
    entries.set(key, zone);
  }
  return { entries };
}

/**
 * The sandbox's own seed data, which always names its zones; the client resolves Zenoti's with
 * `resolveCenterTimeZone`, which never falls back on a default.
 */
export function toIanaTimeZone(
  zone: { name?: string | null; standard_name?: string | null } | string | null | undefined,
): string {
  if (typeof zone === "string" || zone == null) return ianaFromName(zone) ?? DEFAULT_TIME_ZONE;
  return ianaFromName(zone.name) ?? ianaFromName(zone.standard_name) ?? DEFAULT_TIME_ZONE;
}

/** The Windows display string of a Windows id we know, as Zenoti's `time_zone.name` carries it. */
export function windowsDisplayName(windowsId: string): string | null {
  return displayNames[windowsId] ?? null;
}
