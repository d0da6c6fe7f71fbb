import { describe, expect, it } from "vitest";
import {
  billingCycleLabel,
  isActiveMembership,
  isMember,
  membershipStatusLabel,
  membershipPurchaseRefusal,
  membershipSaving,
  pointsValueCents,
} from "./memberships";
import { coveredByMembership } from "./service-kinds";

describe("membership statuses", () => {
  it("names every code of the spec, and says so for one it does not list", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12].map(membershipStatusLabel)).toEqual([
      "Active",
      "Inactive",
      "Frozen",
      "Cancelled",
      "Expired",
      "Closed",
      "Not started",
      "Suspended",
      "Refunded",
      "Deleted",
      "Failed",
    ]);
    expect(membershipStatusLabel(11)).toBe("Unknown status (11)");
  });

  it("counts 1 (Active) and 3 (Frozen) as active, and nothing else", () => {
    const active = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].filter(isActiveMembership);
    expect(active).toEqual([1, 3]);
  });

  it("makes a guest a member while any membership is active", () => {
    expect(isMember([])).toBe(false);
    expect(isMember([{ status: 4 }, { status: 5 }])).toBe(false);
    expect(isMember([{ status: 4 }, { status: 3 }])).toBe(true);
  });
});

describe("what a membership covers", () => {
  it("never covers sculpting or laser hair removal", () => {
    expect(coveredByMembership("Signature Laser Facial - New Client")).toBe(true);
    expect(coveredByMembership("Glow Peel")).toBe(true);
    expect(coveredByMembership("Body Sculpting")).toBe(false);
    expect(coveredByMembership("Laser Hair Removal - Full Legs")).toBe(false);
  });
});

describe("loyalty points", () => {
  it("are worth a cent each: 100 points are $1", () => {
    expect(pointsValueCents(100)).toBe(100);
    expect(pointsValueCents(5_000)).toBe(5_000);
    expect(pointsValueCents(2_450)).toBe(2_450);
  });

  it("are worth nothing below zero, and a fraction of a point is dropped", () => {
    expect(pointsValueCents(-20)).toBe(0);
    expect(pointsValueCents(0)).toBe(0);
    expect(pointsValueCents(99.9)).toBe(99);
    expect(pointsValueCents(Number.NaN)).toBe(0);
  });
});

describe("billing cycles", () => {
  it("reads Zenoti's payment frequency in words", () => {
    expect(billingCycleLabel("1 Months")).toBe("month");
    expect(billingCycleLabel("12 Months")).toBe("year");
    expect(billingCycleLabel("3 Months")).toBe("3 months");
    expect(billingCycleLabel("1 Year")).toBe("year");
    expect(billingCycleLabel("Quarterly")).toBe("Quarterly");
  });
});

describe("membershipSaving", () => {
  it("is the treatment's price less the plan's price shared among what it covers", () => {
    expect(membershipSaving(19900, 9900, 1)).toBe(10000);
    expect(membershipSaving(19900, 106800, 12)).toBe(19900 - 8900);
  });
  it("is never negative, and nothing for a plan that covers nothing", () => {
    expect(membershipSaving(5000, 9900, 1)).toBe(0);
    expect(membershipSaving(19900, 9900, 0)).toBe(0);
  });
});

describe("membershipPurchaseRefusal (the spec's isRecurringMembershipExist)", () => {
  const monthly = { membershipId: "PLAN-M", name: "Glow Monthly", status: 1, recurring: true };
  it("refuses the plan the guest holds while it is active or frozen, in any case of its id", () => {
    expect(membershipPurchaseRefusal([monthly], { id: "plan-m", recurring: true })).toEqual({
      kind: "same",
      name: "Glow Monthly",
    });
    expect(membershipPurchaseRefusal([{ ...monthly, status: 3 }], { id: "PLAN-M", recurring: true })).toEqual({
      kind: "same",
      name: "Glow Monthly",
    });
  });
  it("refuses a second plan that renews by itself beside one that does", () => {
    expect(membershipPurchaseRefusal([monthly], { id: "PLAN-P", recurring: true })).toEqual({
      kind: "recurring",
      name: "Glow Monthly",
    });
  });
  it("sells a plan paid once beside a renewing one, and anything after the old plan ended", () => {
    expect(membershipPurchaseRefusal([monthly], { id: "PLAN-A", recurring: false })).toBeNull();
    for (const status of [2, 4, 5, 6, 7, 8, 9, 10, 12]) {
      expect(membershipPurchaseRefusal([{ ...monthly, status }], { id: "PLAN-M", recurring: true })).toBeNull();
    }
    expect(membershipPurchaseRefusal([], { id: "PLAN-M", recurring: true })).toBeNull();
  });
  it("a renewing plan beside a plan paid once is sold", () => {
    expect(membershipPurchaseRefusal([{ ...monthly, recurring: false }], { id: "PLAN-P", recurring: true })).toBeNull();
  });
});
