import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandboxAndClient, TEST_API_KEY, type TestSandbox } from "../../tests/helpers/sandbox-server";
import type { SpaClient } from "../spa/client.server";
import { seedGuid } from "./db";
import { DEMO_GUEST_ID, DEMO_MEMBERSHIP_ID } from "./demo-guest";
import { createSpaSandbox } from "./index";
import { SEED_DEMO_GUEST } from "./seed-data";

/** The demo guest a new sandbox is seeded with, and her history around the day it is seeded. */

const AUSTIN = seedGuid("center:ATX");
const FACIAL = seedGuid("service:FT-RET");
const ZONE = "America/Chicago";
// Seeded at 09:00 in Austin on Monday 30 November 2026.
const now = Date.parse("2026-11-30T15:00:00Z");

let sandbox: TestSandbox;
let client: SpaClient;

beforeAll(async () => ({ sandbox, client } = await startSandboxAndClient(() => now)));
afterAll(() => sandbox.stop());

/** Another guest of Austin, to book beside the demo guest. */
async function otherGuestId(): Promise<string> {
  const guest = await client.createGuest({
    centerId: AUSTIN,
    firstName: "Ona",
    lastName: "Other",
    email: `other.${crypto.randomUUID().slice(0, 8)}@example.com`,
    phone: "5125550299",
    consents: { marketingEmail: false, marketingSms: false, transactionalEmail: true, transactionalSms: true },
    tags: [],
  });
  return guest.id;
}

describe("the demo guest", () => {
  it("is a client of Austin with an email, a mobile number and a home address", async () => {
    expect(await client.getGuest(DEMO_GUEST_ID)).toMatchObject({
      id: DEMO_GUEST_ID,
      centerId: AUSTIN,
      firstName: SEED_DEMO_GUEST.firstName,
      lastName: SEED_DEMO_GUEST.lastName,
      email: "demo@glowclinic.example",
      phone: SEED_DEMO_GUEST.phone,
      address: { city: "Austin", zip: "78704" },
    });
    expect((await client.findGuestsByEmail("DEMO@glowclinic.example")).map((g) => g.id)).toEqual([DEMO_GUEST_ID]);
  });

  it("has a history around the day of seeding: completed, cancelled, completed, no-show, then one booked a week ahead", async () => {
    const { appointments, total } = await client.guestAppointmentsPage(DEMO_GUEST_ID, {
      includeNoShowCancel: true,
      size: 100,
    });
    expect(total).toBe(5);
    expect(appointments.map((a) => [a.centerId, a.services.map((s) => [s.start, s.name, s.status])])).toEqual([
      [
        AUSTIN,
        [
          ["2026-09-02T10:00:00", "Signature Laser Facial - New Client", 1],
          ["2026-09-02T10:45:00", "LED Light Therapy Enhancement (Addon)", 1],
        ],
      ],
      [AUSTIN, [["2026-10-02T14:00:00", "Signature Laser Facial", -1]]],
      [
        AUSTIN,
        [
          ["2026-10-20T11:30:00", "Signature Laser Facial", 1],
          ["2026-10-20T12:00:00", "Hydrating Mask Enhancement (Addon)", 1],
        ],
      ],
      // Three weeks back is a Sunday, when the clinics are closed: the Saturday before.
      [AUSTIN, [["2026-11-07T13:00:00", "Signature Laser Facial", -2]]],
      [
        AUSTIN,
        [
          ["2026-12-07T14:30:00", "Signature Laser Facial", 0],
          ["2026-12-07T15:00:00", "Dermaplaning Enhancement (Addon)", 0],
        ],
      ],
    ]);
    // Without asking for them, the cancelled and the no-show visit are left out.
    expect((await client.listGuestAppointments(DEMO_GUEST_ID, { size: 100 })).map((a) => a.services[0].status)).toEqual(
      [1, 1, 0],
    );
  });

  it("had each visit with a nurse who works that weekday (her regular nurse, another on her day off)", async () => {
    const visits = await client.listGuestAppointments(DEMO_GUEST_ID, { includeNoShowCancel: true, size: 100 });
    const nurses = visits.map((v) => v.services[0].therapistId);
    // Dana Whitfield has Fridays off; the cancelled visit was on a Friday, with Priya Raman.
    expect(nurses).toEqual([3, 2, 3, 3, 3].map((place) => seedGuid(`therapist:ATX:${place}`)));
  });

  it("kept the campaign of the discounted visit on its invoice, and the reason of the cancelled one", async () => {
    const visits = await client.listGuestAppointments(DEMO_GUEST_ID, { includeNoShowCancel: true, size: 100 });
    const discounted = await client.getInvoice(visits[2].invoiceId!);
    // ADDON20: $20 off the $45 mask.
    expect(discounted.items.map((i) => [i.name, i.price, i.discount])).toEqual([
      ["Signature Laser Facial", 19900, 0],
      ["Hydrating Mask Enhancement (Addon)", 4500, 2000],
    ]);
    expect(discounted.total).toBe(22400);
    const cancelled = sandbox.db
      .prepare("SELECT cancel_reason_id, cancel_comments FROM invoices WHERE id = ?")
      .get(visits[1].invoiceId) as { cancel_reason_id: string; cancel_comments: string };
    expect(cancelled).toEqual({
      cancel_reason_id: seedGuid("reason:Stuck at work"),
      cancel_comments: "A meeting moved; I will book another day.",
    });
  });

  it("has member prices on the visit she booked as a member: 10% off the add-on, none on the facial her plan covers", async () => {
    const visits = await client.listGuestAppointments(DEMO_GUEST_ID, { includeNoShowCancel: true, size: 100 });
    const coming = await client.getInvoice(visits[4].invoiceId!);
    expect(coming.items.map((i) => [i.name, i.price, i.discount])).toEqual([
      ["Signature Laser Facial", 19900, 0],
      ["Dermaplaning Enhancement (Addon)", 7500, 750],
    ]);
    expect(coming.total).toBe(26650);
    // Her first visit, where she joined, was priced before she was a member.
    const first = await client.getInvoice(visits[0].invoiceId!);
    expect(first.items.map((i) => i.discount)).toEqual([0, 0]);
  });

  it("keeps her nurse busy at the coming visit's time, and leaves that time open with the others", async () => {
    const guestId = await otherGuestId();
    const withHerNurse = await client.createBooking({
      centerId: AUSTIN,
      date: "2026-12-07",
      guestId,
      serviceId: FACIAL,
      therapistId: seedGuid("therapist:ATX:3"),
      addOnIds: [],
    });
    expect((await client.listSlots(withHerNurse, "2026-12-07")).times).not.toContain("2026-12-07T14:30:00");
    expect(await client.reserveSlot(withHerNurse, "2026-12-07T14:30:00", ZONE)).toBeNull();
    const withAnyNurse = await client.createBooking({
      centerId: AUSTIN,
      date: "2026-12-07",
      guestId,
      serviceId: FACIAL,
      therapistId: null,
      addOnIds: [],
    });
    expect(await client.reserveSlot(withAnyNurse, "2026-12-07T14:30:00", ZONE)).not.toBeNull();
  });
});

