import { describe, expect, it } from "vitest";
import type { GuestMembership, MembershipPlan } from "../spa/memberships.server";
import { membershipView, planView } from "./memberships.server";

const plan: MembershipPlan = {
  id: "plan-1",
  name: "Glow Everything",
  description: "",
  priceCents: 12_900,
  billingCycle: "1 Months",
  recurring: true,
  coveredServices: [
    { serviceId: "a", name: "Signature Laser Facial", quantity: 1 },
    { serviceId: "b", name: "Laser Hair Removal - Full Legs", quantity: 1 },
    { serviceId: "c", name: "Body Sculpting", quantity: 2 },
    { serviceId: "d", name: "Glow Peel", quantity: 2 },
  ],
  terms: null,
  serviceDiscounts: [],
};

describe("a plan as shown", () => {
  it("says its price per term, and never offers sculpting or laser hair removal even when the back end lists them", () => {
    const view = planView(plan);
    expect(view.price).toBe("$129 a month");
    expect(view.covers).toEqual([
      { name: "Signature Laser Facial", quantity: 1 },
      { name: "Glow Peel", quantity: 2 },
    ]);
    expect(planView({ ...plan, priceCents: 106_800, billingCycle: "12 Months", recurring: false }).price).toBe(
      "$1,068 a year",
    );
  });
});

describe("a guest's membership as shown", () => {
  const membership: GuestMembership = {
    userMembershipId: "m-1",
    membershipId: "plan-1",
    name: "Glow Monthly",
    status: 3,
    recurring: true,
    memberSince: "2026-09-02",
    expiryDate: null,
    creditCents: { total: 9_900, service: 9_900, product: 0, other: 0 },
  };

  it("counts a frozen membership as active and names its status", () => {
    expect(membershipView(membership)).toMatchObject({
      status: "Frozen",
      active: true,
      recurring: true,
      credit: { total: "$99", service: "$99" },
    });
  });

  it("shows no credit when there is none, and a cancelled membership as not active", () => {
    const view = membershipView({
      ...membership,
      status: 4,
      creditCents: { total: 0, service: 0, product: 0, other: 0 },
    });
    expect(view).toMatchObject({ status: "Cancelled", active: false, credit: null });
  });
});
