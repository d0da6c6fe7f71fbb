import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { clientOnJsonBackend } from "../../tests/helpers/json-backend";
import { captureWarnings } from "../../tests/helpers/log-lines";
import {
  createTestGuest,
  refusal,
  saveTestCard,
  startSandboxAndClient,
  TEST_API_KEY,
  type TestSandbox,
} from "../../tests/helpers/sandbox-server";
import { seedGuid } from "../spa-sandbox/db";
import type { SpaClient } from "./client.server";
import { INVOICE_ITEM_TYPE } from "./sales.server";

/** The client's sales calls: against the sandbox, and on answers the sandbox never gives. */

const AUSTIN = seedGuid("center:ATX");
const NEW_YORK = seedGuid("center:NYC");
const MONTHLY = seedGuid("membership:GLOW-MONTHLY");
const FACIAL_SERIES = seedGuid("package:PKG-FACIAL-3");
const FACIAL = seedGuid("service:FT-RET");
const GC_ANY = seedGuid("giftcard-template:GC-ANY");
const BIRTHDAY = seedGuid("giftcard-occasion:Birthday");
const ZONE = "America/Chicago";
const RETURN = "https://shop.example/purchases/1/verified";
// 09:00 in Austin on Monday 30 November 2026.
const now = Date.parse("2026-11-30T15:00:00Z");

let sandbox: TestSandbox;
let client: SpaClient;

beforeAll(async () => ({ sandbox, client } = await startSandboxAndClient(() => now)));
afterAll(() => sandbox.stop());
afterEach(() => {
  vi.restoreAllMocks();
});

const newGuestId = () => createTestGuest(client, AUSTIN, "Buy", "Er");

/** Pays the invoice's balance with a new saved card of the guest's. */
async function payWithCard(guestId: string, invoiceId: string) {
  const accountId = await saveTestCard(client, guestId, AUSTIN);
  expect(await client.payInvoice(invoiceId, AUSTIN, accountId, RETURN)).toMatchObject({ kind: "paid" });
}