describe("the demo guest's membership and points", () => {
  it("is an active, renewing Glow Monthly member at Austin since her first visit, with a month's service credit", async () => {
    expect(await client.guestMemberships(DEMO_GUEST_ID)).toEqual([
      {
        userMembershipId: DEMO_MEMBERSHIP_ID,
        membershipId: seedGuid("membership:GLOW-MONTHLY"),
        name: "Glow Monthly",
        status: 1,
        recurring: true,
        memberSince: "2026-09-02",
        expiryDate: null,
        creditCents: { total: 9900, service: 9900, product: 0, other: 0 },
      },
    ]);
    expect(await client.guestMemberships(DEMO_GUEST_ID, AUSTIN)).toHaveLength(1);
    expect(await client.guestMemberships(DEMO_GUEST_ID, seedGuid("center:DAL"))).toEqual([]);
  });

  it("has 2,450 points, earned on the days of her completed visits; the history adds up to the balance", async () => {
    const points = await client.loyaltyPoints(DEMO_GUEST_ID);
    expect(points?.balance).toBe(2450);
    expect(points!.history.reduce((sum, row) => sum + row.points, 0)).toBe(2450);
    expect(points!.history.every((row) => row.points > 0 && row.reason !== "")).toBe(true);
    const completed = (await client.listGuestAppointments(DEMO_GUEST_ID, { size: 100 }))
      .filter((v) => v.services[0].status === 1)
      .map((v) => v.services[0].start.slice(0, 10));
    expect(completed).toEqual(["2026-09-02", "2026-10-20"]);
    expect([...new Set(points!.history.map((row) => row.date))].sort()).toEqual(completed);
  });
});

