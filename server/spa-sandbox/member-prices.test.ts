import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coveredByMembership } from "~/domain/service-kinds";
import {
  createTestGuest,
  saveTestCard,
  startSandboxAndClient,
  TEST_API_KEY,
  type TestSandbox,
} from "../../tests/helpers/sandbox-server";
import type { SpaClient } from "../spa/client.server";
import { seedGuid } from "./db";
import { createSpaSandbox } from "./index";
import { percentOffCents } from "./member-prices";
import { seedMembershipPlans, seedServices } from "./seed-data";

/**
 * Member prices: a plan's percent off its members' treatments and add-ons, applied by the back end
 * to a member's visit invoice (never sculpting or laser hair removal, never what the plan covers,
 * never a sale's line or a line a package pays for), and listed with each plan.
 */

const AUSTIN = seedGuid("center:ATX");
const DALLAS = seedGuid("center:DAL");
const HOUSTON = seedGuid("center:HOU");
const MONTHLY = seedGuid("membership:GLOW-MONTHLY");
const PLUS = seedGuid("membership:GLOW-PLUS");
const ANNUAL = seedGuid("membership:GLOW-ANNUAL");
const PEEL_SERIES = seedGuid("package:PKG-PEEL-4");
const service = (code: string) => seedGuid(`service:${code}`);
const NEW_FACIAL = service("FT-NEW");
const FACIAL = service("FT-RET");
const PEEL = service("PEEL-GLOW");
const LED = service("ADD-LED");
const ZONE = "America/Chicago";
// 09:00 in Austin on Monday 30 November 2026.
const now = Date.parse("2026-11-30T15:00:00Z");

let sandbox: TestSandbox;
let client: SpaClient;

beforeAll(async () => ({ sandbox, client } = await startSandboxAndClient(() => now)));
afterAll(() => sandbox.stop());

