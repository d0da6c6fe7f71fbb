import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startJsonBackend } from "../../tests/helpers/json-backend";
import { startSandbox, TEST_API_KEY, TEST_USER } from "../../tests/helpers/sandbox-server";
import { seedGuid } from "../spa-sandbox/db";
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

type Fixture = { source: { repository: string; path: string; note: string }; call: { method: string; path: string }; response: unknown };

const fixture = (name: string): Fixture =>
  JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "../../tests/fixtures/zenoti", `${name}.json`), "utf8")) as Fixture;

const jsonType = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value);

/** Where `ours` departs from the shape of `sample`, one line per difference. */
export function shapeDifferences(sample: unknown, ours: unknown, at = "$"): string[] {
  if (sample === null || sample === undefined) return [];
  if (jsonType(sample) !== jsonType(ours)) return [`${at}: ${jsonType(sample)} in the sample, ${jsonType(ours)} in ours`];
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
  ["guest-create", "no work_phone, home_phone, is_minor, nationality_id, lock_guest_custom_data, pan, recieve_lp_stmt, preferred_therapist; middle_name null"],
  ["guest-get", "as guest-create; referral and primary_employee null for a guest without them"],
  ["guest-search", "as guest-get"],
  ["invoice", "no receipt_number, lock, group and GST keys, guest names, per-line codes or appointments"],
]);

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
const AUSTIN = seedGuid("center:ATX");

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.stop();
});

