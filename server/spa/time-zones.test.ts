import { describe, expect, it } from "vitest";
import { seedCenters } from "../spa-sandbox/seed-data";
import {
  DEFAULT_TIME_ZONE,
  ianaFromDisplayName,
  parseZoneSetting,
  resolveCenterTimeZone,
  toIanaTimeZone,
  windowsDisplayName,
} from "./time-zones.server";

describe("Zenoti time zones to IANA", () => {
  it.each([
    ["(UTC-05:00) Eastern Time (US & Canada)", "America/New_York"],
    ["(UTC-06:00) Central Time (US & Canada)", "America/Chicago"],
    ["(UTC-07:00) Mountain Time (US & Canada)", "America/Denver"],
    ["(UTC-07:00) Arizona", "America/Phoenix"],
    ["(UTC-08:00) Pacific Time (US & Canada)", "America/Los_Angeles"],
    ["(UTC-09:00) Alaska", "America/Anchorage"],
    ["(UTC-10:00) Hawaii", "Pacific/Honolulu"],
    ["(UTC-05:00) Indiana (East)", "America/Indianapolis"],
    ["(UTC-06:00) Saskatchewan", "America/Regina"],
    ["(UTC-04:00) Atlantic Time (Canada)", "America/Halifax"],
    ["(UTC-03:30) Newfoundland", "America/St_Johns"],
    ["(UTC-04:00) Georgetown, La Paz, Manaus, San Juan", "America/La_Paz"],
    // Older Windows wrote GMT, and spacing or case may differ.
    ["(GMT-05:00) Eastern Time (US & Canada)", "America/New_York"],
    ["  (UTC-08:00)   pacific time (us & canada) ", "America/Los_Angeles"],
  ])("reads the display name %s", (name, iana) => {
    expect(toIanaTimeZone({ name })).toBe(iana);
  });

  it.each([
    ["Eastern Standard Time", "America/New_York"],
    ["Central Standard Time", "America/Chicago"],
    ["Mountain Standard Time", "America/Denver"],
    ["US Mountain Standard Time", "America/Phoenix"],
    ["Pacific Standard Time", "America/Los_Angeles"],
    ["Hawaiian Standard Time", "Pacific/Honolulu"],
    ["GMT Standard Time", "Europe/London"],
  ])("reads the Windows id %s", (windowsId, iana) => {
    expect(toIanaTimeZone(windowsId)).toBe(iana);
    expect(toIanaTimeZone({ name: null, standard_name: windowsId })).toBe(iana);
  });

  it("prefers the display name, then the standard name, then the default", () => {
    expect(toIanaTimeZone({ name: "(UTC-07:00) Arizona", standard_name: "Mountain Standard Time" })).toBe(
      "America/Phoenix",
    );
    expect(toIanaTimeZone({ name: "Something else", standard_name: "Pacific Standard Time" })).toBe(
      "America/Los_Angeles",
    );
    expect(toIanaTimeZone({ name: "", standard_name: "" })).toBe(DEFAULT_TIME_ZONE);
    expect(toIanaTimeZone(null)).toBe(DEFAULT_TIME_ZONE);
    expect(toIanaTimeZone("Not a zone")).toBe(DEFAULT_TIME_ZONE);
  });

  it("takes an IANA name as it is", () => {
    expect(toIanaTimeZone("America/Denver")).toBe("America/Denver");
    expect(toIanaTimeZone("Nowhere/Atlantis")).toBe(DEFAULT_TIME_ZONE);
  });

  it("falls back on the offset of a display name it does not know", () => {
    expect(ianaFromDisplayName("(UTC-05:00) Bogota, Lima, Quito")).toBe("America/New_York");
    expect(ianaFromDisplayName("(UTC-07:00) Chihuahua, La Paz, Mazatlan")).toBe("America/Denver");
    expect(ianaFromDisplayName("(UTC+03:00) Moscow, St. Petersburg")).toBe("Etc/GMT-3");
    expect(ianaFromDisplayName("(UTC-02:00) Coordinated Universal Time-02")).toBe("Etc/GMT+2");
    expect(ianaFromDisplayName("(UTC+05:30) Chennai, Kolkata, Mumbai, New Delhi")).toBeNull();
    expect(ianaFromDisplayName("Eastern")).toBeNull();
  });

  it("gives every seed clinic's Windows id a display name that reads back to the same zone", () => {
    for (const center of seedCenters) {
      const display = windowsDisplayName(center.timeZone);
      expect(display, center.timeZone).toMatch(/^\(UTC-0\d:00\) /);
      expect(toIanaTimeZone({ name: display })).toBe(toIanaTimeZone(center.timeZone));
    }
  });
});

describe("the zone settings operations give (decision 035)", () => {
  const center = (key: string) => (/^[0-9a-f-]{36}$/i.test(key) ? key.toLowerCase() : null);

  it("reads key=Zone pairs in any of the zone's forms", () => {
    const parsed = parseZoneSetting(
      " 4A7B2E1C-0000-4000-8000-000000000001=America/Los_Angeles, 4a7b2e1c-0000-4000-8000-000000000002=Eastern Standard Time ",
      center,
    );
    expect(parsed).toEqual({
      entries: new Map([
        ["4a7b2e1c-0000-4000-8000-000000000001", "America/Los_Angeles"],
        ["4a7b2e1c-0000-4000-8000-000000000002", "America/New_York"],
      ]),
    });
    expect(parseZoneSetting(undefined, center)).toEqual({ entries: new Map() });
  });

  it("names the first pair it cannot read", () => {
    expect(parseZoneSetting("not-a-guid=America/Denver", center)).toEqual({
      problem: expect.stringContaining('"not-a-guid=America/Denver"'),
    });
    expect(parseZoneSetting("4a7b2e1c-0000-4000-8000-000000000001=Mars/Olympus", center)).toMatchObject({
      problem: expect.any(String),
    });
    expect(parseZoneSetting("America/Denver", center)).toMatchObject({ problem: expect.any(String) });
  });

  it("resolves the center's setting first, then names, then the id's setting, then a sibling; otherwise nothing", () => {
    const settings = { byCenter: new Map([["c1", "America/Detroit"]]), byZoneId: new Map([[11, "America/Chicago"]]) };
    const named = { id: 20, name: "(UTC-05:00) Eastern Time (US & Canada)" };
    expect(resolveCenterTimeZone("C1", named, settings)).toEqual({
      timeZone: "America/Detroit",
      source: "setting for the center",
    });
    expect(resolveCenterTimeZone("c2", named, settings)).toEqual({ timeZone: "America/New_York", source: "zone name" });
    expect(resolveCenterTimeZone("c2", { id: 0, identifier_name: "America/Boise" }, settings)).toEqual({
      timeZone: "America/Boise",
      source: "zone name",
    });
    expect(resolveCenterTimeZone("c2", { id: 11, name: null }, settings)).toEqual({
      timeZone: "America/Chicago",
      source: "setting for the zone id",
    });
    expect(resolveCenterTimeZone("c2", { id: 4 }, settings, new Map([[4, "America/Los_Angeles"]]))).toEqual({
      timeZone: "America/Los_Angeles",
      source: "zone id named by another center",
    });
    expect(resolveCenterTimeZone("c2", { id: 4 }, settings)).toBeNull();
    // The webhook sample's id 0 is no zone at all.
    expect(resolveCenterTimeZone("c2", { id: 0, name: null }, settings, new Map([[0, "America/Chicago"]]))).toBeNull();
    expect(resolveCenterTimeZone("c2", null, settings)).toBeNull();
  });
});
