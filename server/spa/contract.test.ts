import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startJsonBackend } from "../../tests/helpers/json-backend";
import {
  createTestGuest,
  saveTestCard,
  startSandbox,
  TEST_API_KEY,
  TEST_USER,
} from "../../tests/helpers/sandbox-server";
import { seedGuid } from "../spa-sandbox/db";
import { STRICT_PROFILE } from "../spa-sandbox/tenant-profiles";
import { createSpaClient } from "./client.server";
import { guestCreatePayload, type NewGuest } from "./booking.server";
import { createSpaHttp } from "./http.server";
import { z } from "zod";

/**
 * Zenoti's contract, both ways, from its own published sample answers (tests/fixtures/zenoti, each
 * naming its source). For each call: (a) the client reads the sample and maps it right; (b) the
 * sandbox's answer to the same call has the sample's shape: every key of the sample, with the same
 * JSON type, recursively (arrays by their first element). The sandbox may add keys; a null in the
 * sample says nothing about the type, so any value stands against it.
 */

type Fixture = {
  source: { repository: string; path: string; note: string };
  call: { method: string; path: string };
  response: unknown;
};

const fixture = (name: string): Fixture =>
  JSON.parse(
    fs.readFileSync(path.join(import.meta.dirname, "../../tests/fixtures/zenoti", `${name}.json`), "utf8"),
  ) as Fixture;

const jsonType = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value);

/** Where `ours` departs from the shape of `sample`, one line per difference. */
export function shapeDifferences(sample: unknown, ours: unknown, at = "$"): string[] {
  if (sample === null || sample === undefined) return [];
  if (jsonType(sample) !== jsonType(ours))
    return [`${at}: ${jsonType(sample)} in the sample, ${jsonType(ours)} in ours`];
  if (Array.isArray(sample)) {
    const list = ours as unknown[];
    return sample.length > 0 && list.length > 0 ? shapeDifferences(sample[0], list[0], `${at}[0]`) : [];
  }
  if (typeof sample === "object") {
    const mine = ours as Record<string, unknown>;
    return Object.entries(sample as Record<string, unknown>).flatMap(([key, value]) =>
      key in mine ? shapeDifferences(value, mine[key], `${at}.${key}`) : [`${at}.${key}: missing in ours`],
    );
  }
  return [];
}

/**
 * Calls whose sandbox answer is known not to have the sample's whole shape yet, with what it lacks.
 * The samples show fully filled records; how Zenoti fills those keys for a guest or an invoice that
 * has no such data (null, an empty object, absent) is not public, so the sandbox does not invent
 * them. The test fails once a shape matches, so the entry is removed. CONTRACT_PRINT=1 lists the
 * differences.
 */
const knownSandboxGaps = new Map<string, string>([
  [
    "guest-create",
    "no work_phone, home_phone, is_minor, nationality_id, lock_guest_custom_data, pan, recieve_lp_stmt, preferred_therapist; middle_name null",
  ],
  ["guest-get", "as guest-create; referral and primary_employee null for a guest without them"],
  ["guest-search", "as guest-get"],
  ["invoice", "no receipt_number, lock, group and GST keys, guest names, per-line codes or appointments"],
]);

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
/** The sandbox as the strict tenant: every documented variant of Zenoti's answers at once (decision 035). */
let strict: Awaited<ReturnType<typeof startSandbox>>;
const AUSTIN = seedGuid("center:ATX");

beforeAll(async () => {
  sandbox = await startSandbox();
  strict = await startSandbox({ tenant: STRICT_PROFILE });
});
afterAll(async () => {
  await sandbox.stop();
  await strict.stop();
});

