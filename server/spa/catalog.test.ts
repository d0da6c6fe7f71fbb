import { afterEach, describe, expect, it, vi } from "vitest";
import { clientOnJsonBackend } from "../../tests/helpers/json-backend";
import { captureWarnings } from "../../tests/helpers/log-lines";
import { readClockTime, readDayOfWeek } from "./catalog.server";

afterEach(() => {
  vi.restoreAllMocks();
});

const clientFor = async (answers: Parameters<typeof clientOnJsonBackend>[0]) =>
  (await clientOnJsonBackend(answers)).client;

const center = (overrides: Record<string, unknown> = {}) => ({
  id: "C1",
  name: "Glow Clinic Boston",
  location: {
    lattitude: 42.35,
    longitude: -71.07,
    time_zone: { id: 20, name: "(UTC-05:00) Eastern Time (US & Canada)" },
  },
  working_hours: [
    { day_of_week: 1, start_time: "09:00", end_time: "19:00", is_closed: false },
    { day_of_week: 0, start_time: null, end_time: null, is_closed: true },
  ],
  ...overrides,
});

describe("lenient reading of the centers list", () => {
  it("drops a clinic without an id or a name, logs its id and the reason, and keeps the others", async () => {
    const warnings = captureWarnings();
    const client = await clientFor({
      "/v1/centers": {
        body: {
          centers: [center(), { id: "C2", name: 42 }, { name: "No id" }, "junk", null],
          page_info: { total: 5, page: 1, size: 100 },
        },
      },
    });
    const { centers } = await client.listCenters();
    expect(centers.map((c) => c.id)).toEqual(["c1"]);
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          message: "spa catalog entry dropped",
          kind: "center",
          id: "C2",
          reason: "name: invalid_type",
        }),
        expect.objectContaining({
          message: "spa catalog entry dropped",
          kind: "center",
          id: null,
          reason: "id: invalid_type",
        }),
      ]),
    );
    expect(warnings.filter((w) => w.kind === "center")).toHaveLength(4);
    expect(JSON.stringify(warnings)).not.toContain("No id");
  });

  it("reads an odd optional block as absent, not as a broken clinic (without a zone, it is kept apart)", async () => {
    const client = await clientFor({
      "/v1/centers": {
        body: {
          centers: [
            center({
              state: "TX",
              contact_info: { phone_1: "5125550141" },
              address_info: [],
              location: { lattitude: "30.2", time_zone: "Central" },
            }),
          ],
          page_info: null,
        },
      },
    });
    const list = await client.listCenters();
    expect(list.centers).toEqual([]);
    expect(list.withoutTimeZone[0]).toMatchObject({
      id: "c1",
      address: { state: "", city: "" },
      phone: "",
      latitude: 0,
      zoneId: null,
    });
  });

  it("reads the clinic's zone from the display name, so its local opening hours stay its own", async () => {
    const zones = {
      E: "(UTC-05:00) Eastern Time (US & Canada)",
      M: "(UTC-07:00) Mountain Time (US & Canada)",
      A: "(UTC-07:00) Arizona",
      P: "(UTC-08:00) Pacific Time (US & Canada)",
    };
    const client = await clientFor({
      "/v1/centers": {
        body: {
          centers: Object.entries(zones).map(([id, name]) =>
            center({ id, name: `Clinic ${id}`, location: { time_zone: { id: 1, name } } }),
          ),
        },
      },
    });
    const { centers } = await client.listCenters();
    expect(Object.fromEntries(centers.map((c) => [c.id, c.timeZone]))).toEqual({
      e: "America/New_York",
      m: "America/Denver",
      a: "America/Phoenix",
      p: "America/Los_Angeles",
    });
    expect(centers.every((c) => c.workingHours[1].opens === "09:00")).toBe(true);
  });

  it("reads working hours in other shapes, and drops only the day it cannot read", async () => {
    const warnings = captureWarnings();
    const client = await clientFor({
      "/v1/centers": {
        body: {
          centers: [
            center({
              working_hours: [
                { day_of_week: "Monday", start_time: "2020-01-01T09:00:00", end_time: "2020-01-01T19:00:00" },
                { day_of_week: "2", start_time: "9:30 AM", end_time: "6:00 PM" },
                { day_of_week: "Wed", start_time: "09:00:00", end_time: "17:00:00", is_closed: false },
                { start_time: "09:00", end_time: "17:00" },
                { day_of_week: 4, start_time: "later", end_time: "19:00" },
                { day_of_week: 9, start_time: "09:00", end_time: "17:00" },
                { day_of_week: 5, start_time: "18:00", end_time: "09:00" },
                { day_of_week: 6, is_closed: true },
                "Sunday 9-5",
              ],
            }),
          ],
        },
      },
    });
    const [only] = (await client.listCenters()).centers;
    expect(only.workingHours).toEqual([
      { dayOfWeek: 0, opens: null, closes: null },
      { dayOfWeek: 1, opens: "09:00", closes: "19:00" },
      { dayOfWeek: 2, opens: "09:30", closes: "18:00" },
      { dayOfWeek: 3, opens: "09:00", closes: "17:00" },
      { dayOfWeek: 4, opens: null, closes: null },
      { dayOfWeek: 5, opens: null, closes: null },
      { dayOfWeek: 6, opens: null, closes: null },
    ]);
    const dropped = warnings.filter((w) => w.message === "spa working day dropped");
    expect(dropped).toHaveLength(5);
    expect(dropped.every((w) => w.id === "C1")).toBe(true);
  });

  it("keeps a clinic whose working_hours is not a list, with every day closed", async () => {
    const client = await clientFor({
      "/v1/centers": { body: { centers: [center({ working_hours: { monday: "9-5" } })] } },
    });
    const [only] = (await client.listCenters()).centers;
    expect(only.workingHours.every((d) => d.opens === null)).toBe(true);
  });

  it("still refuses an answer without the list itself", async () => {
    const client = await clientFor({ "/v1/centers": { body: { clinics: [center()] } } });
    await expect(client.listCenters()).rejects.toMatchObject({ kind: "invalid-response", status: 502 });
  });
});

