import { afterEach, describe, expect, it, vi } from "vitest";
import { clientOnJsonBackend } from "../../tests/helpers/json-backend";
import { captureWarnings } from "../../tests/helpers/log-lines";
import { isSpaError } from "./errors.server";

/** The client's membership and points calls on answers the sandbox never gives. */

afterEach(() => {
  vi.restoreAllMocks();
});

const backendFor = clientOnJsonBackend;

const plan = (id: string, overrides: Record<string, unknown> = {}) => ({
  id,
  version_id: id,
  name: `Plan ${id}`,
  price: { currency_id: 148, sales: 19.99, tax: 1.2, final: 21.19 },
  can_book: true,
  is_recurring_membership: true,
  payment_frequency: "1 Months",
  description: null,
  terms_and_conditions: "",
  ...overrides,
});

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (isSpaError(error)) return { kind: error.kind, code: error.code };
    throw error;
  }
  throw new Error("expected a failure");
}

describe("listMembershipPlans", () => {
  it("reads every page, prices in cents (sales, before tax), and the shared benefits by plan", async () => {
    const { client, backend } = await backendFor({
      "/v1/centers/C1/memberships": (url) => {
        const page = Number(url.searchParams.get("page"));
        const ids = page === 1 ? Array.from({ length: 100 }, (_, i) => `P${i}`) : ["P100"];
        return {
          body: {
            memberships: ids.map((id) => plan(id)),
            total_no_of_memberships: 101,
            benefits: {
              services: [
                {
                  membership_id: "P100",
                  category: { id: "S-FACIAL", name: "Facial" },
                  is_category: false,
                  quantity: 2,
                },
                { membership_id: "P100", category: { id: "CAT", name: "All peels" }, is_category: true, quantity: 1 },
                { membership_id: "P7", id: "S-PEEL", name: "Peel", quantity: 1 },
              ],
              classes: [],
            },
            page_info: { total: 101, page, size: 100 },
            error: null,
          },
        };
      },
    });
    const plans = await client.listMembershipPlans("C1");
    expect(plans).toHaveLength(101);
    expect(
      backend.requests.map((r) => [
        r.url.searchParams.get("page"),
        r.url.searchParams.get("size"),
        r.url.searchParams.get("show_in_catalog"),
      ]),
    ).toEqual([
      ["1", "100", "true"],
      ["2", "100", "true"],
    ]);
    expect(plans![100]).toEqual({
      id: "p100",
      name: "Plan P100",
      description: "",
      priceCents: 1999,
      billingCycle: "1 Months",
      recurring: true,
      // A whole category is not one service.
      coveredServices: [{ serviceId: "s-facial", name: "Facial", quantity: 2 }],
      serviceDiscounts: [],
      terms: null,
    });
    // The benefits of the first page's plans are read from the first page's list.
    expect(plans![7].coveredServices).toEqual([{ serviceId: "s-peel", name: "Peel", quantity: 1 }]);
    expect(plans![0].coveredServices).toEqual([]);
  });

  it("prefers a plan's own benefits, drops a plan without a price and leaves out one that cannot be booked", async () => {
    const warnings = captureWarnings();
    const { client } = await backendFor({
      "/v1/centers/C1/memberships": {
        body: {
          memberships: [
            plan("A", {
              benefits: { services: [{ id: "S1", name: "Facial", quantity: 1 }] },
              payment_frequency: null,
              is_recurring_membership: null,
            }),
            plan("B", { price: null }),
            plan("C", { can_book: false }),
            "junk",
          ],
          benefits: null,
          page_info: null,
        },
      },
    });
    expect(await client.listMembershipPlans("C1")).toEqual([
      {
        id: "a",
        name: "Plan A",
        description: "",
        priceCents: 1999,
        billingCycle: "",
        recurring: false,
        coveredServices: [{ serviceId: "s1", name: "Facial", quantity: 1 }],
        serviceDiscounts: [],
        terms: null,
      },
    ]);
    expect(warnings.filter((w) => w.kind === "membership").map((w) => w.id)).toEqual(["B", null]);
  });

  it("reads each plan's member prices from its discounts, ids lower-cased, dropping what it cannot read with a warning", async () => {
    const warnings = captureWarnings();
    const { client } = await backendFor({
      "/v1/centers/C1/memberships": {
        body: {
          memberships: [
            plan("A", {
              benefits: {
                services: [],
                discounts: {
                  classes: [{ membership_id: "A", category: { id: "K", name: "Yoga" }, is_category: false }],
                  services: [
                    { id: "S-PEEL", name: "Glow Peel", discount_percentage: 10 },
                    { id: "S-LED", discount_percentage: 12.5 },
                    { id: "S-FREE", name: "Consultation", discount_percentage: 0 },
                    { id: "S-ALL", name: "Everything", discount_percentage: 100 },
                    { id: "S-MORE", name: "Too much", discount_percentage: 101 },
                    { id: "S-LESS", name: "Negative", discount_percentage: -5 },
                    { id: "S-TEXT", name: "As text", discount_percentage: "10" },
                    { id: 7, name: "Numeric id", discount_percentage: 10 },
                    { id: "", name: "No id", discount_percentage: 10 },
                    { name: "Missing id", discount_percentage: 10 },
                    { id: "S-NONE", name: "No percent" },
                    "junk",
                  ],
                },
              },
            }),
            // No discounts block, a null one, a list of the wrong type, a block of the wrong shape.
            plan("B"),
            plan("C", { benefits: { services: null, discounts: null } }),
            plan("D", { benefits: { discounts: { services: "all" } } }),
            plan("E", { benefits: { discounts: [1, 2] } }),
          ],
          benefits: { services: [], discounts: { classes: [], services: [] } },
          page_info: { total: 5 },
        },
      },
    });
    const plans = (await client.listMembershipPlans("C1"))!;
    expect(plans.map((p) => [p.id, p.serviceDiscounts])).toEqual([
      [
        "a",
        [
          { serviceId: "s-peel", percent: 10 },
          { serviceId: "s-led", percent: 12.5 },
          { serviceId: "s-free", percent: 0 },
          { serviceId: "s-all", percent: 100 },
        ],
      ],
      ["b", []],
      ["c", []],
      ["d", []],
      ["e", []],
    ]);
    const dropped = warnings.filter((w) => w.kind === "membership_discount");
    expect(dropped).toHaveLength(8);
    expect(dropped.map((w) => w.id)).toEqual(["S-MORE", "S-LESS", "S-TEXT", null, "", null, "S-NONE", null]);
    expect(dropped.every((w) => w.membership === "A")).toBe(true);
  });

  it("is null for a clinic Zenoti does not know, and throws on an outage", async () => {
    captureWarnings();
    const { client } = await backendFor({
      "/v1/centers/NOPE/memberships": {
        body: { memberships: null, page_info: null, error: { code: 502, message: "Invalid center_id" } },
      },
      "/v1/centers/DOWN/memberships": { status: 503, body: { Message: "Service unavailable" } },
    });
    expect(await client.listMembershipPlans("NOPE")).toBeNull();
    expect(await failure(client.listMembershipPlans("DOWN"))).toMatchObject({ kind: "server" });
  });
});

