import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, TEST_API_KEY } from "../../tests/helpers/sandbox-server";
import { createSpaClient, type SpaClient } from "../spa/client.server";
import { seedGuid } from "./db";
import { expiryValid, luhnValid } from "./payments";
import { seedPromos } from "./seed-data";
import { priceLines } from "../../app/domain/booking";
import { applyDiscounts, ruleFromDollars } from "../../app/domain/discounts";
import { enhancementsAgainstRule, visitMinutes } from "../../app/domain/visit-length";

const AUSTIN = seedGuid("center:ATX");
const FACIAL = seedGuid("service:FT-NEW");
const LED = seedGuid("service:ADD-LED");
// A Monday well ahead of the fake clock, in Austin.
const DAY = "2026-12-07";
const ZONE = "America/Chicago";
let now = Date.parse("2026-11-30T15:00:00Z");

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let client: SpaClient;
let guestCount = 0;

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => now, holdSeconds: 600 });
  client = createSpaClient({
    baseUrl: sandbox.baseUrl,
    auth: { type: "apikey", apiKey: TEST_API_KEY },
    clock: () => now,
  });
});
afterAll(async () => {
  await sandbox.stop();
});

async function newGuest() {
  guestCount += 1;
  return client.createGuest({
    centerId: AUSTIN,
    firstName: "Ana",
    lastName: `Test${guestCount}`,
    email: `ana${guestCount}@example.com`,
    phone: `51255501${String(guestCount).padStart(2, "0")}`,
    consents: { marketingEmail: false, marketingSms: false, transactionalEmail: true, transactionalSms: true },
    tags: ["Booking Lead", "NBF"],
  });
}

async function newBooking(therapistId: string | null = null) {
  const guest = await newGuest();
  const bookingId = await client.createBooking({
    centerId: AUSTIN,
    date: DAY,
    guestId: guest.id,
    serviceId: FACIAL,
    therapistId,
    addOnIds: [LED],
  });
  return { guest, bookingId };
}

describe("guests", () => {
  it("creates a guest and finds it by email; refuses a duplicate email with Zenoti's 442", async () => {
    const guest = await newGuest();
    expect((await client.findGuestsByEmail(guest.email!.toUpperCase())).map((g) => g.id)).toEqual([guest.id]);
    expect(await client.getGuest(guest.id.replace(/-/g, ""))).toMatchObject({ id: guest.id, firstName: "Ana" });
    await expect(
      client.createGuest({
        centerId: AUSTIN,
        firstName: "B",
        lastName: "C",
        email: guest.email!,
        phone: "5125550000",
        consents: { marketingEmail: false, marketingSms: false, transactionalEmail: true, transactionalSms: true },
        tags: [],
      }),
    ).rejects.toMatchObject({ code: 442 });
  });
});