describe("lenient reading of services and therapists", () => {
  const service = (overrides: Record<string, unknown> = {}) => ({
    id: "S1",
    name: "Glow Peel",
    duration: 30,
    price_info: { sale_price: 150 },
    add_ons_info: { is_add_on: false, add_ons_list: [{ id: "A1" }] },
    ...overrides,
  });

  it("drops a service without a duration and an add-on entry without an id, and keeps the rest", async () => {
    const warnings = captureWarnings();
    const client = await clientFor({
      "/v1/Centers/C1/services": {
        body: {
          services: [
            service({ add_ons_info: { is_add_on: false, add_ons_list: [{ id: "A1" }, { name: "no id" }, "A2", 7] } }),
            service({ id: "S2", duration: "thirty" }),
            service({ id: "S3", price_info: "free", catalog_info: "yes", additional_info: { category: "Peels" } }),
          ],
          page_info: { total: 3 },
        },
      },
    });
    const services = await client.listServices("C1");
    expect(services?.map((s) => s.id)).toEqual(["s1", "s3"]);
    expect(services?.[0].addOnIds).toEqual(["a1", "a2"]);
    expect(services?.[1]).toMatchObject({ price: 0, category: "", canBook: true });
    expect(warnings.filter((w) => w.kind === "add_on")).toHaveLength(2);
    expect(warnings).toContainEqual(
      expect.objectContaining({ kind: "service", id: "S2", reason: "duration: invalid_type", center: "C1" }),
    );
  });

  it("drops a therapist without an id and reads one without personal_info", async () => {
    const client = await clientFor({
      "/v1/centers/C1/therapists": {
        body: { therapists: [{ personal_info: { first_name: "Ann" } }, { id: "T2", job_info: null }] },
      },
    });
    expect(await client.listTherapists("C1")).toEqual([
      { id: "t2", firstName: "", lastName: "", displayName: "", jobTitle: "", imageUrl: null },
    ]);
  });

  it("reads a service's catalog picture as a string or a list, and anything else as none", async () => {
    const client = await clientFor({
      "/v1/Centers/C1/services": {
        body: {
          services: [
            service({ id: "S1", image_paths: " https://img.example.com/peel.jpg " }),
            service({ id: "S2", image_paths: [7, "", "https://img.example.com/laser.jpg"] }),
            service({ id: "S3", image_paths: { url: "https://img.example.com/x.jpg" } }),
            service({ id: "S4", image_paths: null }),
          ],
          page_info: { total: 4 },
        },
      },
    });
    expect((await client.listServices("C1"))?.map((s) => s.imageUrl)).toEqual([
      "https://img.example.com/peel.jpg",
      "https://img.example.com/laser.jpg",
      null,
      null,
    ]);
  });

  it("reads a therapist's picture from the employee's vanity_image_url, an empty one as none", async () => {
    const client = await clientFor({
      "/v1/centers/C1/therapists": {
        body: {
          therapists: [
            { id: "T1", vanity_image_url: "https://img.example.com/ann.jpg" },
            { id: "T2", vanity_image_url: "" },
          ],
        },
      },
    });
    expect((await client.listTherapists("C1"))?.map((t) => t.imageUrl)).toEqual([
      "https://img.example.com/ann.jpg",
      null,
    ]);
  });

  it("asks for the services' pictures", async () => {
    const { client, backend } = await clientOnJsonBackend({
      "/v1/Centers/C1/services": { body: { services: [service()], page_info: { total: 1 } } },
    });
    await client.listServices("C1");
    expect(backend.requests[0].url.searchParams.getAll("expand")).toContain("image_paths");
  });
});