describe("against the sandbox", () => {
  it("lists a clinic's packages in cents, null for an unknown clinic", async () => {
    const packages = await client.listPackages(AUSTIN);
    expect(packages?.[0]).toEqual({
      id: FACIAL_SERIES,
      name: "Signature Facial Series: 3 sessions",
      description: "Three Signature Laser Facials, to use within a year.",
      priceCents: 53700,
      validityDays: 365,
      // Zenoti's benefits carry no name: the app names them from the menu.
      services: [{ serviceId: FACIAL, name: "", quantity: 3 }],
    });
    expect(packages?.map((p) => [p.name, p.priceCents])).toEqual([
      ["Signature Facial Series: 3 sessions", 53700],
      ["Glow Peel Series: 4 sessions", 52000],
      ["Laser Hair Removal Small Area: 6 sessions", 47900],
    ]);
    expect((await client.listPackages(NEW_YORK))?.map((p) => p.priceCents)).toEqual([69800, 67600, 62300]);
    expect(await client.listPackages(crypto.randomUUID())).toBeNull();
  });

  it("lists the gift-card templates in cents and the occasions", async () => {
    const templates = await client.listGiftCardTemplates(AUSTIN);
    expect(templates?.map((t) => [t.name, t.valueCents, t.priceCents, t.custom])).toEqual([
      ["$50 Gift Card", 5000, 5000, null],
      ["$100 Gift Card", 10000, 10000, null],
      ["$150 Gift Card", 15000, 15000, null],
      ["$250 Gift Card", 25000, 25000, null],
      ["Any amount", null, null, { minCents: 2500, maxCents: 100000 }],
    ]);
    expect(templates?.at(-1)).toMatchObject({ id: GC_ANY, validityDays: 1825 });
    expect(await client.listGiftCardTemplates(crypto.randomUUID())).toBeNull();
    expect(await client.listGiftCardOccasions()).toEqual(
      ["Birthday", "Thank you", "Holidays", "Just because"].map((name) => ({
        id: seedGuid(`giftcard-occasion:${name}`),
        name,
      })),
    );
  });

  it("sells a membership: not paid, paid, closed once; the invoice says it is closed and what it sold", async () => {
    const guestId = await newGuestId();
    const { invoiceId } = await client.sellMembership(AUSTIN, guestId, MONTHLY.toUpperCase());
    expect(invoiceId).toBe(invoiceId.toLowerCase());
    expect(await client.getInvoice(invoiceId)).toMatchObject({
      closed: false,
      total: 9900,
      balance: 9900,
      items: [
        { serviceId: MONTHLY, name: "Glow Monthly", type: INVOICE_ITEM_TYPE.membership, price: 9900, final: 9900 },
      ],
    });
    expect(await client.closeInvoice(invoiceId)).toBe("not-paid");
    await payWithCard(guestId, invoiceId);
    expect(await client.closeInvoice(invoiceId)).toBe("closed");
    expect(await client.closeInvoice(invoiceId)).toBe("already-closed");
    expect(await client.getInvoice(invoiceId)).toMatchObject({ closed: true, paid: 9900, balance: 0 });
    expect(
      (await client.guestMemberships(guestId)).map((m) => [m.membershipId, m.status, m.recurring, m.memberSince]),
    ).toEqual([[MONTHLY, 1, true, "2026-11-30"]]);
  });

  it("throws the refusals it does not map: an unknown invoice, a visit still to come, a bad sale", async () => {
    expect(await refusal(client.closeInvoice(crypto.randomUUID()))).toBe(428);
    const guestId = await newGuestId();
    const bookingId = await client.createBooking({
      centerId: AUSTIN,
      date: "2026-12-02",
      guestId,
      serviceId: FACIAL,
      therapistId: null,
      addOnIds: [],
    });
    await client.reserveSlot(bookingId, (await client.listSlots(bookingId, "2026-12-02")).times[0], ZONE);
    const visit = (await client.confirmBooking(bookingId, ZONE))!;
    expect(await refusal(client.closeInvoice(visit.invoiceId))).toBe(1113);
    expect(await refusal(client.sellMembership(AUSTIN, crypto.randomUUID(), MONTHLY))).toBe(414);
    expect(await refusal(client.sellPackage(AUSTIN, guestId, crypto.randomUUID()))).toBe(400);
    expect(await refusal(client.sendGiftCardEmail(visit.invoiceId))).toBe(1115);
  });

  it("sells a package, then lists it and redeems a session of it on a visit", async () => {
    const guestId = await newGuestId();
    const { invoiceId } = await client.sellPackage(AUSTIN, guestId, FACIAL_SERIES);
    expect((await client.getInvoice(invoiceId)).items.map((i) => [i.type, i.price])).toEqual([
      [INVOICE_ITEM_TYPE.package, 53700],
    ]);
    await payWithCard(guestId, invoiceId);
    expect(await client.closeInvoice(invoiceId)).toBe("closed");

    const [owned] = await client.guestPackages(guestId);
    expect(owned).toEqual({
      userPackageId: expect.any(String),
      packageId: FACIAL_SERIES,
      name: "Signature Facial Series: 3 sessions",
      status: 1,
      startDate: "2026-11-30",
      endDate: "2027-11-30",
      services: [{ serviceId: FACIAL, name: "Signature Laser Facial", total: 3, redeemed: 0, left: 3 }],
      purchasePriceCents: 53700,
    });
    expect(owned.userPackageId).toBe(owned.userPackageId.toLowerCase());
    expect(await client.guestPackages(guestId, { centerId: AUSTIN, redeemableOnly: true })).toHaveLength(1);
    expect(await client.guestPackages(guestId, { centerId: NEW_YORK })).toEqual([]);
    expect(await refusal(client.guestPackages(crypto.randomUUID()))).toBe(414);

    const bookingId = await client.createBooking({
      centerId: AUSTIN,
      date: "2026-12-03",
      guestId,
      serviceId: FACIAL,
      therapistId: null,
      addOnIds: [],
    });
    await client.reserveSlot(bookingId, (await client.listSlots(bookingId, "2026-12-03")).times[0], ZONE);
    const visit = (await client.confirmBooking(bookingId, ZONE))!;
    const [line] = (await client.getInvoice(visit.invoiceId)).items;
    expect(line.type).toBe(INVOICE_ITEM_TYPE.service);
    expect(await client.redeemPackage(visit.invoiceId, owned.userPackageId, line.invoiceItemId)).toBe(true);
    expect(await client.redeemPackage(visit.invoiceId, owned.userPackageId, line.invoiceItemId)).toBe(false);
    expect(await client.getInvoice(visit.invoiceId)).toMatchObject({
      balance: 0,
      items: [{ price: 19900, discount: 19900, final: 0 }],
    });
    expect((await client.guestPackages(guestId))[0].services).toEqual([
      { serviceId: FACIAL, name: "Signature Laser Facial", total: 3, redeemed: 1, left: 2 },
    ]);
  });

  it("sells a custom gift card in cents, sends it once, and reads it back for the buyer, the recipient and by its number", async () => {
    const buyerId = await newGuestId();
    const recipientId = await newGuestId();
    const recipientEmail = (await client.getGuest(recipientId))!.email!;
    const { invoiceId } = await client.sellGiftCard(AUSTIN, buyerId, {
      templateId: GC_ANY,
      customAmountCents: 7550,
      occasionId: BIRTHDAY,
      message: "Happy birthday!",
      recipientName: "Rosa Diaz",
      recipientEmail,
      scheduleTime: null,
    });
    expect(await client.getInvoice(invoiceId)).toMatchObject({
      total: 7550,
      items: [{ type: INVOICE_ITEM_TYPE.giftCard, name: "Any amount", price: 7550 }],
    });
    await payWithCard(buyerId, invoiceId);
    expect(await client.closeInvoice(invoiceId)).toBe("closed");
    await client.sendGiftCardEmail(invoiceId);
    await client.sendGiftCardEmail(invoiceId);
    const outbox = await fetch(
      `${sandbox.baseUrl}/v1/sandbox/giftcard_emails?email=${encodeURIComponent(recipientEmail)}`,
      { headers: { authorization: `apikey ${TEST_API_KEY}` } },
    );
    expect(((await outbox.json()) as { emails: unknown[] }).emails).toHaveLength(1);

    const [bought] = await client.guestGiftCards(buyerId);
    expect(bought).toEqual({
      id: expect.any(String),
      number: expect.stringMatching(/^\d{12}$/),
      valueCents: 7550,
      balanceCents: 7550,
      expiryDate: "2031-11-29",
      issuedOn: "2026-11-30",
      status: "Active",
      boughtByGuestId: buyerId,
      recipientName: "Rosa Diaz",
      recipientEmail,
    });
    expect(await client.guestGiftCards(recipientId)).toEqual([bought]);
    expect(await client.giftCardBalance(bought.number)).toEqual({
      number: bought.number,
      valueCents: 7550,
      balanceCents: 7550,
      expiryDate: "2031-11-29",
      status: "Active",
    });
    expect(await client.giftCardBalance("123456789012")).toBeNull();
    expect(await refusal(client.guestGiftCards(crypto.randomUUID()))).toBe(414);
  });

  it("has a gift-card sale refused when the back end refuses its order", async () => {
    const guestId = await newGuestId();
    const sale = {
      templateId: GC_ANY,
      customAmountCents: 2499,
      occasionId: BIRTHDAY,
      message: "",
      recipientName: "Rosa",
      recipientEmail: "rosa@example.com",
      scheduleTime: null,
    };
    expect(await refusal(client.sellGiftCard(AUSTIN, guestId, sale))).toBe(400);
    expect(
      await refusal(
        client.sellGiftCard(AUSTIN, guestId, { ...sale, customAmountCents: 2500, scheduleTime: "2026-11-29T09:00:00" }),
      ),
    ).toBe(400);
    expect(
      (
        await client.sellGiftCard(AUSTIN, guestId, {
          ...sale,
          customAmountCents: 2500,
          scheduleTime: "2026-12-24T09:00:00",
        })
      ).invoiceId,
    ).toMatch(/^[0-9a-f-]{36}$/);
  });
});