/** The sandbox's raw answer to a call, as JSON. */
async function sandboxAnswer(method: string, callPath: string, body?: unknown, authorization = `apikey ${TEST_API_KEY}`): Promise<unknown> {
  const response = await fetch(`${sandbox.baseUrl}${callPath}`, {
    method,
    headers: { authorization, accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
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
  centerId: AUSTIN, firstName: "Mia", lastName: "Rivera", email, phone: "5125550177",
  address: { line1: "12 Oak St", city: "Austin", zip: "78701" },
  consents: { marketingEmail: false, marketingSms: false, transactionalEmail: true, transactionalSms: true }, tags: [],
});

describe("every fixture names its public source", () => {
  it.each(fs.readdirSync(path.join(import.meta.dirname, "../../tests/fixtures/zenoti")).map((f) => f.replace(/\.json$/, "")))("%s", (name) => {
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
        baseUrl: backend.baseUrl, fetch: spy, clock: () => now,
        auth: { type: "token", endpoint: "v1", username: "u", password: "p", clientId: "app", accountName: "acct", appSecret: "s" },
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
      account_name: "glowclinic", user_name: TEST_USER.username, password: TEST_USER.password, grant_type: "password",
      app_id: TEST_USER.clientId, app_secret: "app-secret-1", device_id: "contract-test",
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
      const sample = (fixture("services").response as { services: { id: string; name: string; duration: number; price_info: { sale_price: number } }[] }).services;
      expect(services?.length).toBe(sample.length);
      expect(services?.[0]).toMatchObject({
        id: sample[0].id.toLowerCase(), name: sample[0].name, durationMinutes: sample[0].duration,
        price: Math.round(sample[0].price_info.sale_price * 100), isAddOn: false, addOnIds: [], canBook: true,
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
    const backend = await startJsonBackend({ "/v1/Centers/C1/services": { body: { services: [element], page_info: null } } });
    try {
      const client = createSpaClient({ baseUrl: backend.baseUrl, auth: { type: "apikey", apiKey: "k" } });
      expect(await client.listServices("C1")).toEqual([
        expect.objectContaining({
          id: "55265b47-ad10-4ee6-8883-ff198c5dc433", name: "Acrylic -  Natural Full Set Extension", displayName: "Acrylic -  Natural Full Set Extension",
          category: "Hands And Feet", subCategory: "Nail Extension", durationMinutes: 90, price: 31000, isAddOn: false, addOnIds: [], canBook: true,
        }),
      ]);
    } finally {
      await backend.stop();
    }
  });

  it("(b) the sandbox's service element has the sample's shape", async () => {
    const ours = (await sandboxAnswer("GET", `/v1/Centers/${AUSTIN}/services?size=100&expand=additional_info&expand=catalog_info&expand=variants_info&expand=add_ons_info`)) as { services: unknown[] };
    expect(shapeDifferences(fixture("service-expanded").response, ours.services[0])).toEqual([]);
  });
});

describe("GET /v1/centers/{center_id}/therapists", () => {
  it("(a) the client maps each therapist's names and job", async () => {
    const { client, backend } = await clientOnSample("therapists", "/v1/centers/C1/therapists");
    try {
      const nurses = await client.listTherapists("C1");
      expect(nurses?.[0]).toEqual({ id: "1afd493a-4aad-48a3-8f94-9fdea88691ac", firstName: "Ajay", lastName: "Kumar Singh", displayName: "Ajay Kumar Singh", jobTitle: "Skin Therapist" });
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
      expect(guest).toMatchObject({ id: "7ffbeb62-efd0-435c-b98b-2475c311868b", centerId: "b5ed4fbb-4c05-4195-b313-1320b620224b", firstName: "abcd", lastName: "efgh", phone: "7777788888" });
    } finally {
      await backend.stop();
    }
  });

  it("(b) the sandbox answers in the sample's shape", async () => {
    expectSandboxShape("guest-create", await sandboxAnswer("POST", "/v1/guests", guestCreatePayload(newGuest("contract.create@example.com"))));
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
      const sample = fixture("guest-get").response as { id: string; personal_info: { first_name: string; last_name: string } };
      expect(await client.getGuest("G1")).toMatchObject({ id: sample.id.toLowerCase(), firstName: sample.personal_info.first_name, lastName: sample.personal_info.last_name });
      const found = await client.findGuestsByEmail("simon@simon.com");
      expect(found[0]).toMatchObject({ id: "a9996495-6bcd-415a-adb1-052353d9ef9f", email: "simon@simon.com", phone: "7777799988", firstName: "simon" });
    } finally {
      await backend.stop();
    }
  });

  it("(b) the sandbox answers both in the samples' shapes", async () => {
    const created = (await sandboxAnswer("POST", "/v1/guests", guestCreatePayload(newGuest("contract.read@example.com")))) as { id: string };
    expectSandboxShape("guest-get", await sandboxAnswer("GET", `/v1/guests/${created.id}?expand=address_info&expand=preferences&expand=tags&expand=referral`));
    expectSandboxShape("guest-search", await sandboxAnswer("GET", "/v1/guests/search?email=contract.read%40example.com"));
  });
});

describe("POST /v1/bookings", () => {
  const request = (guestId: string, serviceId: string) => ({ centerId: AUSTIN, date: "2030-01-07", guestId, serviceId, therapistId: null, addOnIds: [] });

  it("(a) the client takes the booking id", async () => {
    const backend = await startJsonBackend({ "/v1/bookings": { body: fixture("booking-create").response } });
    try {
      const client = createSpaClient({ baseUrl: backend.baseUrl, auth: { type: "apikey", apiKey: "k" } });
      expect((await client.createBooking(request("G1", "S1"))).toLowerCase()).toBe("15b0cc65-1e47-440d-8208-966959e8c93e");
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
      center_id: centerId, date, is_only_catalog_employees: true, guests: [{ id: guestId, items: [{ item: { id: serviceId } }] }],
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
    const bookingId = await client.createBooking({ centerId: AUSTIN, date, guestId: guest.id, serviceId: facial.id, therapistId: null, addOnIds: [] });
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
      expect(first).toMatchObject({ invoiceId: "f0d17b47-aee6-477d-ae92-e160280e8d89", centerId: "03ff6a3b-0bf9-48b7-b01d-cc1a02cfa97c" });
      expect(first.services[0]).toMatchObject({ appointmentId: "3a546747-4d2e-4c81-ab19-2ea1800d9567", status: 1, start: "2019-08-29T10:45:00", name: "Hair cut 1" });
      const invoice = await client.getInvoice("I1");
      expect(invoice).toMatchObject({ id: "34ca4f0f-c11c-434f-9a36-cba6df701397", reference: "CMEMGM117798", total: 301490, paid: 301490, balance: 0 });
    } finally {
      await backend.stop();
    }
  });

  it("(b) the sandbox answers both in the samples' shapes", async () => {
    const { guestId, invoiceId } = await bookedAppointment();
    expectSandboxShape("guest-appointments", await sandboxAnswer("GET", `/v1/guests/${guestId}/appointments?page=1&size=20`));
    expectSandboxShape("invoice", await sandboxAnswer("GET", `/v1/invoices/${invoiceId}?expand=InvoiceItems&expand=Transactions`));
  });
});

describe("GET /v1/centers/{center_id}/memberships", () => {
  it("(a) the client reads each plan, its price in cents and its billing cycle as sent", async () => {
    const { client, backend } = await clientOnSample("center-memberships", "/v1/centers/C1/memberships");
    try {
      expect(await client.listMembershipPlans("C1")).toEqual([
        {
          id: "bf6da36a-f402-4f66-b6d1-953829288a83", name: "Guest Pass MEmbership Two - Cloned", description: "", priceCents: 15000,
          // The sample's discounts are empty: no member prices.
          billingCycle: "12 Months", recurring: true, coveredServices: [], serviceDiscounts: [], terms: null,
        },
      ]);
    } finally {
      await backend.stop();
    }
  });

  it("(b) the sandbox answers in the sample's shape", async () => {
    expectSandboxShape("center-memberships", await sandboxAnswer("GET", `/v1/centers/${AUSTIN}/memberships?show_in_catalog=true`));
  });
});

// The raw sandbox answers above go past the client; this keeps the client's own path honest too.
it("the sandbox's answers still parse with the client", async () => {
  const http = createSpaHttp({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
  await expect(http.request({ method: "GET", path: `/v1/centers/${AUSTIN}/therapists`, schema: z.object({ therapists: z.array(z.unknown()) }) })).resolves.toBeDefined();
});