describe("guestMemberships", () => {
  const membership = (overrides: Record<string, unknown> = {}) => ({
    user_membership_id: "UM-1",
    status: 3,
    is_refunded: false,
    membership: {
      id: "M-1",
      name: "Glow Plus",
      code: "GP",
      type: 1,
      description: null,
      freeze_fee_reason_enabled: false,
    },
    invoice: { id: "I", no: "X1", receipt_no: "R1", status: 4, item_id: "II" },
    expiry_date: "0001-01-01T00:00:00",
    member_since: "2026-03-04T00:00:00",
    credit_balance: { total: null, service: 10.1, product: 0.2, other: 0, comments: null },
    credit_amount: null,
    guestpass_total: 0,
    guestpass_balance: 0,
    ...overrides,
  });

  it("maps Zenoti's guest memberships: dates as days (the empty date as none), credit in cents, recurring only on 1", async () => {
    const { client, backend } = await backendFor({
      "/v1/guests/G1/memberships": {
        body: {
          guest_memberships: [
            membership(),
            membership({
              user_membership_id: "UM-2",
              recurrence_status: 1,
              expiry_date: "2027-03-03T00:00:00",
              credit_balance: null,
            }),
          ],
        },
      },
    });
    expect(await client.guestMemberships("G1", "C1")).toEqual([
      {
        userMembershipId: "um-1",
        membershipId: "m-1",
        name: "Glow Plus",
        status: 3,
        recurring: false,
        memberSince: "2026-03-04",
        expiryDate: null,
        creditCents: { total: 1030, service: 1010, product: 20, other: 0 },
      },
      {
        userMembershipId: "um-2",
        membershipId: "m-1",
        name: "Glow Plus",
        status: 3,
        recurring: true,
        memberSince: "2026-03-04",
        expiryDate: "2027-03-03",
        creditCents: { total: 0, service: 0, product: 0, other: 0 },
      },
    ]);
    expect(backend.requests[0].url.searchParams.get("center_id")).toBe("C1");
  });

  it("reads null as none, and fails loudly on a membership it cannot read", async () => {
    const { client } = await backendFor({
      "/v1/guests/G1/memberships": { body: { guest_memberships: null, error: null } },
      "/v1/guests/G2/memberships": { body: { guest_memberships: [membership({ status: "Active" })] } },
      "/v1/guests/G3/memberships": { body: { guest_memberships: [membership({ member_since: "soon" })] } },
    });
    expect(await client.guestMemberships("G1")).toEqual([]);
    expect(await failure(client.guestMemberships("G2"))).toMatchObject({ kind: "invalid-response" });
    expect(await failure(client.guestMemberships("G3"))).toMatchObject({ kind: "invalid-response" });
  });
});

