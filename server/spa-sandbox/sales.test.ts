import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestGuest,
  saveTestCard,
  startSandboxAndClient,
  TEST_API_KEY,
  type TestSandbox,
} from "../../tests/helpers/sandbox-server";
import type { SpaClient } from "../spa/client.server";
import { seedGuid } from "./db";
import { CHARGE_DECLINED_TEST_CARD, THREE_DS_TEST_CARD } from "./payments";
import { seedCenters, seedPackages, seedServices } from "./seed-data";

/** Sales of memberships, packages and gift cards over HTTP: invoice, pay, close, what the guest then has. */

const AUSTIN = seedGuid("center:ATX");
const NEW_YORK = seedGuid("center:NYC");
const MONTHLY = seedGuid("membership:GLOW-MONTHLY");
const ANNUAL = seedGuid("membership:GLOW-ANNUAL");
const FACIAL_SERIES = seedGuid("package:PKG-FACIAL-3");
const PEEL_SERIES = seedGuid("package:PKG-PEEL-4");
const LHR_SERIES = seedGuid("package:PKG-LHR-SMALL-6");
const FACIAL = seedGuid("service:FT-RET");
const LED = seedGuid("service:ADD-LED");
const GC_100 = seedGuid("giftcard-template:GC-100");
const GC_ANY = seedGuid("giftcard-template:GC-ANY");
const BIRTHDAY = seedGuid("giftcard-occasion:Birthday");
const ZONE = "America/Chicago";
const SHOP = "https://shop.example/purchases/1/verified";
// 09:00 in Austin on Monday 30 November 2026.
const START = Date.parse("2026-11-30T15:00:00Z");
let now = START;

let sandbox: TestSandbox;
let client: SpaClient;

beforeAll(async () => ({ sandbox, client } = await startSandboxAndClient(() => now)));
afterAll(() => sandbox.stop());

type Body = Record<string, unknown> & { error: { code: number; message: string } | null };