const api = (method: string, path: string, body?: unknown) =>
  fetch(`${sandbox.baseUrl}${path}`, {
    method,
    headers: { authorization: `apikey ${TEST_API_KEY}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(
    async (r) => (await r.json()) as Record<string, unknown> & { error: { code: number; message: string } | null },
  );

const newGuestId = () => createTestGuest(client, AUSTIN, "Mem", "Price");

/** A guest with these memberships (the sandbox's control), each `[plan, status, clinic]`. */
async function memberOf(...memberships: [string, number?, string?][]): Promise<string> {
  const guestId = await newGuestId();
  for (const [membershipId, status = 1, centerId = AUSTIN] of memberships) {
    const given = await api("POST", `/v1/sandbox/guests/${guestId}/memberships`, {
      membership_id: membershipId,
      status,
      center_id: centerId,
    });
    expect(given.error).toBeNull();
  }
  return guestId;
}

/** Books, reserves and confirms a visit at the first free time of the day; its invoice. */
async function book(
  guestId: string,
  date: string,
  serviceId: string,
  addOnIds: string[],
  centerId = AUSTIN,
): Promise<string> {
  const bookingId = await client.createBooking({ centerId, date, guestId, serviceId, therapistId: null, addOnIds });
  const { times } = await client.listSlots(bookingId, date);
  expect(await client.reserveSlot(bookingId, times[0], ZONE)).not.toBeNull();
  return (await client.confirmBooking(bookingId, ZONE))!.invoiceId;
}

/** The invoice's lines as [name, price, discount] in cents, and its total. */
async function priced(invoiceId: string) {
  const invoice = await client.getInvoice(invoiceId);
  return { lines: invoice.items.map((i) => [i.name, i.price, i.discount]), total: invoice.total };
}

const applyCampaign = (invoiceId: string, code: string) =>
  api("POST", `/v1/invoices/${invoiceId}/campaign_discount/apply`, { offer_code: code, center_id: AUSTIN });

describe("a member's visit", () => {
  it("has the plan's percent off the treatment and the add-on from the confirm on", async () => {
    const guestId = await memberOf([MONTHLY]);
    const visit = await book(guestId, "2026-12-01", NEW_FACIAL, [LED]);
    expect(await priced(visit)).toEqual({
      lines: [
        ["Signature Laser Facial - New Client", 27500, 2750],
        ["LED Light Therapy Enhancement (Addon)", 5000, 500],
      ],
      total: 29250,
    });
  });

  it("has none for a guest who is not a member, or whose membership has lapsed; a frozen one still counts, from any clinic", async () => {
    const plain = await book(await newGuestId(), "2026-12-01", NEW_FACIAL, [LED]);
    expect((await priced(plain)).lines.map((l) => l[2])).toEqual([0, 0]);
    for (const lapsed of [4, 2, 5]) {
      const visit = await book(await memberOf([MONTHLY, lapsed]), "2026-12-02", NEW_FACIAL, [LED]);
      expect(
        (await priced(visit)).lines.map((l) => l[2]),
        `status ${lapsed}`,
      ).toEqual([0, 0]);
    }
    const frozen = await book(await memberOf([MONTHLY, 3]), "2026-12-02", NEW_FACIAL, [LED]);
    expect((await priced(frozen)).lines.map((l) => l[2])).toEqual([2750, 500]);
    // A member of Dallas books in Austin.
    const elsewhere = await book(await memberOf([MONTHLY, 1, DALLAS]), "2026-12-03", NEW_FACIAL, [LED]);
    expect((await priced(elsewhere)).lines.map((l) => l[2])).toEqual([2750, 500]);
  });

  it("never has it on laser hair removal or sculpting", async () => {
    const guestId = await memberOf([ANNUAL]);
    const lhr = await book(guestId, "2026-12-03", service("LHR"), [service("LHR-UNDERARM")]);
    expect((await priced(lhr)).lines).toEqual([
      ["Laser Hair Removal", 0, 0],
      ["Laser Hair Removal Area - Underarms", 9900, 0],
    ]);
    const face = await book(guestId, "2026-12-04", service("LHR-PF"), [service("LHR-PF-LIP")]);
    expect((await priced(face)).lines.map((l) => l[2])).toEqual([0, 0]);
    const sculpt = await book(guestId, "2026-12-07", service("SCULPT"), []);
    expect(await priced(sculpt)).toEqual({ lines: [["Sculpting", 30000, 0]], total: 30000 });
  });

  it("has no percent off what the plan covers (it comes with the plan), and the other lines have theirs", async () => {
    const monthly = await book(await memberOf([MONTHLY]), "2026-12-04", FACIAL, [service("ADD-DERMA")]);
    expect((await priced(monthly)).lines).toEqual([
      ["Signature Laser Facial", 19900, 0],
      ["Dermaplaning Enhancement (Addon)", 7500, 750],
    ]);
    const plus = await book(await memberOf([PLUS]), "2026-12-04", PEEL, [service("PEEL-ADD-NECK")]);
    expect((await priced(plus)).lines).toEqual([
      ["Glow Peel", 15000, 0],
      ["Peel Area - Neck", 5000, 500],
    ]);
  });

  it("takes the best of the guest's active plans", async () => {
    const visit = await book(await memberOf([MONTHLY], [ANNUAL], [PLUS, 4]), "2026-12-05", NEW_FACIAL, [LED]);
    expect((await priced(visit)).lines.map((l) => l[2])).toEqual([4125, 750]);
  });

  it("is worked out in cents, half a cent rounded up", async () => {
    expect([
      percentOffCents(4495, 10),
      percentOffCents(27495, 15),
      percentOffCents(5, 10),
      percentOffCents(4, 10),
      percentOffCents(0, 15),
      percentOffCents(100, 0),
    ]).toEqual([450, 4124, 1, 0, 0, 0]);
    // Houston's prices in cents, for this test only.
    const setPrice = sandbox.db.prepare(
      "UPDATE center_services SET sale_price = ? WHERE center_id = ? AND service_id = ?",
    );
    setPrice.run(274.95, HOUSTON, NEW_FACIAL);
    setPrice.run(44.95, HOUSTON, service("ADD-MASK"));
    const visit = await book(await memberOf([ANNUAL]), "2026-12-08", NEW_FACIAL, [service("ADD-MASK")], HOUSTON);
    // 15% of $274.95 is $41.2425, of $44.95 $6.7425.
    expect(await priced(visit)).toEqual({
      lines: [
        ["Signature Laser Facial - New Client", 27495, 4124],
        ["Hydrating Mask Enhancement (Addon)", 4495, 674],
      ],
      total: 27495 - 4124 + 4495 - 674,
    });
    // 10% of $274.95 is $27.495, of $44.95 $4.495: half a cent, rounded up.
    const monthly = await book(await memberOf([MONTHLY]), "2026-12-09", NEW_FACIAL, [service("ADD-MASK")], HOUSTON);
    expect((await priced(monthly)).lines.map((l) => l[2])).toEqual([2750, 450]);
  });

  it("keeps it when the visit is rescheduled", async () => {
    const guestId = await memberOf([MONTHLY]);
    const visit = await book(guestId, "2026-12-09", NEW_FACIAL, [LED]);
    const before = await priced(visit);
    const [group] = await client.listGuestAppointments(guestId);
    const bookingId = await client.createBooking({
      centerId: AUSTIN,
      date: "2026-12-10",
      guestId,
      serviceId: NEW_FACIAL,
      therapistId: null,
      addOnIds: [LED],
      reschedule: { invoiceId: visit, invoiceItemId: group.services.find((s) => !s.isAddOn)!.invoiceItemId! },
    });
    expect(await client.reserveSlot(bookingId, "2026-12-10T14:00:00", ZONE)).not.toBeNull();
    expect((await client.confirmBooking(bookingId, ZONE))?.invoiceId).toBe(visit);
    expect(await priced(visit)).toEqual(before);
    expect(before.lines.map((l) => l[2])).toEqual([2750, 500]);
  });
});

describe("member prices and promos", () => {
  it("do not stack: each line takes the larger discount, also when the campaign is applied later", async () => {
    // 15% for the member against WELCOME10's 10%: the member's on both lines.
    const annual = await book(await memberOf([ANNUAL]), "2026-12-11", NEW_FACIAL, [LED]);
    expect((await applyCampaign(annual, "WELCOME10")).error).toBeNull();
    expect((await priced(annual)).lines.map((l) => l[2])).toEqual([4125, 750]);
    // ADDON20's $20 off the add-on is more than 10% of it; it gives nothing on the treatment.
    const monthly = await book(await memberOf([MONTHLY]), "2026-12-11", NEW_FACIAL, [LED]);
    expect((await applyCampaign(monthly, "ADDON20")).error).toBeNull();
    expect(await priced(monthly)).toEqual({
      lines: [
        ["Signature Laser Facial - New Client", 27500, 2750],
        ["LED Light Therapy Enhancement (Addon)", 5000, 2000],
      ],
      total: 27500 - 2750 + 5000 - 2000,
    });
    // GLOW50 sells the new client's facial at $50: more than the member's 10%.
    const glow = await book(await memberOf([MONTHLY]), "2026-12-12", NEW_FACIAL, [LED]);
    await applyCampaign(glow, "GLOW50");
    expect((await priced(glow)).lines.map((l) => l[2])).toEqual([22500, 500]);
  });

  it("leave a line a package paid for fully discounted, and never touch a sale's lines", async () => {
    const guestId = await memberOf([MONTHLY]);
    const accountId = await saveTestCard(client, guestId, AUSTIN);
    const sale = await api("POST", "/v1/invoices/packages", {
      center_id: AUSTIN,
      guest_id: guestId,
      package_details: [{ id: PEEL_SERIES }],
    });
    const saleId = sale.invoice_id as string;
    // A member buys the series at its price.
    expect(await priced(saleId)).toEqual({ lines: [["Glow Peel Series: 4 sessions", 52000, 0]], total: 52000 });
    await api("POST", `/v1/invoices/${saleId}/online_payments`, {
      account_id: accountId,
      center_id: AUSTIN,
      source: 1,
      redirect_uri: "https://shop.example/done",
    });
    expect((await api("POST", `/v1/invoices/${saleId}/close`, {})).error).toBeNull();
    const [owned] = (await api("GET", `/v1/guests/${guestId}/Packages`)).packages as { user_package_id: string }[];
    const membershipSale = await api("POST", "/v1/invoices/memberships", {
      center_id: AUSTIN,
      user_id: guestId,
      membership_ids: ANNUAL,
    });
    expect((await priced(membershipSale.invoice_id as string)).total).toBe(106800);

    const visit = await book(guestId, "2026-12-14", PEEL, [service("PEEL-ADD-NECK")]);
    const [peelLine] = (await client.getInvoice(visit)).items;
    expect((await priced(visit)).lines.map((l) => l[2])).toEqual([1500, 500]);
    const redeemed = await api("POST", `/v1/invoices/${visit}/redemptions/packages`, {
      package_redemptions: [{ user_package_id: owned.user_package_id, invoice_item_id: peelLine.invoiceItemId }],
    });
    expect(redeemed.error).toBeNull();
    expect((await priced(visit)).lines.map((l) => l[2])).toEqual([15000, 500]);
    await applyCampaign(visit, "ADDON20");
    expect(await priced(visit)).toEqual({
      lines: [
        ["Glow Peel", 15000, 15000],
        ["Peel Area - Neck", 5000, 2000],
      ],
      total: 3000,
    });
    await applyCampaign(visit, "WELCOME10");
    expect((await priced(visit)).lines.map((l) => l[2])).toEqual([15000, 500]);
  });
});

describe("the plans answer", () => {
  /** What a plan's members get the percent off: every service but laser hair removal, sculpting and what it covers. */
  const expected = (code: string) => {
    const plan = seedMembershipPlans.find((p) => p.code === code)!;
    const covered = new Set(plan.covers.map((c) => c.service));
    return seedServices
      .filter((s) => coveredByMembership(s.name) && !covered.has(s.code))
      .map((s) => ({ id: service(s.code), name: s.name, discount_percentage: plan.serviceDiscountPercent }));
  };

  it("lists each plan's member prices in its benefits' discounts: not laser hair removal or sculpting, not what it covers", async () => {
    const body = await api("GET", `/v1/centers/${AUSTIN}/memberships?show_in_catalog=true`);
    const plans = body.memberships as {
      id: string;
      benefits: {
        discounts: { classes: unknown[]; services: { id: string; name: string; discount_percentage: number }[] };
      };
    }[];
    expect(plans.map((p) => p.id)).toEqual([MONTHLY, PLUS, ANNUAL]);
    expect(plans.map((p) => p.benefits.discounts)).toEqual([
      { classes: [], services: expected("GLOW-MONTHLY") },
      { classes: [], services: expected("GLOW-PLUS") },
      { classes: [], services: expected("GLOW-ANNUAL") },
    ]);
    expect(plans[0].benefits.discounts.services[0]).toEqual({
      id: NEW_FACIAL,
      name: "Signature Laser Facial - New Client",
      discount_percentage: 10,
    });
    const listed = plans.flatMap((p) => p.benefits.discounts.services.map((s) => s.id));
    for (const code of ["LHR", "LHR-RET", "LHR-UNDERARM", "LHR-PF", "LHR-PF-LIP", "SCULPT"])
      expect(listed).not.toContain(service(code));
    expect(plans[0].benefits.discounts.services.map((s) => s.id)).not.toContain(FACIAL);
    expect(plans[1].benefits.discounts.services.map((s) => s.id)).not.toContain(PEEL);
    // Add-ons too.
    expect(plans[0].benefits.discounts.services.map((s) => s.id)).toEqual(
      expect.arrayContaining([LED, service("PEEL-ADD-NECK"), PEEL]),
    );
    // The answer's shared list stays empty: the plans carry their own.
    expect((body.benefits as { discounts: unknown }).discounts).toEqual({ classes: [], services: [] });
  });

  it("is what the client reads: 10% on Glow Monthly and Glow Plus, 15% on Glow Annual", async () => {
    const plans = (await client.listMembershipPlans(DALLAS))!;
    expect(plans.map((p) => [p.name, [...new Set(p.serviceDiscounts.map((d) => d.percent))]])).toEqual([
      ["Glow Monthly", [10]],
      ["Glow Plus", [10]],
      ["Glow Annual", [15]],
    ]);
    expect(plans[0].serviceDiscounts).toEqual(expected("GLOW-MONTHLY").map((d) => ({ serviceId: d.id, percent: 10 })));
  });

  it("are seeded on the plans of a sandbox made before member prices", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sandbox-member-prices-"));
    const file = path.join(dir, "spa-sandbox.sqlite");
    try {
      const older = createSpaSandbox({ file, apiKeys: [TEST_API_KEY], now: () => now });
      const version = older.db.pragma("user_version", { simple: true }) as number;
      // As the file was before the member prices migration and the coupons one after it (the last two).
      older.db.exec("ALTER TABLE membership_plans DROP COLUMN service_discount_percent; DROP TABLE coupons;");
      older.db.pragma(`user_version = ${version - 2}`);
      older.close();
      const opened = createSpaSandbox({ file, apiKeys: [TEST_API_KEY], now: () => now });
      expect(
        opened.db
          .prepare("SELECT code, service_discount_percent AS percent FROM membership_plans ORDER BY display_order")
          .all(),
      ).toEqual([
        { code: "GLOW-MONTHLY", percent: 10 },
        { code: "GLOW-PLUS", percent: 10 },
        { code: "GLOW-ANNUAL", percent: 15 },
      ]);
      opened.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