describe("loyaltyPoints", () => {
  it("reads the sandbox's shape and others leniently: a balance and a signed history", async () => {
    const { client } = await backendFor({
      "/v1/guests/G1/points": {
        body: {
          points: {
            balance: "750",
            history: [
              { date: "2026-05-01T00:00:00", points: 1000, type: "earned", reason: "Visit" },
              { Date: "2026-06-01", Points: 250, Type: "Redeemed", Reason: "Used at a visit" },
              { date: "someday", points: 5 },
              { date: "2026-07-01", points: "x" },
            ],
          },
          page_info: null,
        },
      },
      "/v1/guests/G2/points": { body: { Balance: 40, History: null } },
    });
    captureWarnings();
    expect(await client.loyaltyPoints("G1")).toEqual({
      balance: 750,
      history: [
        { date: "2026-05-01", points: 1000, reason: "Visit" },
        { date: "2026-06-01", points: -250, reason: "Used at a visit" },
      ],
    });
    expect(await client.loyaltyPoints("G2")).toEqual({ balance: 40, history: [] });
  });

  it("is null when the back end gives no balance or refuses, and throws for an unknown guest", async () => {
    const warnings = captureWarnings();
    const { client } = await backendFor({
      "/v1/guests/G1/points": { body: { points: null, error: null } },
      "/v1/guests/G2/points": {
        body: { points: null, error: { code: 400, message: "Loyalty program is not enabled" } },
      },
      "/v1/guests/G3/points": { body: { points: null, error: { code: 414, message: "Guest not found" } } },
    });
    expect(await client.loyaltyPoints("G1")).toBeNull();
    expect(await client.loyaltyPoints("G2")).toBeNull();
    expect(warnings).toEqual([expect.objectContaining({ message: "spa points refused", code: "400" })]);
    expect(await failure(client.loyaltyPoints("G3"))).toMatchObject({ kind: "rejected", code: 414 });
  });

  it("asks for the history 100 at a time until it has all of it", async () => {
    const { client, backend } = await backendFor({
      "/v1/guests/G1/points": (url) => {
        const page = Number(url.searchParams.get("page_num"));
        const count = page === 1 ? 100 : 20;
        return {
          body: {
            points: {
              balance: 1200,
              history: Array.from({ length: count }, () => ({ date: "2026-01-01", points: 10, reason: "" })),
            },
            page_info: { total: 120 },
          },
        };
      },
    });
    const points = await client.loyaltyPoints("G1");
    expect(points?.history).toHaveLength(120);
    expect(points!.history.reduce((sum, row) => sum + row.points, 0)).toBe(points!.balance);
    expect(
      backend.requests.map((r) => [r.url.searchParams.get("page_num"), r.url.searchParams.get("num_records")]),
    ).toEqual([
      ["1", "100"],
      ["2", "100"],
    ]);
  });
});
