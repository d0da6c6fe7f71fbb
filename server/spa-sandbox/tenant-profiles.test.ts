import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { createTestGuest, refusal, saveTestCard, startSandbox, TEST_API_KEY } from "../../tests/helpers/sandbox-server";
import { createSpaClient } from "../spa/client.server";
import { seedGuid } from "./db";
import { STRICT_PROFILE } from "./tenant-profiles";

/**
 * The sandbox as each tenant profile answers (decision 035): the strict tenant gives every documented
 * variant of Zenoti's answers at once, and the app's client reads both tenants alike.
 */

const AUSTIN = seedGuid("center:ATX");
const FACIAL = seedGuid("service:FT-NEW");
const PEEL_SERIES = seedGuid("package:PKG-PEEL-4");
const SHOP = "https://shop.example/purchases/1/verified";
// 09:00 in Austin on Monday 30 November 2026.
const now = Date.parse("2026-11-30T15:00:00Z");

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let usual: Sandbox;
let strict: Sandbox;

beforeAll(async () => {
  usual = await startSandbox({ now: () => now });
  strict = await startSandbox({ now: () => now, tenant: STRICT_PROFILE });
});
afterAll(async () => {
  await usual.stop();
  await strict.stop();
});

const clientOf = (sandbox: Sandbox) =>
  createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY }, clock: () => now });

