import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, TEST_API_KEY } from "../../tests/helpers/sandbox-server";
import { clientOnJsonBackend } from "../../tests/helpers/json-backend";
import { createSpaClient, type SpaClient } from "../spa/client.server";
import { isRedeemed } from "../spa/coupons.server";
import { seedGuid } from "./db";
import { DEMO_GUEST_ID } from "./demo-guest";
import { seedCouponDiscounts } from "./seed-data";

/** Guest coupons: Zenoti's list call, the sandbox's control that issues one, and a coupon applied to an invoice by its number. */

const AUSTIN = seedGuid("center:ATX");
const FACIAL = seedGuid("service:FT-NEW");
const LED = seedGuid("service:ADD-LED");
const ZONE = "America/Chicago";
// A Monday well ahead of the fake clock, in Austin.
const DAY = "2026-12-07";
const now = Date.parse("2026-11-30T15:00:00Z");
const FACIAL_COUPON = seedCouponDiscounts[0].description;

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let client: SpaClient;
let guests = 0;

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

const api = (method: string, path: string, body?: unknown) =>
  fetch(`${sandbox.baseUrl}${path}`, {
    method,
    headers: { authorization: `apikey ${TEST_API_KEY}`, "content-type": "application/json" },
    body: body ? JSON.stringify(body) : undefined,
  }).then(async (r) => (await r.json()) as Record<string, unknown>);

async function newGuest() {
  guests += 1;
  return client.createGuest({
    centerId: AUSTIN,
    firstName: "Cora",
    lastName: `Coupon${guests}`,
    email: `cora${guests}@example.com`,
    phone: `51255503${String(guests).padStart(2, "0")}`,
    consents: { marketingEmail: false, marketingSms: false, transactionalEmail: true, transactionalSms: true },
    tags: [],
  });
}

const issue = async (guestId: string, grant: Record<string, unknown>) =>
  (await api("POST", `/v1/sandbox/guests/${guestId}/coupons`, grant)) as { number: string; error: unknown };

/** The guest's facial with an LED add-on confirmed at `time` on DAY: its invoice. */
async function confirmedVisit(guestId: string, time: string) {
  const bookingId = await client.createBooking({
    centerId: AUSTIN,
    date: DAY,
    guestId,
    serviceId: FACIAL,
    therapistId: null,
    addOnIds: [LED],
  });
  await client.reserveSlot(bookingId, `${DAY}T${time}:00`, ZONE);
  return (await client.confirmBooking(bookingId))!.invoiceId;
}

