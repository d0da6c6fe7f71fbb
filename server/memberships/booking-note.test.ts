import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Services } from "../services";
import type { GuestMembership, MembershipPlan } from "../spa/memberships.server";
import { membershipNote } from "./booking-note.server";

const facial = { id: "svc-facial", name: "Signature Laser Facial", price: 19_900 };
const monthly: MembershipPlan = {
  id: "plan-monthly",
  name: "Glow Monthly",
  description: "",
  priceCents: 9_900,
  billingCycle: "1 Months",
  recurring: true,
  coveredServices: [{ serviceId: "svc-facial", name: "Signature Laser Facial", quantity: 1 }],
  terms: null,
  serviceDiscounts: [{ serviceId: "svc-peel", percent: 10 }],
};
const annual: MembershipPlan = {
  ...monthly,
  id: "plan-annual",
  name: "Glow Annual",
  priceCents: 106_800,
  billingCycle: "12 Months",
  recurring: false,
  coveredServices: [{ serviceId: "svc-facial", name: "Signature Laser Facial", quantity: 12 }],
};
const membership: GuestMembership = {
  userMembershipId: "m-1",
  membershipId: "plan-monthly",
  name: "Glow Monthly",
  status: 1,
  recurring: true,
  memberSince: "2026-09-02",
  expiryDate: null,
  creditCents: { total: 9_900, service: 9_900, product: 0, other: 0 },
};
const user = { id: "u-1", email: "ana@example.com", guestId: "g-1", centerId: "c-1" };

/** The back end's answers for one clinic (a new clinic id each time: the plans are cached by clinic). */
function servicesWith(plans: MembershipPlan[], memberships: GuestMembership[]) {
  const calls: string[] = [];
  const services = {
    spa: {
      listMembershipPlans: async () => (calls.push("plans"), plans),
      guestMemberships: async () => (calls.push("memberships"), memberships),
    },
  } as unknown as Services;
  return { services, calls, centerId: randomUUID() };
}

describe("what membership means for the treatment being booked", () => {
  it("tells a member their plan covers it and the credit they have, without asking for plans twice", async () => {
    const { services, calls, centerId } = servicesWith([monthly, annual], [membership]);
    expect(await membershipNote(services, { user, centerId, service: facial })).toEqual({
      kind: "member",
      plan: "Glow Monthly",
      covers: true,
      credit: "$99",
    });
    await membershipNote(services, { user, centerId, service: facial });
    expect(calls.filter((c) => c === "plans")).toHaveLength(1);
  });

  it("tells a member whose plan does not cover the treatment that member prices apply at the clinic", async () => {
    const { services, centerId } = servicesWith(
      [monthly],
      [{ ...membership, creditCents: { total: 0, service: 0, product: 0, other: 0 } }],
    );
    const peel = { id: "svc-peel", name: "Glow Peel", price: 15_000 };
    expect(await membershipNote(services, { user, centerId, service: peel })).toEqual({
      kind: "member",
      plan: "Glow Monthly",
      covers: false,
      credit: null,
    });
  });

  it("shows anyone else the plan that saves most on it", async () => {
    const { services, calls, centerId } = servicesWith([monthly, annual], []);
    expect(await membershipNote(services, { user: null, centerId, service: facial })).toEqual({
      kind: "offer",
      plan: "Glow Annual",
      price: "$1,068 a year",
      saving: "$110",
    });
    expect(calls).toEqual(["plans"]);
    // A cancelled membership is not a member's.
    const lapsed = servicesWith([monthly], [{ ...membership, status: 4 }]);
    expect(await membershipNote(lapsed.services, { user, centerId: lapsed.centerId, service: facial })).toMatchObject({
      kind: "offer",
      plan: "Glow Monthly",
      saving: "$100",
    });
  });

  it("shows a treatment no plan covers at the member price the best plan gives", async () => {
    const { services, centerId } = servicesWith([monthly], []);
    const peel = { id: "svc-peel", name: "Glow Peel", price: 15_000 };
    expect(await membershipNote(services, { user: null, centerId, service: peel })).toEqual({
      kind: "offer",
      plan: "Glow Monthly",
      price: "$99 a month",
      saving: "$15",
    });
  });

  it("says nothing of laser hair removal or sculpting, which no membership covers", async () => {
    const { services, calls, centerId } = servicesWith([monthly], []);
    expect(
      await membershipNote(services, {
        user,
        centerId,
        service: { id: "svc-lhr", name: "Laser Hair Removal - Underarms", price: 9_900 },
      }),
    ).toBeNull();
    expect(calls).toEqual([]);
  });
});