const api = (method: string, path: string, body?: unknown) =>
  fetch(`${sandbox.baseUrl}${path}`, {
    method,
    headers: { authorization: `apikey ${TEST_API_KEY}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as Body }));

/** The refusal's code and message (the answer must be a refusal on HTTP 200). */
async function refused(method: string, path: string, body?: unknown) {
  const answer = await api(method, path, body);
  expect(answer.status).toBe(200);
  expect(answer.body.error, JSON.stringify(answer.body)).not.toBeNull();
  return answer.body.error!;
}

const newGuestId = () => createTestGuest(client, AUSTIN, "Sal", "Es");
const emailOf = async (guestId: string) => (await client.getGuest(guestId))!.email!;

async function invoiceJson(invoiceId: string) {
  return (await api("GET", `/v1/invoices/${invoiceId}?expand=InvoiceItems&expand=Transactions`)).body.invoice as {
    is_closed: boolean;
    invoice_number: string;
    invoice_number_prefix: string;
    invoice_dues: { total: number; paid: number; balance: number };
    invoice_items: {
      invoice_item_id: string;
      id: string;
      name: string;
      type: number;
      price: { sales: number; final: number; discount: number };
    }[];
  };
}

/** Charges the invoice's balance to the saved card, as the app does. */
const pay = (invoiceId: string, accountId: string) =>
  api("POST", `/v1/invoices/${invoiceId}/online_payments`, {
    account_id: accountId,
    center_id: AUSTIN,
    source: 1,
    redirect_uri: SHOP,
  });
const close = (invoiceId: string, body: unknown = {}) => api("POST", `/v1/invoices/${invoiceId}/close`, body);

const giftCard = (overrides: Record<string, unknown> = {}) => ({
  template_id: GC_100,
  occassion: { id: BIRTHDAY, message: "Happy birthday!" },
  recepient: { name: "Rosa Diaz", email: "rosa@example.com" },
  ...overrides,
});
const sellGiftCards = (guestId: string, giftcards: unknown[], center = AUSTIN) =>
  api("POST", "/v1/invoices/giftcards", { center_id: center, guest_id: guestId, giftcards });

async function book(guestId: string, date: string, addOnIds: string[] = [LED]) {
  const bookingId = await client.createBooking({
    centerId: AUSTIN,
    date,
    guestId,
    serviceId: FACIAL,
    therapistId: null,
    addOnIds,
  });
  const { times } = await client.listSlots(bookingId, date);
  expect(await client.reserveSlot(bookingId, times[0], ZONE)).not.toBeNull();
  return (await client.confirmBooking(bookingId, ZONE))!.invoiceId;
}

describe("what the clinics sell", () => {
  it("sells the three packages at every clinic, priced as its treatments are and below their single sessions", async () => {
    const singles = new Map(seedServices.map((s) => [seedGuid(`service:${s.code}`), s.price]));
    for (const center of seedCenters) {
      const { body } = await api("GET", `/v1/centers/${seedGuid(`center:${center.code}`)}/packages`);
      const packages = body.packages as {
        id: string;
        name: string;
        centers: { sale_price: number }[];
        benefits: { services: { id: string; quantity: number }[] };
        validity_days: number;
      }[];
      expect(packages.map((p) => [p.id, p.name, p.validity_days])).toEqual([
        [FACIAL_SERIES, "Signature Facial Series: 3 sessions", 365],
        [PEEL_SERIES, "Glow Peel Series: 4 sessions", 365],
        [LHR_SERIES, "Laser Hair Removal Small Area: 6 sessions", 365],
      ]);
      for (const pkg of packages) {
        const price = pkg.centers[0].sale_price;
        const sessions = pkg.benefits.services.reduce(
          (sum, s) => sum + Math.round(singles.get(s.id)! * center.priceLevel) * s.quantity,
          0,
        );
        expect(Number.isInteger(price), pkg.name).toBe(true);
        expect(price, `${pkg.name} at ${center.code}`).toBeLessThan(sessions);
      }
    }
    expect(seedPackages.map((p) => p.price)).toEqual([537, 520, 479]);
  });

  it("answers a clinic's packages in Zenoti's shape, paged, and refuses an unknown clinic as the memberships do", async () => {
    const { body } = await api("GET", `/v1/Centers/${NEW_YORK.replace(/-/g, "").toUpperCase()}/packages?page=1&size=1`);
    expect(body).toEqual({
      packages: [
        {
          id: FACIAL_SERIES,
          code: "PKG-FACIAL-3",
          name: "Signature Facial Series: 3 sessions",
          description: expect.any(String),
          type: 0,
          html_description: expect.stringMatching(/^<p>/),
          category_id: null,
          Business_unit_id: expect.any(String),
          version_id: FACIAL_SERIES,
          time: 30,
          booking_start_date: null,
          booking_end_date: null,
          commission: expect.any(Object),
          preferences: expect.any(Object),
          tags: [],
          catalog_info: {
            show_in_catalog: true,
            can_book: true,
            show_price: true,
            display_name: "",
            display_price: "",
            video_url: "",
          },
          centers: [{ center_id: NEW_YORK, currency_id: 148, sale_price: 698, tax_id: null, auto_renewal: false }],
          benefits: {
            services: [{ id: FACIAL, item_type: 2, quantity: 3, order: -1, recognize_revenue: true }],
            products: [],
            bundled_products: [],
          },
          validity_days: 365,
        },
      ],
      page_info: { total: 3, page: 1, size: 1 },
      error: null,
    });
    const unknown = crypto.randomUUID();
    const packages = await api("GET", `/v1/centers/${unknown}/packages`);
    const memberships = await api("GET", `/v1/centers/${unknown}/memberships`);
    expect([packages.status, packages.body.error]).toEqual([memberships.status, memberships.body.error]);
    expect(packages.body).toMatchObject({
      packages: null,
      page_info: null,
      error: { code: 502, message: "Invalid center_id" },
    });
    expect((await api("GET", `/v1/centers/${AUSTIN}/packages?size=101`)).body.Error).toMatchObject({ StatusCode: 422 });
  });

  it("answers the gift-card templates (presets, and any amount from $25 to $1,000) and the occasions", async () => {
    const { body } = await api("GET", `/v1/giftcards/templates?center_id=${AUSTIN}`);
    const preset = (code: string, value: number) => ({
      id: seedGuid(`giftcard-template:${code}`),
      name: `$${value} Gift Card`,
      code,
      value,
      price: value,
      allow_custom_amount: false,
      min_amount: null,
      max_amount: null,
      validity_days: 1825,
    });
    expect(body).toEqual({
      templates: [
        preset("GC-50", 50),
        preset("GC-100", 100),
        preset("GC-150", 150),
        preset("GC-250", 250),
        {
          id: GC_ANY,
          name: "Any amount",
          code: "GC-ANY",
          value: null,
          price: null,
          allow_custom_amount: true,
          min_amount: 25,
          max_amount: 1000,
          validity_days: 1825,
        },
      ],
      error: null,
    });
    for (const query of ["", `?center_id=${crypto.randomUUID()}`]) {
      expect(await refused("GET", `/v1/giftcards/templates${query}`)).toEqual({
        code: 502,
        message: "Invalid center_id",
      });
    }
    expect((await api("GET", "/v1/giftcards/occasions")).body).toEqual({
      occasions: ["Birthday", "Thank you", "Holidays", "Just because"].map((name) => ({
        id: seedGuid(`giftcard-occasion:${name}`),
        name,
        images: [],
      })),
      error: null,
    });
  });
});

describe("selling a membership", () => {
  it("refuses an unknown clinic, guest or plan", async () => {
    const guestId = await newGuestId();
    const sell = (body: Record<string, unknown>) =>
      refused("POST", "/v1/invoices/memberships", {
        center_id: AUSTIN,
        user_id: guestId,
        membership_ids: MONTHLY,
        ...body,
      });
    expect(await sell({ center_id: crypto.randomUUID() })).toEqual({ code: 502, message: "Invalid center_id" });
    expect(await sell({ user_id: crypto.randomUUID() })).toEqual({ code: 414, message: "Guest not found" });
    expect(await sell({ membership_ids: crypto.randomUUID() })).toEqual({
      code: 400,
      message: "Invalid membership_ids",
    });
    expect(await sell({ membership_ids: `${MONTHLY},${crypto.randomUUID()}` })).toMatchObject({ code: 400 });
    expect(await sell({ membership_ids: "" })).toMatchObject({ code: 400 });
    expect(await sell({ membership_ids: [MONTHLY, 5] })).toMatchObject({ code: 400 });
    // A plan this clinic does not sell.
    sandbox.db
      .prepare("DELETE FROM center_membership_plans WHERE center_id = ? AND membership_id = ?")
      .run(seedGuid("center:BNA"), ANNUAL);
    expect(await sell({ center_id: seedGuid("center:BNA"), membership_ids: ANNUAL })).toMatchObject({ code: 400 });
  });

  it("invoices the plans at the clinic's price, from one id, ids separated by commas or a list", async () => {
    const guestId = await newGuestId();
    const one = await api("POST", "/v1/invoices/memberships", {
      center_id: AUSTIN,
      user_id: guestId,
      membership_ids: MONTHLY.toUpperCase(),
    });
    expect(one.body).toEqual({
      success: true,
      invoice_id: expect.any(String),
      invoice_number: expect.stringMatching(/^\d+$/),
      error: null,
    });
    const invoice = await invoiceJson(one.body.invoice_id as string);
    expect(invoice).toMatchObject({
      is_closed: false,
      invoice_number: one.body.invoice_number,
      invoice_number_prefix: "ATX",
      invoice_dues: { total: 99, paid: 0, balance: 99 },
    });
    expect(invoice.invoice_items.map((i) => [i.id, i.name, i.type, i.price.sales])).toEqual([
      [MONTHLY, "Glow Monthly", 3, 99],
    ]);
    const two = await api("POST", "/v1/invoices/memberships", {
      center_id: AUSTIN,
      user_id: guestId,
      membership_ids: `${MONTHLY}, ${ANNUAL}`,
    });
    expect((await invoiceJson(two.body.invoice_id as string)).invoice_dues.total).toBe(1167);
    const list = await api("POST", "/v1/invoices/memberships", {
      center_id: AUSTIN,
      user_id: guestId,
      membership_ids: [ANNUAL],
    });
    expect((await invoiceJson(list.body.invoice_id as string)).invoice_dues.total).toBe(1068);
  });

  it("is paid with a saved card, refused a close before that, then closed once: the guest is a member by this invoice", async () => {
    const guestId = await newGuestId();
    const accountId = await saveTestCard(client, guestId, AUSTIN);
    const sale = await api("POST", "/v1/invoices/memberships", {
      center_id: AUSTIN,
      user_id: guestId,
      membership_ids: MONTHLY,
    });
    const invoiceId = sale.body.invoice_id as string;
    expect(await refused("POST", `/v1/invoices/${invoiceId}/close`)).toEqual({
      code: 1112,
      message: "Invoice is not fully paid",
    });
    expect(await client.guestMemberships(guestId)).toEqual([]);

    expect((await pay(invoiceId, accountId)).body).toMatchObject({
      invoice_transaction_id: expect.any(String),
      error: null,
    });
    expect((await close(invoiceId, { closed_by_id: crypto.randomUUID() })).body).toEqual({
      is_invoice_closed: true,
      success: true,
      error: null,
    });
    expect(await invoiceJson(invoiceId)).toMatchObject({
      is_closed: true,
      invoice_dues: { total: 99, paid: 99, balance: 0 },
    });

    const { body } = await api("GET", `/v1/guests/${guestId}/memberships`);
    const [membership] = body.guest_memberships as {
      user_membership_id: string;
      status: number;
      recurrence_status: number;
      member_since: string;
      invoice: Record<string, unknown>;
      membership: { id: string };
    }[];
    const item = (await invoiceJson(invoiceId)).invoice_items[0];
    expect(membership).toMatchObject({
      status: 1,
      recurrence_status: 1,
      member_since: "2026-11-30T00:00:00",
      membership: { id: MONTHLY },
      invoice: {
        id: invoiceId,
        no: `ATX${sale.body.invoice_number}`,
        receipt_no: `ATXR${sale.body.invoice_number}`,
        status: 4,
        item_id: item.invoice_item_id,
      },
    });
    // The card that paid renews it.
    expect(
      sandbox.db
        .prepare("SELECT recurring_account_id FROM guest_memberships WHERE user_membership_id = ?")
        .get(membership.user_membership_id),
    ).toEqual({ recurring_account_id: accountId });

    expect(await refused("POST", `/v1/invoices/${invoiceId}/close`)).toEqual({
      code: 1114,
      message: "Invoice is already closed",
    });
    expect((await api("GET", `/v1/guests/${guestId}/memberships`)).body.guest_memberships).toHaveLength(1);
  });

  it("keeps no renewal card for a plan that does not renew", async () => {
    const guestId = await newGuestId();
    const accountId = await saveTestCard(client, guestId, AUSTIN);
    const invoiceId = (
      await api("POST", "/v1/invoices/memberships", { center_id: AUSTIN, user_id: guestId, membership_ids: ANNUAL })
    ).body.invoice_id as string;
    await pay(invoiceId, accountId);
    await close(invoiceId);
    expect(
      sandbox.db
        .prepare("SELECT recurring_account_id, expiry_date FROM guest_memberships WHERE guest_id = ?")
        .get(guestId),
    ).toEqual({ recurring_account_id: null, expiry_date: "2027-11-29" });
  });

  it("is paid through 3-D Secure like a visit; a card whose charges are declined pays nothing", async () => {
    const guestId = await newGuestId();
    const secure = await saveTestCard(client, guestId, AUSTIN, THREE_DS_TEST_CARD);
    const invoiceId = (
      await api("POST", "/v1/invoices/memberships", { center_id: AUSTIN, user_id: guestId, membership_ids: MONTHLY })
    ).body.invoice_id as string;
    const charge = await pay(invoiceId, secure);
    expect(charge.body).toMatchObject({
      invoice_transaction_id: null,
      hosted_payment_uri: expect.stringContaining("/hosted/verify/"),
    });
    const check = await fetch(charge.body.hosted_payment_uri as string);
    expect(await check.text()).toContain("$99.00");
    expect(await refused("POST", `/v1/invoices/${invoiceId}/close`)).toMatchObject({ code: 1112 });
    const answer = await fetch(charge.body.hosted_payment_uri as string, {
      method: "POST",
      body: new URLSearchParams({ result: "approve" }),
      redirect: "manual",
    });
    expect(answer.headers.get("location")).toBe(`${SHOP}?status=successful`);
    expect((await close(invoiceId)).body.is_invoice_closed).toBe(true);
    expect((await client.guestMemberships(guestId)).map((m) => m.membershipId)).toEqual([MONTHLY]);

    const other = await newGuestId();
    const declined = await saveTestCard(client, other, AUSTIN, CHARGE_DECLINED_TEST_CARD);
    const unpaid = (
      await api("POST", "/v1/invoices/memberships", { center_id: AUSTIN, user_id: other, membership_ids: MONTHLY })
    ).body.invoice_id as string;
    expect(
      await refused("POST", `/v1/invoices/${unpaid}/online_payments`, {
        account_id: declined,
        center_id: AUSTIN,
        redirect_uri: SHOP,
      }),
    ).toMatchObject({ code: 4063 });
    expect(await refused("POST", `/v1/invoices/${unpaid}/close`)).toMatchObject({ code: 1112 });
  });

  it("is never discounted by a campaign", async () => {
    const guestId = await newGuestId();
    const invoiceId = (
      await api("POST", "/v1/invoices/memberships", { center_id: AUSTIN, user_id: guestId, membership_ids: MONTHLY })
    ).body.invoice_id as string;
    const applied = await api("POST", `/v1/invoices/${invoiceId}/campaign_discount/apply`, {
      offer_code: "WELCOME10",
      center_id: AUSTIN,
    });
    expect(applied.body.error).toBeNull();
    expect((await invoiceJson(invoiceId)).invoice_items.map((i) => i.price)).toEqual([
      { currency_id: 148, sales: 99, tax: 0, final: 99, discount: 0 },
    ]);
  });
});

describe("closing an invoice", () => {
  it("refuses an unknown invoice and a visit still to come; closes a visit the guest has been to", async () => {
    expect(await refused("POST", `/v1/invoices/${crypto.randomUUID()}/close`)).toMatchObject({ code: 428 });
    const invoiceId = await book(await newGuestId(), "2026-12-02");
    expect(await refused("POST", `/v1/invoices/${invoiceId}/close`)).toEqual({
      code: 1113,
      message: "This invoice has a future appointment and will not be closed.",
    });
    expect(
      (await api("POST", `/v1/sandbox/appointments/${invoiceId}/move`, { start: "2026-11-20T10:00:00" })).body.success,
    ).toBe(true);
    expect((await close(invoiceId)).body).toEqual({ is_invoice_closed: true, success: true, error: null });
    expect(await refused("POST", `/v1/invoices/${invoiceId}/close`)).toMatchObject({ code: 1114 });
  });
});

describe("selling a package", () => {
  it("refuses an unknown clinic or guest, and a package the clinic does not sell", async () => {
    const guestId = await newGuestId();
    const sell = (body: Record<string, unknown>) =>
      refused("POST", "/v1/invoices/packages", {
        center_id: AUSTIN,
        guest_id: guestId,
        package_details: [{ id: PEEL_SERIES }],
        ...body,
      });
    expect(await sell({ center_id: crypto.randomUUID() })).toMatchObject({ code: 502 });
    expect(await sell({ guest_id: crypto.randomUUID() })).toMatchObject({ code: 414 });
    expect(await sell({ package_details: [{ id: crypto.randomUUID() }] })).toEqual({
      code: 400,
      message: "Invalid package",
    });
    expect(await sell({ package_details: [{ id: PEEL_SERIES }, {}] })).toEqual({
      code: 400,
      message: "Invalid package",
    });
    expect(await sell({ package_details: [] })).toMatchObject({ code: 400 });
    expect(await sell({ notes: 5 })).toMatchObject({ code: 400 });
    sandbox.db
      .prepare("DELETE FROM center_packages WHERE center_id = ? AND package_id = ?")
      .run(seedGuid("center:BNA"), PEEL_SERIES);
    expect(await sell({ center_id: seedGuid("center:BNA") })).toEqual({ code: 400, message: "Invalid package" });
  });

  it("is paid, closed, and then the guest's package with its sessions, in Zenoti's shape", async () => {
    const guestId = await newGuestId();
    const accountId = await saveTestCard(client, guestId, AUSTIN);
    const sale = await api("POST", "/v1/invoices/packages", {
      center_id: AUSTIN,
      guest_id: guestId,
      notes: "Bought online",
      package_details: [{ id: PEEL_SERIES.toUpperCase() }],
    });
    expect(sale.body).toEqual({
      invoice_id: expect.any(String),
      invoice_number: expect.stringMatching(/^\d+$/),
      error: null,
    });
    const invoiceId = sale.body.invoice_id as string;
    expect((await invoiceJson(invoiceId)).invoice_items.map((i) => [i.id, i.type, i.price.sales])).toEqual([
      [PEEL_SERIES, 4, 520],
    ]);
    expect(await refused("POST", `/v1/invoices/${invoiceId}/close`)).toMatchObject({ code: 1112 });
    expect((await api("GET", `/v1/guests/${guestId}/Packages`)).body.packages).toEqual([]);
    await pay(invoiceId, accountId);
    expect((await close(invoiceId)).body.is_invoice_closed).toBe(true);

    const { body } = await api(
      "GET",
      `/v1/guests/${guestId}/Packages?center_id=${AUSTIN}&show_redeemable=true&page_num=1&page_size=10`,
    );
    expect(body).toEqual({
      packages: [
        {
          user_package_id: expect.any(String),
          user_package_state: 1,
          status: 1,
          package: { id: PEEL_SERIES, name: "Glow Peel Series: 4 sessions", type: 0 },
          invoice: {
            id: invoiceId,
            no: `ATX${sale.body.invoice_number}`,
            receipt_no: `ATXR${sale.body.invoice_number}`,
            status: 4,
          },
          date: {
            start: "2026-11-30T00:00:00",
            end: "2027-11-30T00:00:00",
            end_date_with_grace: "2027-11-30T00:00:00",
          },
          services: [
            {
              service_type_info: {
                id: seedGuid("service:PEEL-GLOW"),
                name: "Glow Peel",
                duration: 30,
                has_segments: false,
              },
              exists_in_current_center: true,
              total: 4,
              used: 0,
              balance: 4,
              price: null,
              sale_as_part_of_package_or_membership_only: false,
            },
          ],
          products: [],
          never_expires: false,
          start_validity_at_first_redemption: false,
          expiration_days: 365,
          purchase_price: 520,
        },
      ],
      page_info: { total: 1, page: 1, size: 10 },
      error: null,
    });
    // The lower-case path is the same call; another clinic's filter has none.
    expect((await api("GET", `/v1/guests/${guestId}/packages`)).body.packages).toHaveLength(1);
    expect((await api("GET", `/v1/guests/${guestId}/Packages?center_id=${NEW_YORK}`)).body.packages).toEqual([]);
  });

  it("lists a guest's packages as the other guest calls refuse and page", async () => {
    expect(await refused("GET", `/v1/guests/${crypto.randomUUID()}/Packages`)).toEqual({
      code: 414,
      message: "Guest not found",
    });
    const guestId = await newGuestId();
    expect(await refused("GET", `/v1/guests/${guestId}/Packages?center_id=${crypto.randomUUID()}`)).toMatchObject({
      code: 502,
    });
    expect((await api("GET", `/v1/guests/${guestId}/Packages?page_size=101`)).body.Error).toMatchObject({
      StatusCode: 422,
    });
    expect((await api("GET", `/v1/guests/${guestId}/Packages?page_num=0`)).status).toBe(400);
  });
});

/** A guest who bought and was given the facial series at Austin; the package's id. */
async function facialSeriesOwner() {
  const guestId = await newGuestId();
  const accountId = await saveTestCard(client, guestId, AUSTIN);
  const invoiceId = (
    await api("POST", "/v1/invoices/packages", {
      center_id: AUSTIN,
      guest_id: guestId,
      package_details: [{ id: FACIAL_SERIES }],
    })
  ).body.invoice_id as string;
  await pay(invoiceId, accountId);
  await close(invoiceId);
  const [owned] = (await api("GET", `/v1/guests/${guestId}/Packages`)).body.packages as { user_package_id: string }[];
  return { guestId, userPackageId: owned.user_package_id };
}

describe("redeeming a package on a visit", () => {
  it("takes a session for a treatment line the package covers, which then owes nothing, once", async () => {
    const { guestId, userPackageId } = await facialSeriesOwner();
    const visit = await book(guestId, "2026-12-03");
    const [facialLine, ledLine] = (await invoiceJson(visit)).invoice_items;
    const redeem = (user_package_id: string, invoice_item_id: string, invoiceId = visit) =>
      api("POST", `/v1/invoices/${invoiceId}/redemptions/packages`, {
        package_redemptions: [{ user_package_id, invoice_item_id }],
      });

    // Not covered (the add-on), another guest's package, a line of another invoice, no body.
    expect((await redeem(userPackageId, ledLine.invoice_item_id)).body.error).toMatchObject({
      code: 400,
      message: "The package does not cover this service",
    });
    const stranger = await facialSeriesOwner();
    expect((await redeem(stranger.userPackageId, facialLine.invoice_item_id)).body.error).toMatchObject({
      code: 400,
      message: "Invalid user_package_id",
    });
    const otherVisit = await book(stranger.guestId, "2026-12-04");
    expect(
      (await redeem(userPackageId, (await invoiceJson(otherVisit)).invoice_items[0].invoice_item_id)).body.error,
    ).toMatchObject({ code: 429 });
    expect(await refused("POST", `/v1/invoices/${visit}/redemptions/packages`, {})).toMatchObject({ code: 400 });
    expect(
      await refused("POST", `/v1/invoices/${crypto.randomUUID()}/redemptions/packages`, { package_redemptions: [] }),
    ).toMatchObject({ code: 428 });

    expect((await redeem(userPackageId, facialLine.invoice_item_id.toUpperCase())).body).toEqual({
      success: true,
      error: null,
    });
    const invoice = await invoiceJson(visit);
    expect(invoice.invoice_items[0].price).toMatchObject({ sales: 199, discount: 199, final: 0 });
    expect(invoice.invoice_dues.balance).toBe(50);
    expect((await redeem(userPackageId, facialLine.invoice_item_id)).body.error).toMatchObject({
      code: 400,
      message: "The invoice item is already redeemed",
    });
    // A campaign applied afterwards leaves the redeemed line as it is.
    await api("POST", `/v1/invoices/${visit}/campaign_discount/apply`, { offer_code: "WELCOME10", center_id: AUSTIN });
    expect((await invoiceJson(visit)).invoice_items.map((i) => i.price.discount)).toEqual([199, 5]);

    const sessions = async () =>
      ((await api("GET", `/v1/guests/${guestId}/Packages`)).body.packages as { services: { used: number }[] }[])[0]
        .services[0];
    expect(await sessions()).toEqual(expect.objectContaining({ total: 3, used: 1, balance: 2 }));

    // The visit's line removed (a payment that failed): the session is given back, once.
    const remove = () =>
      api("DELETE", `/v1/invoices/${visit}/invoiceitems/${facialLine.invoice_item_id}`, {
        comments: "Removing appointment due to payment failed",
      });
    await remove();
    await remove();
    expect(await sessions()).toEqual(expect.objectContaining({ used: 0, balance: 3 }));
  });

  it("refuses a package with no session left or past its end, which are no longer redeemable", async () => {
    const { guestId, userPackageId } = await facialSeriesOwner();
    const visit = await book(guestId, "2026-12-05", []);
    const [line] = (await invoiceJson(visit)).invoice_items;
    const redeem = () =>
      api("POST", `/v1/invoices/${visit}/redemptions/packages`, {
        package_redemptions: [{ user_package_id: userPackageId, invoice_item_id: line.invoice_item_id }],
      });
    const redeemable = async () =>
      ((await api("GET", `/v1/guests/${guestId}/Packages?show_redeemable=true`)).body.packages as unknown[]).length;

    sandbox.db
      .prepare("UPDATE guest_package_services SET redeemed = quantity WHERE user_package_id = ?")
      .run(userPackageId);
    expect((await redeem()).body.error).toMatchObject({
      code: 400,
      message: "The package has no sessions of this service left",
    });
    expect(await redeemable()).toBe(0);
    expect(
      ((await api("GET", `/v1/guests/${guestId}/Packages`)).body.packages as { status: number }[]).map((p) => p.status),
    ).toEqual([6]);

    sandbox.db.prepare("UPDATE guest_package_services SET redeemed = 0 WHERE user_package_id = ?").run(userPackageId);
    sandbox.db
      .prepare("UPDATE guest_packages SET end_date = '2026-11-29' WHERE user_package_id = ?")
      .run(userPackageId);
    expect((await redeem()).body.error).toMatchObject({ code: 400, message: "The package has expired" });
    expect(await redeemable()).toBe(0);
    expect((await invoiceJson(visit)).invoice_items[0].price.discount).toBe(0);
  });
});

describe("selling a gift card", () => {
  it("refuses every order the template, the occasions or the recipient do not allow", async () => {
    const guestId = await newGuestId();
    const refusal = async (card: Record<string, unknown>) => (await sellGiftCards(guestId, [card])).body.error;
    const custom = (value: unknown, price: unknown = value) =>
      giftCard({ template_id: GC_ANY, custom_amount: { price, value } });

    expect((await sellGiftCards(guestId, [giftCard()], crypto.randomUUID())).body.error).toMatchObject({ code: 502 });
    expect(
      (
        await api("POST", "/v1/invoices/giftcards", {
          center_id: AUSTIN,
          guest_id: crypto.randomUUID(),
          giftcards: [giftCard()],
        })
      ).body.error,
    ).toMatchObject({ code: 414 });
    expect((await sellGiftCards(guestId, [])).body.error).toMatchObject({
      code: 400,
      message: "giftcards is required",
    });
    expect(await refusal(giftCard({ template_id: crypto.randomUUID() }))).toMatchObject({
      code: 400,
      message: expect.stringContaining("template_id"),
    });
    expect(await refusal(giftCard({ template_id: GC_ANY }))).toMatchObject({
      message: "custom_amount is required for this template",
    });
    expect(await refusal(giftCard({ custom_amount: { price: 100, value: 100 } }))).toMatchObject({
      message: "custom_amount is not allowed for this template",
    });
    expect(await refusal(custom(24.99))).toMatchObject({ message: "custom_amount.value must be between 25 and 1000" });
    expect(await refusal(custom(1000.01))).toMatchObject({
      message: "custom_amount.value must be between 25 and 1000",
    });
    expect(await refusal(custom(30.005))).toMatchObject({
      message: "custom_amount.value must have at most 2 decimals",
    });
    expect(await refusal(custom(30, 25))).toMatchObject({
      message: "custom_amount.price must equal custom_amount.value",
    });
    expect(await refusal(custom("30"))).toMatchObject({ code: 400 });
    expect(await refusal(giftCard({ recepient: { name: "  ", email: "rosa@example.com" } }))).toMatchObject({
      message: expect.stringContaining("recepient.name"),
    });
    expect(await refusal(giftCard({ recepient: { name: "Rosa", email: "rosa@example" } }))).toMatchObject({
      message: "recepient.email is not a valid email address",
    });
    expect(await refusal(giftCard({ occassion: { id: crypto.randomUUID(), message: "" } }))).toMatchObject({
      message: "Invalid occassion.id",
    });
    expect(await refusal(giftCard({ occassion: { id: BIRTHDAY, message: "x".repeat(501) } }))).toMatchObject({
      message: expect.stringContaining("500 characters"),
    });
    expect(
      await refusal(giftCard({ occassion: { id: BIRTHDAY, image_id: crypto.randomUUID(), message: "" } })),
    ).toMatchObject({ message: "Invalid occassion.image_id" });
    expect(await refusal(giftCard({ schedule_time: "2026-12-25" }))).toMatchObject({
      message: expect.stringContaining("YYYY-MM-DDTHH:mm:ss"),
    });
    expect(await refusal(giftCard({ schedule_time: "2026-12-25T25:00:00" }))).toMatchObject({
      message: expect.stringContaining("YYYY-MM-DDTHH:mm:ss"),
    });
    expect(await refusal(giftCard({ schedule_time: "2026-11-29T18:00:00" }))).toMatchObject({
      message: "schedule_time must not be before today at the center",
    });
    // The correctly spelled keys are not Zenoti's: they count as missing.
    const { recepient, occassion, ...rest } = giftCard();
    expect(await refusal({ ...rest, recipient: recepient, occassion })).toMatchObject({
      message: "recepient is required",
    });
    expect(await refusal({ ...rest, recepient, occasion: occassion })).toMatchObject({
      message: "occassion is required",
    });
    // A template this clinic does not sell.
    sandbox.db
      .prepare("DELETE FROM center_giftcard_templates WHERE center_id = ? AND template_id = ?")
      .run(seedGuid("center:BNA"), GC_100);
    expect((await sellGiftCards(guestId, [giftCard()], seedGuid("center:BNA"))).body.error).toMatchObject({
      code: 400,
    });
    // Nothing was invoiced along the way.
    expect(sandbox.db.prepare("SELECT COUNT(*) AS n FROM invoices WHERE guest_id = ?").get(guestId)).toEqual({ n: 0 });
  });

  it("is paid, closed and sent: one email per card, on its day; the cards' balances; the buyer's and the recipient's cards", async () => {
    const buyerId = await newGuestId();
    const recipientId = await newGuestId();
    const recipientEmail = await emailOf(recipientId);
    const accountId = await saveTestCard(client, buyerId, AUSTIN);
    const sale = await sellGiftCards(buyerId, [
      giftCard({ recepient: { name: "Rosa Diaz", email: recipientEmail.toUpperCase() } }),
      giftCard({
        template_id: GC_ANY,
        custom_amount: { price: 75.5, value: 75.5 },
        schedule_time: "2026-12-25T08:00:00",
        recepient: { name: "Amy Santiago", email: "amy@example.com" },
        occassion: { id: seedGuid("giftcard-occasion:Holidays"), message: "Merry Christmas" },
      }),
    ]);
    expect(sale.body).toEqual({
      invoice_id: expect.any(String),
      invoice_number: expect.stringMatching(/^\d+$/),
      error: null,
    });
    const invoiceId = sale.body.invoice_id as string;
    const invoice = await invoiceJson(invoiceId);
    expect(invoice.invoice_items.map((i) => [i.id, i.name, i.type, i.price.sales])).toEqual([
      [GC_100, "$100 Gift Card", 6, 100],
      [GC_ANY, "Any amount", 6, 75.5],
    ]);
    expect(invoice.invoice_dues.total).toBe(175.5);

    expect(await refused("POST", `/v1/invoices/${invoiceId}/send_giftcard_email`)).toEqual({
      code: 1115,
      message: "Invoice is not closed",
    });
    await pay(invoiceId, accountId);
    expect((await close(invoiceId)).body.is_invoice_closed).toBe(true);
    expect((await api("POST", `/v1/invoices/${invoiceId}/send_giftcard_email`)).body).toEqual({
      success: true,
      error: null,
    });
    expect((await api("POST", `/v1/invoices/${invoiceId}/send_giftcard_email`)).body).toEqual({
      success: true,
      error: null,
    });
    expect(
      sandbox.db
        .prepare(
          "SELECT COUNT(*) AS n FROM giftcard_emails e JOIN gift_cards g ON g.id = e.gift_card_id WHERE g.invoice_id = ?",
        )
        .get(invoiceId),
    ).toEqual({ n: 2 });

    const emails = async (email: string) =>
      (await api("GET", `/v1/sandbox/giftcard_emails?email=${encodeURIComponent(email)}`)).body.emails as Record<
        string,
        unknown
      >[];
    const [email] = await emails(recipientEmail);
    expect(await emails(recipientEmail)).toHaveLength(1);
    expect(email).toEqual({
      to: { name: "Rosa Diaz", email: recipientEmail.toUpperCase() },
      from: expect.stringMatching(/^Sal Es/),
      card_number: expect.stringMatching(/^\d{12}$/),
      value: 100,
      occasion: "Birthday",
      message: "Happy birthday!",
      delivered_at: new Date(now).toISOString(),
    });
    // Scheduled for Christmas Day in Austin: not delivered before.
    expect(await emails("amy@example.com")).toEqual([]);

    const buyerCards = (await api("GET", `/v1/guests/${buyerId}/gift_cards`)).body.gift_cards as {
      number: string;
      value: number;
    }[];
    expect(buyerCards.map((c) => c.value).sort()).toEqual([100, 75.5]);
    const card = (await api("GET", `/v1/guests/${recipientId}/gift_cards`)).body.gift_cards as Record<
      string,
      unknown
    >[];
    expect(card).toEqual([
      {
        id: expect.any(String),
        number: email.card_number,
        value: 100,
        balance: 100,
        expiry_date: "2031-11-29T00:00:00",
        issued_on: "2026-11-30T00:00:00",
        status: "Active",
        purchased_by: { id: buyerId, first_name: "Sal", last_name: expect.stringMatching(/^Es/) },
        recipient: { name: "Rosa Diaz", email: recipientEmail.toUpperCase() },
        invoice_id: invoiceId,
      },
    ]);
    const balance = await api("GET", `/v1/giftcards/${email.card_number}/balance`);
    expect(balance.body).toEqual({
      gift_card: {
        number: email.card_number,
        value: 100,
        balance: 100,
        expiry_date: "2031-11-29T00:00:00",
        status: "Active",
      },
      error: null,
    });
    expect(await refused("GET", "/v1/giftcards/000000000000/balance")).toEqual({
      code: 404,
      message: "Gift card not found",
    });

    // Amy's card arrives as Christmas Day begins in Austin (06:00 UTC), not a minute before.
    now = Date.parse("2026-12-25T05:59:00Z");
    try {
      expect(await emails("amy@example.com")).toEqual([]);
      now = Date.parse("2026-12-25T06:00:00Z");
      const [christmas] = await emails("AMY@example.com");
      expect(christmas).toMatchObject({
        value: 75.5,
        occasion: "Holidays",
        message: "Merry Christmas",
        delivered_at: "2026-12-25T06:00:00.000Z",
      });
      expect((await api("GET", `/v1/giftcards/${christmas.card_number}/balance`)).body.gift_card).toMatchObject({
        value: 75.5,
        balance: 75.5,
      });
    } finally {
      now = START;
    }
    sandbox.db.prepare("UPDATE gift_cards SET expiry_date = '2026-11-29' WHERE number = ?").run(email.card_number);
    expect((await api("GET", `/v1/giftcards/${email.card_number}/balance`)).body.gift_card).toMatchObject({
      status: "Expired",
    });
  });

  it("refuses to send an unknown invoice's cards, and an invoice without any", async () => {
    expect(await refused("POST", `/v1/invoices/${crypto.randomUUID()}/send_giftcard_email`)).toMatchObject({
      code: 428,
    });
    const guestId = await newGuestId();
    const accountId = await saveTestCard(client, guestId, AUSTIN);
    const invoiceId = (
      await api("POST", "/v1/invoices/packages", {
        center_id: AUSTIN,
        guest_id: guestId,
        package_details: [{ id: LHR_SERIES }],
      })
    ).body.invoice_id as string;
    await pay(invoiceId, accountId);
    await close(invoiceId);
    expect(await refused("POST", `/v1/invoices/${invoiceId}/send_giftcard_email`)).toMatchObject({ code: 400 });
    expect(await refused("GET", `/v1/guests/${crypto.randomUUID()}/gift_cards`)).toEqual({
      code: 414,
      message: "Guest not found",
    });
    expect(await refused("GET", "/v1/sandbox/giftcard_emails")).toMatchObject({ code: 400 });
  });
});