describe("a guest's coupons", () => {
  it("are listed with their number, description and expiry day; used ones say so", async () => {
    const coupons = await client.guestCoupons(DEMO_GUEST_ID);
    expect(coupons.map((c) => [c.number, c.redeemed])).toEqual(
      expect.arrayContaining([
        ["GLOWDEMO30", false],
        ["GLOWDEMO20", true],
      ]),
    );
    expect(coupons.find((c) => c.number === "GLOWDEMO30")).toMatchObject({
      description: FACIAL_COUPON,
      expiresOn: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
  });

  it("answer Zenoti's shape, paged, and an unknown guest as Zenoti does (414 on HTTP 200), which the client reads as none", async () => {
    const guest = await newGuest();
    await issue(guest.id, { description: FACIAL_COUPON, number: "CORA-ONE", expiry_date: "2026-12-31" });
    const body = await api("GET", `/v1/guests/${guest.id}/coupons`);
    expect(body).toMatchObject({
      coupons: [
        {
          number: "CORA-ONE",
          description: FACIAL_COUPON,
          expiry_date: "2026-12-31T00:00:00",
          redemption: "Not Redeemed",
          issued_center: expect.stringContaining("Austin Downtown"),
        },
      ],
      page_info: { total: 1, page: 1, size: 10 },
    });
    expect(await api("GET", `/v1/guests/${guest.id}/coupons?size=101`)).toMatchObject({ Error: { StatusCode: 422 } });
    expect(await api("GET", `/v1/guests/${seedGuid("guest:nobody")}/coupons`)).toMatchObject({ error: { code: 414 } });
    expect(await client.guestCoupons(seedGuid("guest:nobody"))).toEqual([]);
  });

  it("refuses to issue a coupon of a discount it does not have", async () => {
    const guest = await newGuest();
    expect(await issue(guest.id, { description: "Free everything" })).toMatchObject({ error: { code: 400 } });
  });
});

describe("a coupon applied by its number", () => {
  it("prices the invoice by its discount and is then used", async () => {
    const guest = await newGuest();
    const { number } = await issue(guest.id, { description: FACIAL_COUPON });
    const invoiceId = await confirmedVisit(guest.id, "10:00");
    const before = (await client.getInvoice(invoiceId)).total;
    expect(await client.applyCampaign(invoiceId, AUSTIN, number.toLowerCase())).toEqual({
      applied: true,
      message: null,
    });
    expect((await client.getInvoice(invoiceId)).total).toBe(before - 3000);
    expect((await client.guestCoupons(guest.id))[0]).toMatchObject({ number, redeemed: true });

    // Once: not on a second visit while the first keeps it.
    const second = await confirmedVisit(guest.id, "14:00");
    expect(await client.applyCampaign(second, AUSTIN, number)).toEqual({
      applied: false,
      message: "Coupon is already redeemed",
    });
  });

  it("is given back when the visit it was used on is undone", async () => {
    const guest = await newGuest();
    const { number } = await issue(guest.id, { description: FACIAL_COUPON });
    const invoiceId = await confirmedVisit(guest.id, "11:00");
    expect((await client.applyCampaign(invoiceId, AUSTIN, number)).applied).toBe(true);
    for (const item of (await client.getInvoice(invoiceId)).items)
      await client.removeInvoiceItem(invoiceId, item.invoiceItemId, "Removing appointment due to payment failed");
    expect((await client.guestCoupons(guest.id))[0]).toMatchObject({ number, redeemed: false });
  });

  it("is refused on another guest's invoice and after its expiry", async () => {
    const owner = await newGuest();
    const other = await newGuest();
    const { number } = await issue(owner.id, { description: FACIAL_COUPON });
    expect((await client.applyCampaign(await confirmedVisit(other.id, "12:00"), AUSTIN, number)).applied).toBe(false);
    const expired = await issue(owner.id, { description: FACIAL_COUPON, expiry_date: "2026-12-06" });
    expect(await client.applyCampaign(await confirmedVisit(owner.id, "15:00"), AUSTIN, expired.number)).toEqual({
      applied: false,
      message: "Coupon has expired for the appointment date",
    });
  });
});

describe("the client on answers the sandbox never gives", () => {
  it("reads one coupon sent as an object, drops an entry with no number, and takes an unknown redemption word as used", async () => {
    const { client: lone } = await clientOnJsonBackend({
      "/v1/guests/G1/coupons": () => ({
        body: {
          coupons: { id: "C1", number: "ONE", description: "A", expiry_date: "2100-01-01T00:00:00", redemption: null },
          page_info: null,
        },
      }),
      "/v1/guests/G2/coupons": () => ({
        body: {
          coupons: [
            { id: "C2", number: "" },
            { id: "C3", number: "TWO", redemption: "Partially Redeemed" },
          ],
        },
      }),
    });
    expect(await lone.guestCoupons("G1")).toEqual([
      { id: "c1", number: "ONE", description: "A", expiresOn: null, redeemed: false },
    ]);
    expect(await lone.guestCoupons("G2")).toEqual([
      { id: "c3", number: "TWO", description: "", expiresOn: null, redeemed: true },
    ]);
  });

  it("knows Zenoti's redemption words as the coupon report names them", () => {
    expect(["Not Redeemed", "NotRedeemed", "not_redeemed", "", null, undefined, false].map(isRedeemed)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(["Redeemed", "Expired", true].map(isRedeemed)).toEqual([true, true, true]);
  });
});
