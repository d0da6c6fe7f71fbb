import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coveredByMembership } from "~/domain/service-kinds";
import { createTestGuest, refusal, startSandbox, TEST_API_KEY } from "../../tests/helpers/sandbox-server";
import { createSpaClient, type SpaClient } from "../spa/client.server";
import { seedGuid } from "./db";
import { seedMembershipPlans, seedServices } from "./seed-data";

/** Membership plans, a guest's memberships and points, and the sandbox's controls that give them. */

const AUSTIN = seedGuid("center:ATX");
const DALLAS = seedGuid("center:DAL");
const MONTHLY = seedGuid("membership:GLOW-MONTHLY");
const PLUS = seedGuid("membership:GLOW-PLUS");
const ANNUAL = seedGuid("membership:GLOW-ANNUAL");
// 09:00 in Austin on Monday 30 November 2026.
const now = Date.parse("2026-11-30T15:00:00Z");

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let client: SpaClient;

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => now });
  client = createSpaClient({
    baseUrl: sandbox.baseUrl,
    auth: { type: "apikey", apiKey: TEST_API_KEY },
    clock: () => now,
  });
});
afterAll(async () => {
  await sandbox.stop();
});

const newGuestId = () => createTestGuest(client, AUSTIN, "Mem", "Ber");

const api = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(`${sandbox.baseUrl}${path}`, {
    method,
    headers: { authorization: `apikey ${TEST_API_KEY}`, "content-type": "application/json", ...headers },
    body: body ? JSON.stringify(body) : undefined,
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));

describe("the plans a clinic sells", () => {
  it("are the three seeded plans at every clinic, in cents, with Zenoti's billing cycle as sent", async () => {
    for (const center of [AUSTIN, DALLAS, seedGuid("center:NYC")]) {
      const plans = await client.listMembershipPlans(center);
      expect(plans?.map((p) => [p.id, p.name, p.priceCents, p.billingCycle, p.recurring])).toEqual([
        [MONTHLY, "Glow Monthly", 9900, "1 Months", true],
        [PLUS, "Glow Plus", 17900, "1 Months", true],
        [ANNUAL, "Glow Annual", 106800, "12 Months", false],
      ]);
    }
  });

  it("cover facials and a peel, never sculpting or laser hair removal", async () => {
    const plans = (await client.listMembershipPlans(AUSTIN))!;
    const facial = seedGuid("service:FT-RET");
    expect(plans.map((p) => p.coveredServices)).toEqual([
      [{ serviceId: facial, name: "Signature Laser Facial", quantity: 1 }],
      [
        { serviceId: facial, name: "Signature Laser Facial", quantity: 1 },
        { serviceId: seedGuid("service:PEEL-GLOW"), name: "Glow Peel", quantity: 1 },
      ],
      [{ serviceId: facial, name: "Signature Laser Facial", quantity: 12 }],
    ]);
    expect(plans.every((p) => p.terms?.includes("Membership does not cover sculpting and laser hair removal"))).toBe(
      true,
    );
    // The seed itself: every covered code exists and is one a membership may cover.
    const byCode = new Map(seedServices.map((s) => [s.code, s]));
    for (const plan of seedMembershipPlans) {
      for (const cover of plan.covers) {
        const service = byCode.get(cover.service);
        expect(service, cover.service).toBeDefined();
        expect(coveredByMembership(service!.name), service!.name).toBe(true);
        expect(service!.category).not.toMatch(/sculpting|laser hair removal/i);
      }
    }
  });

  it("are refused for an unknown clinic as its services are (null from the client)", async () => {
    const unknown = crypto.randomUUID();
    expect(await client.listMembershipPlans(unknown)).toBeNull();
    const plans = await api("GET", `/v1/centers/${unknown}/memberships`);
    const services = await api("GET", `/v1/centers/${unknown}/services`);
    expect([plans.status, plans.body.error]).toEqual([services.status, services.body.error]);
    expect(plans.body).toMatchObject({ memberships: null, page_info: null, error: { code: 502 } });
  });

  it("page as Zenoti pages, ids in any case and without dashes, and refuse bad paging the same way", async () => {
    const second = await api(
      "GET",
      `/v1/Centers/${AUSTIN.replace(/-/g, "").toUpperCase()}/memberships?show_in_catalog=true&page=2&size=1`,
    );
    expect(second.body).toMatchObject({
      total_no_of_memberships: 3,
      page_info: { total: 3, page: 2, size: 1 },
      error: null,
    });
    expect((second.body.memberships as { id: string }[]).map((m) => m.id)).toEqual([PLUS]);
    // The shared benefits list names the page's plan only.
    expect(
      new Set((second.body.benefits as { services: { membership_id: string }[] }).services.map((b) => b.membership_id)),
    ).toEqual(new Set([PLUS]));
    const tooMany = await api("GET", `/v1/centers/${AUSTIN}/memberships?size=101`);
    const tooManyServices = await api("GET", `/v1/centers/${AUSTIN}/services?size=101`);
    expect(tooMany).toEqual(tooManyServices);
    expect(tooMany.body.Error).toMatchObject({ StatusCode: 422 });
    expect((await api("GET", `/v1/centers/${AUSTIN}/memberships?page=0`)).status).toBe(400);
  });
});