const pkg = (id: string, overrides: Record<string, unknown> = {}) => ({
  id,
  code: id,
  name: `Package ${id}`,
  description: null,
  type: 1,
  catalog_info: { show_in_catalog: true, can_book: true, show_price: true, display_name: null, display_price: null },
  centers: [{ center_id: "C1", currency_id: 148, sale_price: 537.5, tax_id: null, auto_renewal: false }],
  benefits: {
    services: [{ id: "S1", item_type: 2, quantity: 3, order: -1, recognize_revenue: true }],
    products: [],
    bundled_products: [],
  },
  validity_days: 180,
  ...overrides,
});

describe("on answers the sandbox never gives", () => {
  it("reads packages element by element: a malformed one is dropped and logged, not the list; hidden ones are left out", async () => {
    const warnings = captureWarnings();
    const { client } = await clientOnJsonBackend({
      "/v1/centers/C1/packages": (url) => {
        const page = Number(url.searchParams.get("page"));
        const first = Array.from({ length: 100 }, (_, i) => pkg(`P${i}`));
        first[1] = pkg("P1", { centers: null });
        first[2] = pkg("P2", { catalog_info: { can_book: false } });
        first[3] = pkg("P3", { catalog_info: { show_in_catalog: false } });
        first[4] = pkg("P4", {
          centers: [
            { center_id: "OTHER", sale_price: 1 },
            { center_id: "c1", sale_price: 99.99 },
          ],
          validity_days: null,
          catalog_info: "junk",
        });
        first[5] = pkg("P5", {
          benefits: {
            services: [
              { id: "S1", item_type: 0, quantity: 2, name: "Facial" },
              { id: "S2", item_type: 2, quantity: 1 },
              { id: "X1", item_type: 5, quantity: 1 },
              { quantity: 1 },
            ],
          },
        });
        first[6] = "junk" as unknown as ReturnType<typeof pkg>;
        return {
          body: {
            packages: page === 1 ? first : [pkg("P100")],
            page_info: { total: 101, page, size: 100 },
            error: null,
          },
        };
      },
    });
    const packages = (await client.listPackages("C1"))!;
    expect(packages.map((p) => p.id)).not.toContain("p1");
    expect(packages).toHaveLength(101 - 4);
    expect(packages[0]).toEqual({
      id: "p0",
      name: "Package P0",
      description: "",
      priceCents: 53750,
      validityDays: 180,
      services: [{ serviceId: "s1", name: "", quantity: 3 }],
    });
    const byId = new Map(packages.map((p) => [p.id, p]));
    expect(byId.get("p4")).toMatchObject({ priceCents: 9999, validityDays: null });
    // Zenoti's service benefits are item_type 2 in its sample, 0 elsewhere; a type it does not publish is left out.
    expect(byId.get("p5")?.services).toEqual([
      { serviceId: "s1", name: "Facial", quantity: 2 },
      { serviceId: "s2", name: "", quantity: 1 },
    ]);
    expect(warnings.filter((w) => w.kind === "package_benefit").map((w) => [w.id, w.reason])).toEqual([
      [null, "id: invalid_type"],
      ["X1", "item_type 5"],
    ]);
    expect(byId.has("p100")).toBe(true);
    expect(warnings.filter((w) => w.kind === "package").map((w) => w.id)).toEqual(["P1", null]);
  });

  it("reads templates and occasions leniently, and a custom template without its bounds is left out", async () => {
    const warnings = captureWarnings();
    const { client } = await clientOnJsonBackend({
      "/v1/giftcards/templates": {
        body: {
          templates: [
            { id: "T1", name: "$40", value: 40, price: null, allow_custom_amount: false },
            {
              id: "T2",
              name: "Any",
              value: null,
              price: null,
              allow_custom_amount: true,
              min_amount: 10.5,
              max_amount: 500,
              validity_days: 365,
            },
            { id: "T3", name: "Broken", allow_custom_amount: true, min_amount: null, max_amount: 500 },
            { id: "T4", name: "No value", allow_custom_amount: false },
            { name: "No id", value: 10 },
          ],
          error: null,
        },
      },
      "/v1/giftcards/occasions": {
        body: { occasions: [{ id: "O1", name: "Birthday", images: null }, { id: "O2" }], error: null },
      },
    });
    expect(await client.listGiftCardTemplates("C1")).toEqual([
      { id: "t1", name: "$40", valueCents: 4000, priceCents: 4000, custom: null, validityDays: null },
      {
        id: "t2",
        name: "Any",
        valueCents: null,
        priceCents: null,
        custom: { minCents: 1050, maxCents: 50000 },
        validityDays: 365,
      },
    ]);
    expect(await client.listGiftCardOccasions()).toEqual([{ id: "o1", name: "Birthday" }]);
    expect(warnings.map((w) => [w.kind, w.id])).toEqual([
      ["giftcard_template", null],
      ["giftcard_template", "T3"],
      ["giftcard_template", "T4"],
      ["giftcard_occasion", "O2"],
    ]);
  });

  it("reads a guest's packages and cards leniently: Zenoti's empty date is none, an unreadable element is dropped", async () => {
    captureWarnings();
    const { client, backend } = await clientOnJsonBackend({
      "/v1/guests/G1/Packages": {
        body: {
          packages: [
            {
              user_package_id: "UP-1",
              status: null,
              package: { id: "PK", name: "Series", type: 0 },
              date: { start: "2026-01-05T00:00:00", end: "0001-01-01T00:00:00" },
              services: [
                { service_type_info: { id: "S1", name: "Peel", duration: 30 }, total: 4, used: 1, balance: 3 },
                { service_type_info: { id: "S3", name: "Wax" }, total: 2, used: 0, balance: 0 },
                { service_type_info: { id: "S4", name: "Brow" }, total: 2, used: 1 },
                { service_type_info: { id: "S5" }, total: 2 },
                { id: "S2" },
              ],
              purchase_price: 19.99,
            },
            { user_package_id: "UP-2", package: null, services: [] },
          ],
          page_info: { total: 2, page: 1, size: 100 },
          error: null,
        },
      },
      "/v1/guests/G1/gift_cards": {
        body: {
          gift_cards: [
            {
              id: "GC",
              number: 123456789012,
              value: 50,
              balance: 12.34,
              expiry_date: null,
              issued_on: "bad",
              status: "Active",
              purchased_by: null,
              recipient: { name: "", email: "a@b.co" },
            },
            { id: "GC2", number: "1", value: "50", balance: 1 },
          ],
          error: null,
        },
      },
    });
    expect(await client.guestPackages("G1", { centerId: "C1", redeemableOnly: true })).toEqual([
      {
        userPackageId: "up-1",
        packageId: "pk",
        name: "Series",
        status: null,
        startDate: "2026-01-05",
        endDate: null,
        purchasePriceCents: 1999,
        // Zenoti's balance is what is left, even when it is not total - used.
        services: [
          { serviceId: "s1", name: "Peel", total: 4, redeemed: 1, left: 3 },
          { serviceId: "s3", name: "Wax", total: 2, redeemed: 0, left: 0 },
          { serviceId: "s4", name: "Brow", total: 2, redeemed: 1, left: 1 },
        ],
      },
    ]);
    expect([...backend.requests[0].url.searchParams]).toEqual([
      ["center_id", "C1"],
      ["show_redeemable", "true"],
      ["page_num", "1"],
      ["page_size", "100"],
    ]);
    expect(await client.guestGiftCards("G1")).toEqual([
      {
        id: "gc",
        number: "123456789012",
        valueCents: 5000,
        balanceCents: 1234,
        expiryDate: null,
        issuedOn: null,
        status: "Active",
        boughtByGuestId: null,
        recipientName: null,
        recipientEmail: "a@b.co",
      },
    ]);
  });

  it("sends Zenoti's gift-card sale (its spelling, dollars, no schedule when none) and maps the close's refusals", async () => {
    const { client, backend } = await clientOnJsonBackend({
      "/v1/invoices/giftcards": { body: { invoice_id: "INV-1", invoice_number: "77", error: null } },
      "/v1/invoices/A/close": {
        body: { is_invoice_closed: false, error: { code: 1114, message: "Invoice is already closed" } },
      },
      "/v1/invoices/B/close": {
        body: { is_invoice_closed: false, error: { code: "1112", message: "Invoice is not fully paid" } },
      },
      "/v1/invoices/C/close": {
        body: {
          is_invoice_closed: false,
          error: { code: 1113, message: "This invoice has a future appointment and will not be closed." },
        },
      },
      "/v1/invoices/D/close": { body: { is_invoice_closed: false, error: null } },
      "/v1/giftcards/999/balance": { body: { gift_card: null, error: { code: 404, message: "Gift card not found" } } },
      "/v1/invoices/E/redemptions/packages": {
        body: { success: false, error: { code: 400, message: "No sessions left" } },
      },
    });
    const sale = {
      templateId: "T",
      customAmountCents: 1999,
      occasionId: "O",
      message: "Hi",
      recipientName: "Rosa",
      recipientEmail: "rosa@example.com",
      scheduleTime: null,
    };
    expect(await client.sellGiftCard("C1", "G1", sale)).toEqual({ invoiceId: "inv-1" });
    expect(JSON.parse(backend.requests[0].body)).toEqual({
      center_id: "C1",
      guest_id: "G1",
      giftcards: [
        {
          template_id: "T",
          custom_amount: { price: 19.99, value: 19.99 },
          occassion: { id: "O", message: "Hi" },
          recepient: { name: "Rosa", email: "rosa@example.com" },
        },
      ],
    });
    await client.sellGiftCard("C1", "G1", { ...sale, customAmountCents: null, scheduleTime: "2026-12-24T09:00:00" });
    expect(JSON.parse(backend.requests[1].body).giftcards[0]).toEqual({
      template_id: "T",
      schedule_time: "2026-12-24T09:00:00",
      occassion: { id: "O", message: "Hi" },
      recepient: { name: "Rosa", email: "rosa@example.com" },
    });

    expect(await client.closeInvoice("A")).toBe("already-closed");
    expect(await client.closeInvoice("B")).toBe("not-paid");
    expect(await refusal(client.closeInvoice("C"))).toBe(1113);
    expect(await refusal(client.closeInvoice("D"))).toBeNull();
    expect(await client.giftCardBalance("999")).toBeNull();
    expect(await client.redeemPackage("E", "UP", "II")).toBe(false);
  });

  it("reads an invoice without is_closed or item types as open, types unknown", async () => {
    const { client } = await clientOnJsonBackend({
      "/v1/invoices/I1": {
        body: {
          invoice: {
            id: "I1",
            invoice_dues: { total: 1, paid: 0, balance: 1 },
            invoice_items: [{ invoice_item_id: "L", id: "S", name: "x", price: { sales: 1, final: 1 } }],
          },
          error: null,
        },
      },
    });
    expect(await client.getInvoice("I1")).toMatchObject({ closed: false, items: [{ type: null }] });
  });
});