describe("reading days and clock times", () => {
  it.each([
    [0, 0],
    [6, 6],
    [7, null],
    [1.5, null],
    ["3", 3],
    ["Monday", 1],
    ["sunday", 0],
    ["SAT", 6],
    ["Th", null],
    ["", null],
    [null, null],
  ])("day %j is %j", (value, day) => {
    expect(readDayOfWeek(value)).toBe(day);
  });

  it.each([
    ["09:00", "09:00"],
    ["9:00", "09:00"],
    ["19:30:00", "19:30"],
    ["2020-01-01T08:15:00", "08:15"],
    ["12:00 PM", "12:00"],
    ["12:30 am", "00:30"],
    ["7:05 pm", "19:05"],
    ["24:00", "24:00"],
    ["25:00", null],
    ["13:00 PM", null],
    ["noon", null],
    [900, "09:00"],
  ])("clock %j is %j", (value, clock) => {
    expect(readClockTime(value)).toBe(clock);
  });
});

describe("clinic time zones are never guessed (decision 035)", () => {
  // Zenoti's Guest.Membership.Created webhook sample: the id set, every name null.
  const unnamed = (id: number) => ({ id, name: null, standard_name: null, identifier_name: null, abbreviation: null });
  const pacific = center({ id: "P1", name: "Glow Clinic Seattle", location: { time_zone: unnamed(4) } });

  it("refuses a clinic whose zone has no name, logging it with what to set, where the earlier client made it US Central", async () => {
    const errors = captureWarnings();
    const client = await clientFor({ "/v1/centers": { body: { centers: [pacific, center()] } } });
    const list = await client.listCenters();
    expect(list.centers.map((c) => c.id)).toEqual(["c1"]);
    expect(list.withoutTimeZone).toEqual([
      expect.objectContaining({ id: "p1", name: "Glow Clinic Seattle", zoneId: 4 }),
    ]);
    expect(errors).toContainEqual(
      expect.objectContaining({
        message: "clinic refused: its time zone is unknown",
        center: "p1",
        fix: "set SPA_TIME_ZONE_IDS=4=<IANA zone> or SPA_CENTER_TIME_ZONES=p1=<IANA zone>",
      }),
    );
  });

  it("resolves it from the setting for its center, or for Zenoti's zone id", async () => {
    const answers = {
      "/v1/centers": { body: { centers: [pacific, center({ id: "P2", location: { time_zone: unnamed(4) } })] } },
    };
    const byCenter = (
      await clientOnJsonBackend(answers, {
        timeZones: { byCenter: new Map([["p1", "America/Los_Angeles"]]), byZoneId: new Map() },
      })
    ).client;
    const centersOnly = await byCenter.listCenters();
    expect(centersOnly.centers.map((c) => [c.id, c.timeZone])).toEqual([["p1", "America/Los_Angeles"]]);
    expect(centersOnly.withoutTimeZone.map((c) => c.id)).toEqual(["p2"]);
    const byZoneId = (
      await clientOnJsonBackend(answers, {
        timeZones: { byCenter: new Map(), byZoneId: new Map([[4, "America/Los_Angeles"]]) },
      })
    ).client;
    expect((await byZoneId.listCenters()).centers.map((c) => c.timeZone)).toEqual([
      "America/Los_Angeles",
      "America/Los_Angeles",
    ]);
  });

  it("takes the zone another clinic of the organisation names under the same id", async () => {
    const named = center({
      id: "P3",
      location: { time_zone: { id: 4, name: "(UTC-08:00) Pacific Time (US & Canada)" } },
    });
    const client = await clientFor({ "/v1/centers": { body: { centers: [pacific, named] } } });
    const list = await client.listCenters();
    expect(list.centers.map((c) => [c.id, c.timeZone])).toEqual([
      ["p1", "America/Los_Angeles"],
      ["p3", "America/Los_Angeles"],
    ]);
    expect(list.withoutTimeZone).toEqual([]);
  });

  it("lets the setting for a center win over the name Zenoti gives", async () => {
    const client = (
      await clientOnJsonBackend(
        { "/v1/centers": { body: { centers: [center()] } } },
        { timeZones: { byCenter: new Map([["c1", "America/Detroit"]]), byZoneId: new Map() } },
      )
    ).client;
    expect((await client.listCenters()).centers[0].timeZone).toBe("America/Detroit");
  });
});