describe("seeding", () => {
  it("happens once, on a new database: opened again, the sandbox keeps the history it has", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sandbox-demo-"));
    const file = path.join(dir, "spa-sandbox.sqlite");
    const count = (db: import("./db").SandboxDb) => ({
      guests: (
        db.prepare("SELECT COUNT(*) AS n FROM guests WHERE email_key = ?").get("demo@glowclinic.example") as {
          n: number;
        }
      ).n,
      appointments: (
        db.prepare("SELECT COUNT(*) AS n FROM appointments WHERE guest_id = ?").get(DEMO_GUEST_ID) as { n: number }
      ).n,
      first: (
        db.prepare("SELECT MIN(start_local) AS start FROM appointments WHERE guest_id = ?").get(DEMO_GUEST_ID) as {
          start: string;
        }
      ).start,
      memberships: (
        db.prepare("SELECT COUNT(*) AS n FROM guest_memberships WHERE guest_id = ?").get(DEMO_GUEST_ID) as { n: number }
      ).n,
      points: (
        db.prepare("SELECT COALESCE(SUM(points), 0) AS n FROM guest_points WHERE guest_id = ?").get(DEMO_GUEST_ID) as {
          n: number;
        }
      ).n,
      plans: (db.prepare("SELECT COUNT(*) AS n FROM center_membership_plans").get() as { n: number }).n,
    });
    try {
      const first = createSpaSandbox({ file, apiKeys: [TEST_API_KEY], now: () => now });
      const seeded = count(first.db);
      first.close();
      // A month later the same file is opened again: nothing is added or moved.
      const again = createSpaSandbox({ file, apiKeys: [TEST_API_KEY], now: () => now + 30 * 86_400_000 });
      expect(count(again.db)).toEqual(seeded);
      expect(seeded).toEqual({
        guests: 1,
        appointments: 8,
        first: "2026-09-02T10:00:00",
        memberships: 1,
        points: 2450,
        plans: 45,
      });
      again.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("adds the membership plans, packages and gift cards to a sandbox made before them, and leaves its demo guest as she was", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sandbox-plans-"));
    const file = path.join(dir, "spa-sandbox.sqlite");
    try {
      const older = createSpaSandbox({ file, apiKeys: [TEST_API_KEY], now: () => now });
      // As the file was before the membership migration, the sales one, the member prices one and the coupons one after them (the last four).
      const version = older.db.pragma("user_version", { simple: true }) as number;
      older.db.exec(
        `DROP TABLE giftcard_emails; DROP TABLE gift_cards; DROP TABLE guest_package_services; DROP TABLE guest_packages; DROP TABLE giftcard_orders;
         DROP TABLE giftcard_occasions; DROP TABLE center_giftcard_templates; DROP TABLE giftcard_templates; DROP TABLE center_packages; DROP TABLE packages;
         ALTER TABLE invoices DROP COLUMN notes; ALTER TABLE invoice_items DROP COLUMN redeemed_user_package_id;
         DROP TABLE guest_points; DROP TABLE guest_memberships; DROP TABLE center_membership_plans; DROP TABLE membership_plans; DROP TABLE coupons;`,
      );
      older.db.pragma(`user_version = ${version - 4}`);
      older.close();
      const opened = createSpaSandbox({ file, apiKeys: [TEST_API_KEY], now: () => now });
      const count = (sql: string, ...params: string[]) => (opened.db.prepare(sql).get(...params) as { n: number }).n;
      expect(count("SELECT COUNT(*) AS n FROM membership_plans")).toBe(3);
      expect(count("SELECT COUNT(*) AS n FROM guest_memberships")).toBe(0);
      expect(count("SELECT COUNT(*) AS n FROM center_packages")).toBe(45);
      expect(count("SELECT COUNT(*) AS n FROM center_giftcard_templates")).toBe(75);
      expect(count("SELECT COUNT(*) AS n FROM giftcard_occasions")).toBe(4);
      expect(count("SELECT COUNT(*) AS n FROM appointments WHERE guest_id = ?", DEMO_GUEST_ID)).toBe(8);
      // Her coupons came later than she did.
      expect(count("SELECT COUNT(*) AS n FROM coupons WHERE guest_id = ?", DEMO_GUEST_ID)).toBe(2);
      opened.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