describe("a guest's memberships and the membership control", () => {
  it("gives a guest memberships, listed by clinic, with dates and credit in cents", async () => {
    const guestId = await newGuestId();
    const monthly = await api("POST", `/v1/sandbox/guests/${guestId}/memberships`, {
      membership_id: MONTHLY,
      center_id: AUSTIN,
      status: 1,
      recurrence_status: 1,
      credit_balance: { service: 99 },
    });
    expect(monthly.body).toEqual({ user_membership_id: expect.any(String), error: null });
    const annual = await api("POST", `/v1/sandbox/guests/${guestId}/memberships`, {
      membership_id: ANNUAL,
      center_id: DALLAS,
      status: 4,
      recurrence_status: 0,
      member_since: "2026-01-15",
    });
    expect(annual.body.error).toBeNull();

    const all = await client.guestMemberships(guestId);
    expect(all).toEqual([
      {
        userMembershipId: monthly.body.user_membership_id,
        membershipId: MONTHLY,
        name: "Glow Monthly",
        status: 1,
        recurring: true,
        memberSince: "2026-11-30",
        expiryDate: null,
        creditCents: { total: 9900, service: 9900, product: 0, other: 0 },
      },
      {
        userMembershipId: annual.body.user_membership_id,
        membershipId: ANNUAL,
        name: "Glow Annual",
        status: 4,
        recurring: false,
        // A plan that does not renew ends with its term.
        memberSince: "2026-01-15",
        expiryDate: "2027-01-14",
        creditCents: { total: 0, service: 0, product: 0, other: 0 },
      },
    ]);
    expect((await client.guestMemberships(guestId, AUSTIN)).map((m) => m.membershipId)).toEqual([MONTHLY]);
    expect((await client.guestMemberships(guestId, DALLAS.toUpperCase())).map((m) => m.membershipId)).toEqual([ANNUAL]);
    expect(await client.guestMemberships(guestId, seedGuid("center:NYC"))).toEqual([]);
    expect(await client.guestMemberships(await newGuestId())).toEqual([]);
  });

  it("answers in Zenoti's shape", async () => {
    const guestId = await newGuestId();
    await api("POST", `/v1/sandbox/guests/${guestId}/memberships`, { membership_id: PLUS });
    const { body } = await api("GET", `/v1/guests/${guestId}/memberships?center_id=${AUSTIN}`);
    expect(body).toEqual({
      guest_memberships: [
        {
          user_membership_id: expect.any(String),
          status: 1,
          is_refunded: false,
          recurrence_status: 1,
          membership: {
            id: PLUS,
            name: "Glow Plus",
            code: "GLOW-PLUS",
            type: 1,
            description: expect.any(String),
            freeze_fee_reason_enabled: false,
          },
          invoice: {
            id: expect.any(String),
            no: expect.stringMatching(/^ATXM\d+$/),
            receipt_no: expect.stringMatching(/^ATXMR\d+$/),
            status: 4,
            item_id: expect.any(String),
          },
          expiry_date: null,
          member_since: "2026-11-30T00:00:00",
          credit_balance: { total: 0, service: 0, product: 0, other: 0, comments: null },
          credit_amount: { total: 0, service: 0, product: 0, other: 0, comments: null },
          guestpass_total: 0,
          guestpass_balance: 0,
          guest: {
            personal_info: {
              first_name: "Mem",
              last_name: expect.stringMatching(/^Ber/),
              email: expect.stringMatching(/@example\.com$/),
            },
          },
        },
      ],
      error: null,
    });
  });

  it("refuses an unknown guest as the guest read does, and an unknown clinic", async () => {
    const unknown = crypto.randomUUID();
    const memberships = await api("GET", `/v1/guests/${unknown}/memberships`);
    const guest = await api("GET", `/v1/guests/${unknown}`);
    expect([memberships.status, memberships.body.error]).toEqual([guest.status, guest.body.error]);
    expect(await refusal(client.guestMemberships(unknown))).toBe(414);
    expect(await refusal(client.guestMemberships(await newGuestId(), crypto.randomUUID()))).toBe(502);
  });

  it("refuses a control request it cannot carry out", async () => {
    const guestId = await newGuestId();
    const give = async (body: Record<string, unknown>, who = guestId) =>
      (await api("POST", `/v1/sandbox/guests/${who}/memberships`, body)).body.error as { code: number } | null;
    expect(await give({ membership_id: MONTHLY }, crypto.randomUUID())).toMatchObject({ code: 414 });
    expect(await give({ membership_id: MONTHLY, center_id: crypto.randomUUID() })).toMatchObject({ code: 502 });
    expect(await give({ membership_id: crypto.randomUUID() })).toMatchObject({ code: 400 });
    expect(await give({})).toMatchObject({ code: 400 });
    expect(await give({ membership_id: MONTHLY, status: 11 })).toMatchObject({ code: 400 });
    expect(await give({ membership_id: MONTHLY, recurrence_status: 2 })).toMatchObject({ code: 400 });
    expect(await give({ membership_id: MONTHLY, member_since: "30/11/2026" })).toMatchObject({ code: 400 });
    expect(await give({ membership_id: MONTHLY, credit_balance: { service: -5 } })).toMatchObject({ code: 400 });
    // A plan the clinic does not sell.
    sandbox.db
      .prepare("DELETE FROM center_membership_plans WHERE center_id = ? AND membership_id = ?")
      .run(seedGuid("center:BNA"), PLUS);
    expect(await give({ membership_id: PLUS, center_id: seedGuid("center:BNA") })).toMatchObject({ code: 400 });
    expect(await client.guestMemberships(guestId)).toEqual([]);
  });

  it("is guarded as the sandbox's other control is: this machine, with a key", async () => {
    const guestId = await newGuestId();
    const proxied = await api(
      "POST",
      `/v1/sandbox/guests/${guestId}/memberships`,
      { membership_id: MONTHLY },
      { "x-forwarded-for": "203.0.113.5" },
    );
    expect(proxied.status).toBe(403);
    const noKey = await fetch(`${sandbox.baseUrl}/v1/sandbox/guests/${guestId}/points`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ points: 5, reason: "x" }),
    });
    expect(noKey.status).toBe(401);
    expect(await client.guestMemberships(guestId)).toEqual([]);
    expect((await client.loyaltyPoints(guestId))?.balance).toBe(0);
  });
});