async function answer(sandbox: Sandbox, path: string, init: { method?: string; body?: unknown; apiKey?: string } = {}) {
  const response = await fetch(`${sandbox.baseUrl}${path}`, {
    method: init.method ?? "GET",
    headers: { authorization: `apikey ${init.apiKey ?? TEST_API_KEY}`, "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

describe("a guest's saved cards", () => {
  it("are a bare array of Zenoti's four keys at the strict tenant, the envelope otherwise; the client reads both", async () => {
    for (const sandbox of [usual, strict]) {
      const client = clientOf(sandbox);
      const guestId = await createTestGuest(client, AUSTIN, "Card", "Holder");
      const accountId = await saveTestCard(client, guestId, AUSTIN);
      const { body } = await answer(sandbox, `/v1/guests/${guestId}/accounts?center_id=${AUSTIN}`);
      if (sandbox === strict) {
        expect(body).toEqual([{ account_id: accountId, card_logo: "VISA", last_four: "4242", expiry_on: "12/2030" }]);
      } else {
        expect(body).toMatchObject({
          accounts: [{ account_id: accountId, last_four: "4242" }],
          has_expired_cards: false,
          error: null,
        });
      }
      expect(await client.listCards(guestId, AUSTIN)).toEqual([
        expect.objectContaining({ accountId, brand: "VISA", lastFour: "4242", expiry: "12/2030" }),
      ]);
    }
  });
});

describe("working hours", () => {
  it('are Zenoti\'s published form at the strict tenant, "900" to "1900" by day name, a closed day left out; the client reads the same hours', async () => {
    const hoursOf = async (sandbox: Sandbox) =>
      (
        (await answer(sandbox, "/v1/centers?expand=working_hours&size=100")).body as {
          centers: { id: string; working_hours: unknown[] }[];
        }
      ).centers.find((c) => c.id === AUSTIN)!.working_hours;
    expect(await hoursOf(strict)).toEqual([
      { day_of_week: "Monday", start_time: "900", end_time: "1900" },
      { day_of_week: "Tuesday", start_time: "900", end_time: "1900" },
      { day_of_week: "Wednesday", start_time: "900", end_time: "1900" },
      { day_of_week: "Thursday", start_time: "900", end_time: "2000" },
      { day_of_week: "Friday", start_time: "900", end_time: "1800" },
      { day_of_week: "Saturday", start_time: "1000", end_time: "1600" },
    ]);
    expect(await hoursOf(usual)).toContainEqual({
      day_of_week: 1,
      start_time: "09:00",
      end_time: "19:00",
      is_closed: false,
    });
    // The strict tenant names no time zone, so its clinics are listed apart (decision 035), with their
    // hours, and each is logged as refused.
    const refusedLogs = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    onTestFinished(() => refusedLogs.mockRestore());
    const clinicHours = async (sandbox: Sandbox) => {
      const { centers, withoutTimeZone } = await clientOf(sandbox).listCenters();
      return [...centers, ...withoutTimeZone]
        .map((c) => [c.id, c.workingHours])
        .sort(([a], [b]) => String(a).localeCompare(String(b)));
    };
    const strictHours = await clinicHours(strict);
    expect(strictHours).toEqual(await clinicHours(usual));
    expect(strictHours.find(([id]) => id === AUSTIN)?.[1]).toEqual(
      expect.arrayContaining([
        { dayOfWeek: 0, opens: null, closes: null },
        { dayOfWeek: 1, opens: "09:00", closes: "19:00" },
      ]),
    );
  });
});

describe("errors", () => {
  it("are `{ code, message }` at the top level at the strict tenant, in place of both error objects", async () => {
    const unknownGuest = `/v1/guests/${crypto.randomUUID()}`;
    expect(await answer(strict, unknownGuest)).toEqual({
      status: 200,
      body: { code: 414, message: "Guest not found" },
    });
    expect((await answer(usual, unknownGuest)).body).toEqual(
      expect.objectContaining({ error: { code: 414, message: "Guest not found" } }),
    );
    expect(await answer(strict, "/v1/centers?size=101")).toEqual({
      status: 200,
      body: { code: 422, message: "You cannot request more than 100 items" },
    });
    expect(await answer(strict, `/v1/centers/${crypto.randomUUID()}/packages`)).toEqual({
      status: 200,
      body: { packages: null, page_info: null, code: 502, message: "Invalid center_id" },
    });
    expect(await answer(strict, "/v1/centers", { apiKey: "wrong" })).toEqual({
      status: 401,
      body: { code: 401, message: "Authorization has been denied for this request." },
    });
  });

  it("keep their meaning for the client at the strict tenant: guest not found, hold lost, duplicate email, unknown center, not paid", async () => {
    const client = clientOf(strict);
    expect(await client.getGuest(crypto.randomUUID())).toBeNull();
    expect(await client.listTherapists(crypto.randomUUID())).toBeNull();
    expect(await client.listPackages(crypto.randomUUID())).toBeNull();

    const guestId = await createTestGuest(client, AUSTIN, "Strict", "Guest");
    const email = (await client.getGuest(guestId))!.email!;
    const duplicate = client.createGuest({
      centerId: AUSTIN,
      firstName: "Other",
      lastName: "Guest",
      email,
      phone: "5125550999",
      consents: { marketingEmail: false, marketingSms: false, transactionalEmail: true, transactionalSms: true },
      tags: [],
    });
    expect(await refusal(duplicate)).toBe(442);

    // Confirmed without a hold: Zenoti's 4072, the hold is gone.
    const bookingId = await client.createBooking({
      centerId: AUSTIN,
      date: "2026-12-08",
      guestId,
      serviceId: FACIAL,
      therapistId: null,
      addOnIds: [],
    });
    expect(await client.confirmBooking(bookingId, "America/Chicago")).toBeNull();

    const { invoiceId } = await client.sellPackage(AUSTIN, guestId, PEEL_SERIES);
    expect(await client.closeInvoice(invoiceId)).toBe("not-paid");
  });
});

describe("a guest read", () => {
  it("carries preferences and address only when asked for with expand at the strict tenant; the client asks, so consents are known", async () => {
    const client = clientOf(strict);
    const guest = await client.createGuest({
      centerId: AUSTIN,
      firstName: "Pref",
      lastName: "Erences",
      email: `pref.${crypto.randomUUID().slice(0, 8)}@example.com`,
      phone: "5125550888",
      address: { line1: "12 Oak St", city: "Austin", zip: "78701" },
      consents: { marketingEmail: true, marketingSms: false, transactionalEmail: true, transactionalSms: true },
      tags: [],
    });
    const bare = (await answer(strict, `/v1/guests/${guest.id}`)).body;
    expect(bare).toMatchObject({ id: guest.id, preferences: null, address_info: null });
    const expanded = (await answer(strict, `/v1/guests/${guest.id}?expand=address_info&expand=preferences`)).body;
    expect(expanded).toMatchObject({
      preferences: { receive_marketing_email: true },
      address_info: { city: "Austin" },
    });
    expect(await client.getGuest(guest.id)).toMatchObject({
      consents: { marketingEmail: true, marketingSms: false, transactionalEmail: true, transactionalSms: true },
      address: { line1: "12 Oak St", city: "Austin", zip: "78701" },
    });
  });
});

describe("packages", () => {
  it("list service benefits as item_type 2 and a guest's sessions as Zenoti's sample does, whatever the tenant; the client reads them", async () => {
    for (const sandbox of [usual, strict]) {
      const client = clientOf(sandbox);
      const { body } = await answer(sandbox, `/v1/centers/${AUSTIN}/packages?size=100`);
      const peel = (
        body as { packages: { id: string; benefits: { services: { item_type: number; quantity: number }[] } }[] }
      ).packages.find((p) => p.id === PEEL_SERIES)!;
      expect(peel.benefits.services).toEqual([expect.objectContaining({ item_type: 2, quantity: 4 })]);
      expect((await client.listPackages(AUSTIN))!.find((p) => p.id === PEEL_SERIES)?.services).toEqual([
        { serviceId: seedGuid("service:PEEL-GLOW"), name: "", quantity: 4 },
      ]);

      const guestId = await createTestGuest(client, AUSTIN, "Series", "Owner");
      const accountId = await saveTestCard(client, guestId, AUSTIN);
      const { invoiceId } = await client.sellPackage(AUSTIN, guestId, PEEL_SERIES);
      await client.payInvoice(invoiceId, AUSTIN, accountId, SHOP);
      expect(await client.closeInvoice(invoiceId)).toBe("closed");
      const owned = (await answer(sandbox, `/v1/guests/${guestId}/Packages`)).body as {
        packages: { services: Record<string, unknown>[] }[];
      };
      expect(owned.packages[0].services[0]).toMatchObject({
        service_type_info: { id: seedGuid("service:PEEL-GLOW"), name: "Glow Peel" },
        total: 4,
        used: 0,
        balance: 4,
      });
      expect(owned.packages[0].services[0]).not.toHaveProperty("total_quantity");
      expect((await client.guestPackages(guestId))[0].services).toEqual([
        { serviceId: seedGuid("service:PEEL-GLOW"), name: "Glow Peel", total: 4, redeemed: 0, left: 4 },
      ]);
    }
  });
});