describe("booking workflow", () => {
  it("lists slots within the clinic's hours, reserves, confirms once", async () => {
    const { bookingId } = await newBooking();
    const slots = await client.listSlots(bookingId, DAY);
    expect(slots.times[0]).toBe(`${DAY}T09:00:00`);
    // 45 + 15 minutes must end by 19:00.
    expect(slots.times.at(-1)).toBe(`${DAY}T18:00:00`);
    const hold = await client.reserveSlot(bookingId, `${DAY}T10:00:00`, ZONE);
    expect(hold).not.toBeNull();
    expect(Date.parse(hold!.expiresAt)).toBe(now + 600_000);

    const first = await client.confirmBooking(bookingId);
    const second = await client.confirmBooking(bookingId);
    expect(first).not.toBeNull();
    expect(second).toEqual(first);
    expect(first!.items.map((i) => [i.serviceName, i.start])).toEqual([
      ["Signature Laser Facial - New Client", `${DAY}T10:00:00`],
      ["LED Light Therapy Enhancement (Addon)", `${DAY}T10:45:00`],
    ]);
    const invoice = await client.getInvoice(first!.invoiceId);
    expect(invoice.total).toBe(32500);
  });

  it("lets exactly one of 20 concurrent reservations of one slot win", async () => {
    const nurse = seedGuid("therapist:ATX:0");
    const bookings = await Promise.all(Array.from({ length: 20 }, () => newBooking(nurse)));
    const results = await Promise.all(bookings.map((b) => client.reserveSlot(b.bookingId, `${DAY}T14:00:00`, ZONE)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("hides held slots from other bookings until the hold expires", async () => {
    const nurse = seedGuid("therapist:ATX:1");
    const a = await newBooking(nurse);
    const b = await newBooking(nurse);
    expect(await client.reserveSlot(a.bookingId, `${DAY}T16:00:00`, ZONE)).not.toBeNull();
    expect((await client.listSlots(b.bookingId, DAY)).times).not.toContain(`${DAY}T16:00:00`);
    expect(await client.reserveSlot(b.bookingId, `${DAY}T16:00:00`, ZONE)).toBeNull();
    now += 601_000;
    expect((await client.listSlots(b.bookingId, DAY)).times).toContain(`${DAY}T16:00:00`);
    expect(await client.confirmBooking(a.bookingId)).toBeNull();
    expect(await client.reserveSlot(b.bookingId, `${DAY}T16:00:00`, ZONE)).not.toBeNull();
  });

  it("has no call to drop a hold, as Zenoti has none; re-reserving the booking replaces its hold", async () => {
    const nurse = seedGuid("therapist:ATX:2");
    const a = await newBooking(nurse);
    const b = await newBooking(nurse);
    await client.reserveSlot(a.bookingId, `${DAY}T12:00:00`, ZONE);
    const drop = await fetch(`${sandbox.baseUrl}/v1/bookings/${a.bookingId}/slots/reserve`, {
      method: "DELETE",
      headers: { authorization: `apikey ${TEST_API_KEY}` },
    });
    expect(drop.status).toBe(404);
    expect(await client.reserveSlot(b.bookingId, `${DAY}T12:00:00`, ZONE)).toBeNull();
    // The same booking moves its hold: the first time is free for others at once.
    expect(await client.reserveSlot(a.bookingId, `${DAY}T09:00:00`, ZONE)).not.toBeNull();
    expect(await client.reserveSlot(b.bookingId, `${DAY}T12:00:00`, ZONE)).not.toBeNull();
  });

  it("answers the hold's expiry as the clinic's wall clock without an offset, like its other times", async () => {
    const { bookingId } = await newBooking();
    const raw = await fetch(`${sandbox.baseUrl}/v1/bookings/${bookingId}/slots/reserve`, {
      method: "POST",
      headers: { authorization: `apikey ${TEST_API_KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ slot_time: `${DAY}T15:00:00` }),
    });
    const body = (await raw.json()) as { is_reserved: boolean; expiry_time: string };
    expect(body.is_reserved).toBe(true);
    // The fake clock is 15:00 UTC, 09:00 in Austin; the hold lasts ten minutes.
    expect(body.expiry_time).toBe(new Date(now + 600_000 - 6 * 3_600_000).toISOString().slice(0, 19));
  });

  it("on a day with no open times answers another day's of the same week, which the client never lists under the day asked for", async () => {
    const sunday = "2026-12-06";
    const guest = await newGuest();
    const bookingId = await client.createBooking({
      centerId: AUSTIN,
      date: sunday,
      guestId: guest.id,
      serviceId: FACIAL,
      therapistId: null,
      addOnIds: [LED],
    });
    const raw = await fetch(`${sandbox.baseUrl}/v1/bookings/${bookingId}/slots?check_future_day_availability=true`, {
      headers: { authorization: `apikey ${TEST_API_KEY}` },
    });
    const body = (await raw.json()) as { slots: { Time: string }[]; next_available_day: string };
    expect(body.slots.length).toBeGreaterThan(0);
    expect(new Set(body.slots.map((s) => s.Time.slice(0, 10)))).toEqual(new Set([DAY]));
    const list = await client.listSlots(bookingId, sunday);
    expect(list).toMatchObject({ times: [], nextAvailableDay: DAY });
    // And which later days of the week have openings (Zenoti's future_days): the date strip's marks.
    expect(list.weekDays?.map((d) => d.date)).toEqual([
      "2026-12-07",
      "2026-12-08",
      "2026-12-09",
      "2026-12-10",
      "2026-12-11",
      "2026-12-12",
    ]);
    expect(list.weekDays?.find((d) => d.date === DAY)?.open).toBe(true);
  });

  it("lists a visit's appointments with the duration on the service, as Zenoti does", async () => {
    const { guest, bookingId } = await newBooking();
    await client.reserveSlot(bookingId, `${DAY}T17:00:00`, ZONE);
    await client.confirmBooking(bookingId);
    const raw = await fetch(`${sandbox.baseUrl}/v1/guests/${guest.id}/appointments?page=1&size=10`, {
      headers: { authorization: `apikey ${TEST_API_KEY}` },
    });
    const body = (await raw.json()) as { appointments: { appointment_services: Record<string, unknown>[] }[] };
    const [main, addOn] = body.appointments[0].appointment_services;
    expect(main).not.toHaveProperty("duration");
    expect(main.service).toMatchObject({ duration: 45 });
    expect(addOn.service).toMatchObject({ duration: 15 });
    const [visit] = await client.listGuestAppointments(guest.id);
    expect(visit.services.map((s) => [s.start, s.durationMinutes])).toEqual([
      [`${DAY}T17:00:00`, 45],
      [`${DAY}T17:45:00`, 15],
    ]);
  });

  it("applies a campaign, takes one payment with a saved card, removes a line with a comment", async () => {
    const { guest, bookingId } = await newBooking();
    await client.reserveSlot(bookingId, `${DAY}T11:00:00`, ZONE);
    const confirmed = (await client.confirmBooking(bookingId))!;
    expect(await client.applyCampaign(confirmed.invoiceId, AUSTIN, "ADDON20")).toEqual({
      applied: true,
      message: null,
    });
    expect((await client.getInvoice(confirmed.invoiceId)).total).toBe(30500);
    expect((await client.applyCampaign(confirmed.invoiceId, AUSTIN, "NOPE")).applied).toBe(false);

    const uri = await client.startCardCapture(guest.id, AUSTIN, "http://shop.example/appointment/payment");
    const page = await fetch(uri);
    expect(await page.text()).toContain("Card number");
    const saved = await fetch(uri, {
      method: "POST",
      body: new URLSearchParams({ name: "Ana Test", number: "4242 4242 4242 4242", expiry: "12/30", cvc: "123" }),
      redirect: "manual",
    });
    expect(saved.status).toBe(303);
    expect(saved.headers.get("location")).toBe("http://shop.example/appointment/payment?status=successful");
    const cards = await client.listCards(guest.id, AUSTIN);
    expect(cards).toMatchObject([{ brand: "VISA", lastFour: "4242" }]);

    expect(
      await client.payInvoice(
        confirmed.invoiceId,
        AUSTIN,
        cards[0].accountId,
        "http://shop.example/appointment/payment",
      ),
    ).toMatchObject({ kind: "paid" });
    await expect(
      client.payInvoice(confirmed.invoiceId, AUSTIN, cards[0].accountId, "http://shop.example/appointment/payment"),
    ).rejects.toMatchObject({ code: 4062 });
    expect(await client.getInvoice(confirmed.invoiceId)).toMatchObject({ paid: 30500, balance: 0 });

    await client.removeInvoiceItem(
      confirmed.invoiceId,
      confirmed.items[1].invoiceItemId,
      "Removing appointment due to payment failed",
    );
    expect((await client.getInvoice(confirmed.invoiceId)).items).toHaveLength(1);
  });

  it("prices a campaign on the invoice as the app's summary does, to the cent, and answers in dollars", async () => {
    const { bookingId } = await newBooking();
    await client.reserveSlot(bookingId, `${DAY}T13:00:00`, ZONE);
    const confirmed = (await client.confirmBooking(bookingId))!;
    expect((await client.applyCampaign(confirmed.invoiceId, AUSTIN, "WELCOME10")).applied).toBe(true);

    const catalog = (await client.listServices(AUSTIN))!;
    const welcome = seedPromos.find((p) => p.code === "WELCOME10")!;
    const rules = welcome.rules.map((r) =>
      ruleFromDollars({
        discount_type: r.discount_type,
        discount_value: r.discount_value,
        service_id: null,
        service_type: r.service_type,
      }),
    );
    const summary = applyDiscounts(
      priceLines(catalog.find((s) => s.id === FACIAL)!, [catalog.find((s) => s.id === LED)!]),
      rules,
    );
    const invoice = await client.getInvoice(confirmed.invoiceId);
    expect(summary.total).toBe(29250);
    expect(invoice.total).toBe(summary.total);
    expect(invoice.items.map((i) => i.discount)).toEqual(summary.lines.map((l) => l.discount));

    const raw = await fetch(`${sandbox.baseUrl}/v1/invoices/${confirmed.invoiceId}`, {
      headers: { authorization: `apikey ${TEST_API_KEY}` },
    });
    const body = (await raw.json()) as {
      invoice: {
        invoice_dues: { total: number };
        invoice_items: { price: { sales: number; discount: number; final: number } }[];
      };
    };
    expect(body.invoice.invoice_dues.total).toBe(292.5);
    expect(body.invoice.invoice_items.map((i) => i.price)).toMatchObject([
      { sales: 275, discount: 27.5, final: 247.5 },
      { sales: 50, discount: 5, final: 45 },
    ]);
  });

  it("declines the declined test card and never saves it", async () => {
    const guest = await newGuest();
    const uri = await client.startCardCapture(guest.id, AUSTIN, "http://shop.example/pay");
    const declined = await fetch(uri, {
      method: "POST",
      body: new URLSearchParams({ name: "Ana", number: "4000 0000 0000 0002", expiry: "12/30", cvc: "123" }),
      redirect: "manual",
    });
    expect(declined.headers.get("location")).toContain("status=declined");
    expect(await client.listCards(guest.id, AUSTIN)).toEqual([]);
  });
});

describe("card checks", () => {
  it("checks Luhn and expiry", () => {
    expect(luhnValid("4242424242424242")).toBe(true);
    expect(luhnValid("4242424242424241")).toBe(false);
    expect(expiryValid("12/26", new Date("2026-12-05"))).toBe(true);
    expect(expiryValid("11/26", new Date("2026-12-05"))).toBe(false);
    expect(expiryValid("13/30", new Date("2026-12-05"))).toBe(false);
  });
});

describe("a visit's length: the rule the storefront tells is what the back end books (decision 045)", () => {
  const RETURNING_FACIAL = seedGuid("service:FT-RET");
  const RETURNING_LED = seedGuid("service:ADD-LED-RET");
  // A Wednesday nobody else in this file books: the clinic is open 09:00 to 19:00.
  const DAY_FREE = "2026-12-09";

  it("keeps the chain's rule in the seeded catalog: a new client's enhancements 15 minutes, a returning client's none", async () => {
    const catalog = (await client.listServices(AUSTIN))!;
    expect(enhancementsAgainstRule(catalog)).toEqual([]);
    const facial = catalog.find((s) => s.id === RETURNING_FACIAL)!;
    expect(facial.addOnIds).toContain(RETURNING_LED);
  });

  it.each([
    ["a new client's facial with an enhancement", FACIAL, [LED], "10:00", 60],
    ["a new client's facial alone", FACIAL, [], "12:00", 45],
    ["a returning client's facial with an enhancement", RETURNING_FACIAL, [RETURNING_LED], "14:00", 30],
  ])("books %s for as long as the rule says", async (_, serviceId, addOnIds, time, minutes) => {
    const catalog = (await client.listServices(AUSTIN))!;
    const treatment = catalog.find((s) => s.id === serviceId)!;
    const addOns = addOnIds.map((id) => catalog.find((s) => s.id === id)!);
    expect(visitMinutes(treatment, addOns)).toBe(minutes);
    const guest = await newGuest();
    const bookingId = await client.createBooking({
      centerId: AUSTIN,
      date: DAY_FREE,
      guestId: guest.id,
      serviceId,
      therapistId: null,
      addOnIds,
    });
    // The last time offered leaves room for the whole visit before closing.
    const { times } = await client.listSlots(bookingId, DAY_FREE);
    expect(Date.parse(`${DAY_FREE}T19:00:00Z`) - Date.parse(`${times.at(-1)}Z`)).toBe(minutes * 60_000);
    expect(await client.reserveSlot(bookingId, `${DAY_FREE}T${time}:00`, ZONE)).not.toBeNull();
    const confirmed = (await client.confirmBooking(bookingId, ZONE))!;
    const start = confirmed.items.map((i) => i.start).sort()[0];
    const end = confirmed.items
      .map((i) => i.end)
      .sort()
      .at(-1)!;
    expect(Date.parse(`${end}Z`) - Date.parse(`${start}Z`)).toBe(minutes * 60_000);
  });
});