describe("loyalty points and the points control", () => {
  it("adds earned and redeemed points; the history adds up to the balance", async () => {
    const guestId = await newGuestId();
    const add = async (body: Record<string, unknown>) =>
      (await api("POST", `/v1/sandbox/guests/${guestId}/points`, body)).body;
    expect(await add({ points: 1200, reason: "Earned at your visit", date: "2026-10-01" })).toEqual({
      balance: 1200,
      error: null,
    });
    expect(await add({ points: 300, reason: "Birthday bonus", date: "2026-11-01" })).toEqual({
      balance: 1500,
      error: null,
    });
    expect(await add({ points: -500, reason: "Redeemed at your visit" })).toEqual({ balance: 1000, error: null });
    // Never below nothing; whole points with a reason.
    expect((await add({ points: -1001, reason: "Too many" })).error).toMatchObject({ code: 400 });
    expect((await add({ points: 1.5, reason: "Half" })).error).toMatchObject({ code: 400 });
    expect((await add({ points: 10 })).error).toMatchObject({ code: 400 });

    const points = await client.loyaltyPoints(guestId);
    expect(points).toEqual({
      balance: 1000,
      history: [
        { date: "2026-11-30", points: -500, reason: "Redeemed at your visit" },
        { date: "2026-11-01", points: 300, reason: "Birthday bonus" },
        { date: "2026-10-01", points: 1200, reason: "Earned at your visit" },
      ],
    });
    expect(points!.history.reduce((sum, row) => sum + row.points, 0)).toBe(points!.balance);
    const raw = await api("GET", `/v1/guests/${guestId}/points?page_num=1&num_records=2`);
    expect(raw.body).toMatchObject({
      points: { balance: 1000, tier_name: null, enrollment_status: "Enrolled" },
      page_info: { total: 3, page: 1, size: 2 },
      error: null,
    });
    expect((raw.body.points as { history: { type: string }[] }).history.map((h) => h.type)).toEqual([
      "redeemed",
      "earned",
    ]);
  });

  it("reads a long history page by page", async () => {
    const guestId = await newGuestId();
    for (let i = 0; i < 105; i++)
      await api("POST", `/v1/sandbox/guests/${guestId}/points`, { points: 10, reason: `Visit ${i}` });
    const points = await client.loyaltyPoints(guestId);
    expect(points?.history).toHaveLength(105);
    expect(points?.balance).toBe(1050);
  });

  it("refuses an unknown guest and bad paging as the other calls do", async () => {
    const unknown = crypto.randomUUID();
    const points = await api("GET", `/v1/guests/${unknown}/points`);
    const guest = await api("GET", `/v1/guests/${unknown}`);
    expect([points.status, points.body.error]).toEqual([guest.status, guest.body.error]);
    expect(await refusal(client.loyaltyPoints(unknown))).toBe(414);
    expect(
      (await api("POST", `/v1/sandbox/guests/${unknown}/points`, { points: 5, reason: "x" })).body.error,
    ).toMatchObject({ code: 414 });
    const guestId = await newGuestId();
    expect((await api("GET", `/v1/guests/${guestId}/points?num_records=101`)).body.Error).toMatchObject({
      StatusCode: 422,
    });
    expect((await api("GET", `/v1/guests/${guestId}/points?page_num=0`)).status).toBe(400);
  });
});