/** The sandbox's raw answer to a call, as JSON. */
async function sandboxAnswer(
  method: string,
  callPath: string,
  body?: unknown,
  authorization = `apikey ${TEST_API_KEY}`,
): Promise<unknown> {
  const response = await fetch(`${sandbox.baseUrl}${callPath}`, {
    method,
    headers: {
      authorization,
      accept: "application/json",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response.json();
}

/** The strict tenant's raw answer to a read, as JSON. */
async function strictAnswer(callPath: string): Promise<unknown> {
  const response = await fetch(`${strict.baseUrl}${callPath}`, {
    headers: { authorization: `apikey ${TEST_API_KEY}`, accept: "application/json" },
  });
  return response.json();
}

/** The differences the pending calls show today, to check the reasons given above. */
export const printPending = process.env.CONTRACT_PRINT === "1";

/** A client whose back end answers `callPath` with the fixture's sample. */
async function clientOnSample(name: string, callPath: string) {
  const backend = await startJsonBackend({ [callPath]: { body: fixture(name).response } });
  return { client: createSpaClient({ baseUrl: backend.baseUrl, auth: { type: "apikey", apiKey: "k" } }), backend };
}

function expectSandboxShape(name: string, ours: unknown) {
  const differences = shapeDifferences(fixture(name).response, ours);
  if (printPending) console.log(name, differences);
  if (knownSandboxGaps.has(name)) {
    // A known gap: say so loudly once it is closed, so the entry is removed.
    expect(differences, `${name} now matches: remove it from knownSandboxGaps`).not.toEqual([]);
    return;
  }
  expect(differences).toEqual([]);
}

const newGuest = (email: string): NewGuest => ({
  centerId: AUSTIN,
  firstName: "Mia",
  lastName: "Rivera",
  email,
  phone: "5125550177",
  address: { line1: "12 Oak St", city: "Austin", zip: "78701" },
  consents: { marketingEmail: false, marketingSms: false, transactionalEmail: true, transactionalSms: true },
  tags: [],
});

describe("every fixture names its public source", () => {
  it.each(
    fs.readdirSync(path.join(import.meta.dirname, "../../tests/fixtures/zenoti")).map((f) => f.replace(/\.json$/, "")),
  )("%s", (name) => {
    const { source, call } = fixture(name);
    expect(source.repository).toMatch(/^[\w.-]+\/[\w.-]+$/);
    expect(source.path).not.toBe("");
    expect(call.method).toMatch(/^(GET|POST|PUT|DELETE)$/);
  });
});

describe("the shape comparison", () => {
  it("finds a missing key, a changed type and a difference inside the first array element", () => {
    expect(shapeDifferences({ a: 1, b: "x", c: [{ d: true }], e: null }, { a: "1", c: [{}], e: 5, extra: 1 })).toEqual([
      "$.a: number in the sample, string in ours",
      "$.b: missing in ours",
      "$.c[0].d: missing in ours",
    ]);
    expect(shapeDifferences({ a: { b: 1 } }, { a: null })).toEqual(["$.a: object in the sample, null in ours"]);
  });
});

describe("POST /v1/tokens", () => {
  it("(a) the client takes the access token and honours its expiry", async () => {
    const sample = fixture("tokens").response as { credentials: { access_token: string; access_token_expiry: string } };
    const seen: string[] = [];
    const backend = await startJsonBackend({
      "/v1/tokens": { body: sample },
      "/v1/centers": (_url) => ({ body: { centers: [], page_info: null } }),
    });
    try {
      let now = Date.parse(sample.credentials.access_token_expiry) - 10 * 60_000;
      const spy: typeof fetch = (input, init) => {
        seen.push(String(new Headers(init?.headers).get("authorization") ?? ""));
        return fetch(input, init);
      };
      const client = createSpaClient({
        baseUrl: backend.baseUrl,
        fetch: spy,
        clock: () => now,
        auth: {
          type: "token",
          endpoint: "v1",
          username: "u",
          password: "p",
          clientId: "app",
          accountName: "acct",
          appSecret: "s",
        },
      });
      await client.listCenters();
      expect(seen[1]).toBe(`bearer ${sample.credentials.access_token}`);
      now += 9 * 60_000 + 30_000; // within a minute of the sample's expiry: a new token first
      await client.listCenters();
      expect(backend.requests.filter((r) => r.url.pathname === "/v1/tokens")).toHaveLength(2);
    } finally {
      await backend.stop();
    }
  });

  it("(b) the sandbox answers in the sample's shape", async () => {
    const ours = await sandboxAnswer("POST", "/v1/tokens", {
      account_name: "glowclinic",
      user_name: TEST_USER.username,
      password: TEST_USER.password,
      grant_type: "password",
      app_id: TEST_USER.clientId,
      app_secret: "app-secret-1",
      device_id: "contract-test",
    });
    expectSandboxShape("tokens", ours);
  });
});

describe("GET /v1/Centers/{center_id}", () => {
  it("(a) the client reads the thin center as existing", async () => {
    const { client, backend } = await clientOnSample("center", "/v1/Centers/34f7b069-1bce-4f24-b9b2-f58ebbf768f0");
    try {
      expect(await client.centerExists("34f7b069-1bce-4f24-b9b2-f58ebbf768f0")).toBe(true);
    } finally {
      await backend.stop();
    }
  });

  it("(b) the sandbox answers in the sample's shape", async () => {
    expectSandboxShape("center", await sandboxAnswer("GET", `/v1/Centers/${AUSTIN}`));
  });
});

describe("GET /v1/Centers/{center_id}/services", () => {
  it("(a) the client maps each service, its price in cents, and keeps the bookable ones", async () => {
    const { client, backend } = await clientOnSample("services", "/v1/Centers/C1/services");
    try {
      const services = await client.listServices("C1");
      const sample = (
        fixture("services").response as {
          services: { id: string; name: string; duration: number; price_info: { sale_price: number } }[];
        }
      ).services;
      expect(services?.length).toBe(sample.length);
      expect(services?.[0]).toMatchObject({
        id: sample[0].id.toLowerCase(),
        name: sample[0].name,
        durationMinutes: sample[0].duration,
        price: Math.round(sample[0].price_info.sale_price * 100),
        isAddOn: false,
        addOnIds: [],
        canBook: true,
      });
    } finally {
      await backend.stop();
    }
  });

  it("(b) the sandbox answers in the sample's shape", async () => {
    expectSandboxShape("services", await sandboxAnswer("GET", `/v1/Centers/${AUSTIN}/services?size=100`));
  });
});

describe("GET /v1/Centers/{center_id}/services with its blocks expanded", () => {
  it("(a) the client reads category, catalog and add-on blocks of one service", async () => {
    const element = fixture("service-expanded").response;
    const backend = await startJsonBackend({
      "/v1/Centers/C1/services": { body: { services: [element], page_info: null } },
    });
    try {
      const client = createSpaClient({ baseUrl: backend.baseUrl, auth: { type: "apikey", apiKey: "k" } });
      expect(await client.listServices("C1")).toEqual([
        expect.objectContaining({
          id: "55265b47-ad10-4ee6-8883-ff198c5dc433",
          name: "Acrylic -  Natural Full Set Extension",
          displayName: "Acrylic -  Natural Full Set Extension",
          category: "Hands And Feet",
          subCategory: "Nail Extension",
          durationMinutes: 90,
          price: 31000,
          isAddOn: false,
          addOnIds: [],
          canBook: true,
        }),
      ]);
    } finally {
      await backend.stop();
    }
  });

  it("(b) the sandbox's service element has the sample's shape", async () => {
    const ours = (await sandboxAnswer(
      "GET",
      `/v1/Centers/${AUSTIN}/services?size=100&expand=additional_info&expand=catalog_info&expand=variants_info&expand=add_ons_info`,
    )) as { services: unknown[] };
    expect(shapeDifferences(fixture("service-expanded").response, ours.services[0])).toEqual([]);
  });
});

describe("GET /v1/centers/{center_id}/therapists", () => {
  it("(a) the client maps each therapist's names and job", async () => {
    const { client, backend } = await clientOnSample("therapists", "/v1/centers/C1/therapists");
    try {
      const nurses = await client.listTherapists("C1");
      expect(nurses?.[0]).toEqual({
        id: "1afd493a-4aad-48a3-8f94-9fdea88691ac",
        firstName: "Ajay",
        lastName: "Kumar Singh",
        displayName: "Ajay Kumar Singh",
        jobTitle: "Skin Therapist",
        // The sample carries no picture.
        imageUrl: null,
      });
      expect(nurses?.length).toBe((fixture("therapists").response as { therapists: unknown[] }).therapists.length);
    } finally {
      await backend.stop();
    }
  });

  it("(b) the sandbox answers in the sample's shape", async () => {
    expectSandboxShape("therapists", await sandboxAnswer("GET", `/v1/centers/${AUSTIN}/therapists`));
  });
});

describe("POST /v1/guests", () => {
  it("(a) the client reads the created guest", async () => {
    const backend = await startJsonBackend({ "/v1/guests": { body: fixture("guest-create").response } });
    try {
      const client = createSpaClient({ baseUrl: backend.baseUrl, auth: { type: "apikey", apiKey: "k" } });
      const guest = await client.createGuest(newGuest("abcd@example.com"));
      expect(guest).toMatchObject({
        id: "7ffbeb62-efd0-435c-b98b-2475c311868b",
        centerId: "b5ed4fbb-4c05-4195-b313-1320b620224b",
        firstName: "abcd",
        lastName: "efgh",
        phone: "7777788888",
      });
    } finally {
      await backend.stop();
    }
  });

  it("(b) the sandbox answers in the sample's shape", async () => {
    expectSandboxShape(
      "guest-create",
      await sandboxAnswer("POST", "/v1/guests", guestCreatePayload(newGuest("contract.create@example.com"))),
    );
  });
});

describe("GET /v1/guests/{guest_id} and /v1/guests/search", () => {
  it("(a) the client reads a guest, and a search's guests", async () => {
    const backend = await startJsonBackend({
      "/v1/guests/G1": { body: fixture("guest-get").response },
      "/v1/guests/search": { body: fixture("guest-search").response },
    });
    try {
      const client = createSpaClient({ baseUrl: backend.baseUrl, auth: { type: "apikey", apiKey: "k" } });
      const sample = fixture("guest-get").response as {
        id: string;
        personal_info: { first_name: string; last_name: string };
      };
      expect(await client.getGuest("G1")).toMatchObject({
        id: sample.id.toLowerCase(),
        firstName: sample.personal_info.first_name,
        lastName: sample.personal_info.last_name,
      });
      const found = await client.findGuestsByEmail("simon@simon.com");
      expect(found[0]).toMatchObject({
        id: "a9996495-6bcd-415a-adb1-052353d9ef9f",
        email: "simon@simon.com",
        phone: "7777799988",
        firstName: "simon",
      });
    } finally {
      await backend.stop();
    }
  });

  it("(a) the client asks for the parts of a guest Zenoti sends only with expand", async () => {
    const { client, backend } = await clientOnSample("guest-get", "/v1/guests/G1");
    try {
      expect(await client.getGuest("G1")).toMatchObject({
        consents: { marketingEmail: true, marketingSms: true, transactionalEmail: true, transactionalSms: true },
      });
      expect(backend.requests[0].url.searchParams.getAll("expand")).toEqual([
        "address_info",
        "preferences",
        "tags",
        "referral",
      ]);
    } finally {
      await backend.stop();
    }
  });

  it("(b) the sandbox answers both in the samples' shapes", async () => {
    const created = (await sandboxAnswer(
      "POST",
      "/v1/guests",
      guestCreatePayload(newGuest("contract.read@example.com")),
    )) as { id: string };
    expectSandboxShape(
      "guest-get",
      await sandboxAnswer(
        "GET",
        `/v1/guests/${created.id}?expand=address_info&expand=preferences&expand=tags&expand=referral`,
      ),
    );
    expectSandboxShape(
      "guest-search",
      await sandboxAnswer("GET", "/v1/guests/search?email=contract.read%40example.com"),
    );
  });
});

describe("POST /v1/bookings", () => {
  const request = (guestId: string, serviceId: string) => ({
    centerId: AUSTIN,
    date: "2030-01-07",
    guestId,
    serviceId,
    therapistId: null,
    addOnIds: [],
  });

  it("(a) the client takes the booking id", async () => {
    const backend = await startJsonBackend({ "/v1/bookings": { body: fixture("booking-create").response } });
    try {
      const client = createSpaClient({ baseUrl: backend.baseUrl, auth: { type: "apikey", apiKey: "k" } });
      expect((await client.createBooking(request("G1", "S1"))).toLowerCase()).toBe(
        "15b0cc65-1e47-440d-8208-966959e8c93e",
      );
    } finally {
      await backend.stop();
    }
  });

  it("(b) the sandbox answers in the sample's shape", async () => {
    const client = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
    const guest = await client.createGuest(newGuest("contract.booking@example.com"));
    const facial = (await client.listServices(AUSTIN))!.find((s) => s.code === "FT-NEW")!;
    const { centerId, date, guestId, serviceId } = request(guest.id, facial.id);
    const ours = await sandboxAnswer("POST", "/v1/bookings?is_double_booking_enabled=false", {
      center_id: centerId,
      date,
      is_only_catalog_employees: true,
      guests: [{ id: guestId, items: [{ item: { id: serviceId } }] }],
    });
    expectSandboxShape("booking-create", ours);
  });
});

/** A confirmed booking at Austin in the sandbox, made through the client: its guest and invoice. */
async function bookedAppointment(): Promise<{ guestId: string; invoiceId: string }> {
  const client = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
  const guest = await client.createGuest(newGuest("contract.booked@example.com"));
  const services = await client.listServices(AUSTIN);
  const facial = services!.find((s) => s.code === "FT-NEW")!;
  for (let days = 2; days < 12; days++) {
    const date = new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    const bookingId = await client.createBooking({
      centerId: AUSTIN,
      date,
      guestId: guest.id,
      serviceId: facial.id,
      therapistId: null,
      addOnIds: [],
    });
    const { times } = await client.listSlots(bookingId, date);
    if (times.length === 0) continue;
    await client.reserveSlot(bookingId, times[0], "America/Chicago");
    const confirmed = await client.confirmBooking(bookingId, "America/Chicago");
    if (confirmed) return { guestId: guest.id, invoiceId: confirmed.invoiceId };
  }
  throw new Error("no open time at Austin in the next days");
}

describe("GET /v1/guests/{guest_id}/appointments and GET /v1/invoices/{invoice_id}", () => {
  it("(a) the client reads the appointments and the invoice, in cents", async () => {
    const backend = await startJsonBackend({
      "/v1/guests/G1/appointments": { body: fixture("guest-appointments").response },
      "/v1/invoices/I1": { body: fixture("invoice").response },
    });
    try {
      const client = createSpaClient({ baseUrl: backend.baseUrl, auth: { type: "apikey", apiKey: "k" } });
      const [first] = await client.listGuestAppointments("G1");
      expect(first).toMatchObject({
        invoiceId: "f0d17b47-aee6-477d-ae92-e160280e8d89",
        centerId: "03ff6a3b-0bf9-48b7-b01d-cc1a02cfa97c",
      });
      expect(first.services[0]).toMatchObject({
        appointmentId: "3a546747-4d2e-4c81-ab19-2ea1800d9567",
        status: 1,
        start: "2019-08-29T10:45:00",
        name: "Hair cut 1",
      });
      const invoice = await client.getInvoice("I1");
      expect(invoice).toMatchObject({
        id: "34ca4f0f-c11c-434f-9a36-cba6df701397",
        reference: "CMEMGM117798",
        total: 301490,
        paid: 301490,
        balance: 0,
      });
    } finally {
      await backend.stop();
    }
  });

  it("(b) the sandbox answers both in the samples' shapes", async () => {
    const { guestId, invoiceId } = await bookedAppointment();
    expectSandboxShape(
      "guest-appointments",
      await sandboxAnswer("GET", `/v1/guests/${guestId}/appointments?page=1&size=20`),
    );
    expectSandboxShape(
      "invoice",
      await sandboxAnswer("GET", `/v1/invoices/${invoiceId}?expand=InvoiceItems&expand=Transactions`),
    );
  });
});

describe("GET /v1/centers/{center_id}/memberships", () => {
  it("(a) the client reads each plan, its price in cents and its billing cycle as sent", async () => {
    const { client, backend } = await clientOnSample("center-memberships", "/v1/centers/C1/memberships");
    try {
      expect(await client.listMembershipPlans("C1")).toEqual([
        {
          id: "bf6da36a-f402-4f66-b6d1-953829288a83",
          name: "Guest Pass MEmbership Two - Cloned",
          description: "",
          priceCents: 15000,
          // The sample's discounts are empty: no member prices.
          billingCycle: "12 Months",
          recurring: true,
          coveredServices: [],
          serviceDiscounts: [],
          terms: null,
        },
      ]);
    } finally {
      await backend.stop();
    }
  });

  it("(b) the sandbox answers in the sample's shape", async () => {
    expectSandboxShape(
      "center-memberships",
      await sandboxAnswer("GET", `/v1/centers/${AUSTIN}/memberships?show_in_catalog=true`),
    );
  });
});

describe("GET /v1/centers?expand=working_hours", () => {
  const sampleHours = () =>
    (fixture("centers-working-hours").response as { Centers: { working_hours: unknown[] }[] }).Centers[0].working_hours;

  it('(a) the client reads the hours in Zenoti\'s published form, "800" to "2200", every day', async () => {
    const tribeca = {
      id: "C1",
      name: "Tribeca",
      location: {
        lattitude: 40.71,
        longitude: -74.0,
        time_zone: { id: 15, name: "(UTC-05:00) Eastern Time (US & Canada)", standard_name: "Eastern Standard Time" },
      },
      working_hours: sampleHours(),
    };
    const backend = await startJsonBackend({
      "/v1/centers": { body: { centers: [tribeca], page_info: null, error: null } },
    });
    try {
      const client = createSpaClient({ baseUrl: backend.baseUrl, auth: { type: "apikey", apiKey: "k" } });
      const [center] = (await client.listCenters()).centers;
      expect(center.workingHours).toEqual(
        Array.from({ length: 7 }, (_, dayOfWeek) => ({ dayOfWeek, opens: "08:00", closes: "22:00" })),
      );
    } finally {
      await backend.stop();
    }
  });

  it("(b) the strict tenant's working day has the sample's shape", async () => {
    const ours = (await strictAnswer("/v1/centers?expand=working_hours&size=100")) as {
      centers: { working_hours: unknown[] }[];
    };
    expect(shapeDifferences(sampleHours()[0], ours.centers[0].working_hours[0])).toEqual([]);
  });
});

describe("GET /v1/guests/{guest_id}/accounts", () => {
  it("(a) the client reads the bare array of docs.zenoti.com's reference", async () => {
    const { client, backend } = await clientOnSample("guest-accounts", "/v1/guests/G1/accounts");
    try {
      expect(await client.listCards("G1", "C1")).toEqual([
        {
          accountId: "11ADA4D4-5FC9-46D4-8CB6-B1C532DB4CC4",
          brand: "visa",
          lastFour: "1234",
          expiry: "12/25",
          createdAt: null,
        },
        {
          accountId: "22BDB5E5-6FD0-57E5-9DC7-C2D643EC5DD5",
          brand: "mastercard",
          lastFour: "5678",
          expiry: "08/26",
          createdAt: null,
        },
      ]);
    } finally {
      await backend.stop();
    }
  });

  it("(b) the strict tenant answers a guest's cards in the sample's shape", async () => {
    const client = createSpaClient({ baseUrl: strict.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
    const guestId = await createTestGuest(client, AUSTIN, "Card", "Holder");
    await saveTestCard(client, guestId, AUSTIN);
    expectSandboxShape("guest-accounts", await strictAnswer(`/v1/guests/${guestId}/accounts?center_id=${AUSTIN}`));
  });
});

describe("GET /v1/centers/{center_id}/packages", () => {
  it("(a) the client reads each package's price in cents and its service benefits (item_type 2)", async () => {
    const { client, backend } = await clientOnSample("center-packages", "/v1/centers/C1/packages");
    try {
      expect(await client.listPackages("C1")).toEqual([
        {
          id: "960c75ea-e632-45fd-ba11-a5566cb6acda",
          name: "belu pack1 - web",
          description: "belu pack1",
          priceCents: 10000,
          validityDays: null,
          services: [{ serviceId: "6f7c8b4c-4344-4375-8af5-a0ecc673d568", name: "", quantity: 3 }],
        },
        {
          id: "03680053-641d-4bb6-b2b2-45ea2f9a6148",
          name: "belu services pack1",
          description: "",
          priceCents: 10000,
          validityDays: null,
          services: [],
        },
        {
          id: "d7af37a8-7b67-414f-8df3-cb65aee3564b",
          name: "DaySlash",
          description: "",
          priceCents: 10000,
          validityDays: null,
          services: [
            { serviceId: "6f7c8b4c-4344-4375-8af5-a0ecc673d568", name: "", quantity: 1 },
            { serviceId: "0d1a1625-ee1b-40b1-bc93-cd555423df25", name: "", quantity: 1 },
          ],
        },
      ]);
    } finally {
      await backend.stop();
    }
  });

  it("(b) the sandbox answers in the shape of the sample's package without a booking window", async () => {
    // The sandbox's packages have no booking window (null dates), as the sample's DaySlash: the
    // first package's dates are strings, which a null is not.
    const sample = fixture("center-packages").response as { packages: { name: string }[]; page_info: unknown };
    const windowless = { ...sample, packages: sample.packages.filter((p) => p.name === "DaySlash") };
    const ours = await sandboxAnswer("GET", `/v1/centers/${AUSTIN}/packages?page=1&size=10`);
    expect(shapeDifferences(windowless, ours)).toEqual([]);
  });
});

describe("GET /v1/guests/{guest_id}/Packages", () => {
  it("(a) the client reads each service of the sample's package, its balance as what is left", async () => {
    const backend = await startJsonBackend({
      "/v1/guests/G1/Packages": {
        body: { packages: [fixture("guest-package").response], page_info: null, error: null },
      },
    });
    try {
      const client = createSpaClient({ baseUrl: backend.baseUrl, auth: { type: "apikey", apiKey: "k" } });
      const [owned] = await client.guestPackages("G1");
      expect(owned).toMatchObject({
        userPackageId: "fe645486-7165-41de-8948-7f476c856824",
        packageId: "e19e0f53-74d3-46b7-bc87-bef8fbc185c8",
        name: "15 min facial package",
        status: 1,
      });
      expect(owned.services).toEqual([
        {
          serviceId: "d259ba65-2eec-42ca-8670-4b35c00ffd06",
          name: "Aroma Body Massage",
          total: 1,
          redeemed: 0,
          left: 0,
        },
        {
          serviceId: "1826509a-c7dc-457c-9a9a-e2c921965847",
          name: "Oxy Facial Massage",
          total: 1,
          redeemed: 0,
          left: 1,
        },
        { serviceId: "977b2015-b764-452a-9562-a45a309ffcbe", name: "Coloring", total: 2, redeemed: 0, left: 2 },
      ]);
    } finally {
      await backend.stop();
    }
  });

  it("(b) the sandbox's package services have the sample's shape, but for what Zenoti does not explain", async () => {
    const client = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
    const guestId = await createTestGuest(client, AUSTIN, "Series", "Owner");
    const accountId = await saveTestCard(client, guestId, AUSTIN);
    const { invoiceId } = await client.sellPackage(AUSTIN, guestId, seedGuid("package:PKG-PEEL-4"));
    await client.payInvoice(invoiceId, AUSTIN, accountId, "https://shop.example/purchases/verified");
    expect(await client.closeInvoice(invoiceId)).toBe("closed");
    const ours = (await sandboxAnswer("GET", `/v1/guests/${guestId}/Packages`)) as {
      packages: { services: unknown[] }[];
    };
    const sample = fixture("guest-package").response as { services: unknown[] };
    // A category code and per-session money whose meaning Zenoti does not publish are not invented.
    const unexplained = [
      "service_type_info.service_category_type",
      "balance_amount",
      "package_service_price",
      "book_with_partial_balance",
    ];
    expect(shapeDifferences(sample.services[0], ours.packages[0].services[0])).toEqual(
      unexplained.map((key) => `$.${key}: missing in ours`),
    );
  });
});

describe("Zenoti's pagination error: code and message at the top level", () => {
  it("(a) the client gives Zenoti's code and text, on HTTP 200 as on 400", async () => {
    for (const status of [200, 400]) {
      const backend = await startJsonBackend({ "/v1/centers": { status, body: fixture("pagination-error").response } });
      try {
        const client = createSpaClient({ baseUrl: backend.baseUrl, auth: { type: "apikey", apiKey: "k" } });
        await expect(client.listCenters()).rejects.toMatchObject({
          kind: "rejected",
          status,
          code: 422,
          message: "You cannot request more than 100 items.",
        });
      } finally {
        await backend.stop();
      }
    }
  });

  it("(b) the strict tenant refuses a page over 100 in the sample's shape", async () => {
    expectSandboxShape("pagination-error", await strictAnswer("/v1/centers?size=101"));
  });
});

// The raw sandbox answers above go past the client; this keeps the client's own path honest too.
it("the sandbox's answers still parse with the client", async () => {
  const http = createSpaHttp({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
  await expect(
    http.request({
      method: "GET",
      path: `/v1/centers/${AUSTIN}/therapists`,
      schema: z.object({ therapists: z.array(z.unknown()) }),
    }),
  ).resolves.toBeDefined();
});
