/**
 * Zenoti names time zones the Windows way. The US zones our clinics can be in, as IANA names; an
 * unknown name falls back to the IANA name itself when it is one, else to US Central.
 */
const windowsToIana: Record<string, string> = {
  "Eastern Standard Time": "America/New_York",
  "Central Standard Time": "America/Chicago",
  "Mountain Standard Time": "America/Denver",
  "US Mountain Standard Time": "America/Phoenix",
  "Pacific Standard Time": "America/Los_Angeles",
  "Alaskan Standard Time": "America/Anchorage",
  "Hawaiian Standard Time": "Pacific/Honolulu",
  "US Eastern Standard Time": "America/Indiana/Indianapolis",
};

function isIana(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return name.includes("/");
  } catch {
    return false;
  }
}

export function toIanaTimeZone(name: string | null | undefined): string {
  if (!name) return "America/Chicago";
  return windowsToIana[name] ?? (isIana(name) ? name : "America/Chicago");
}
