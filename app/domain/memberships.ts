// Memberships and loyalty points: the spec's rules, pure (sections 4, 5, 6 and 9).

/** The back end's membership status codes (there is no 11). */
export const MEMBERSHIP_STATUSES = {
  1: "Active",
  2: "Inactive",
  3: "Frozen",
  4: "Cancelled",
  5: "Expired",
  6: "Closed",
  7: "Not started",
  8: "Suspended",
  9: "Refunded",
  10: "Deleted",
  12: "Failed",
} as const satisfies Record<number, string>;

export type MembershipStatus = keyof typeof MEMBERSHIP_STATUSES;

/** The status's name, or "Unknown status (n)" for a code the spec does not list. */
export function membershipStatusLabel(status: number): string {
  return (MEMBERSHIP_STATUSES as Record<number, string>)[status] ?? `Unknown status (${status})`;
}

/** Statuses 1 (Active) and 3 (Frozen) count as active: a frozen member is still a member. */
export function isActiveMembership(status: number): boolean {
  return status === 1 || status === 3;
}

/** A guest is a member while any of their memberships is active. */
export function isMember(memberships: readonly { status: number }[]): boolean {
  return memberships.some((m) => isActiveMembership(m.status));
}

/** Shown wherever a membership's cover is described (the rule itself: `coveredByMembership`, service-kinds.ts). */
export const MEMBERSHIP_EXCLUSION = "Membership does not cover sculpting and laser hair removal.";

/** 100 points are worth $1: a point is a cent. */
export const POINTS_PER_DOLLAR = 100;

export function pointsValueCents(points: number): number {
  if (!Number.isFinite(points) || points <= 0) return 0;
  return Math.floor(points) * (100 / POINTS_PER_DOLLAR);
}

/** What points can and cannot pay for, in the spec's words. */
export const LOYALTY_RULES = [
  "100 points are worth $1.",
  "Points are for members, and are used in the clinic.",
  "Points cannot be exchanged for cash, or used for membership dues, gift cards or online purchases.",
] as const;

/** Why a guest sees no points: only members earn and use them. */
export const NON_MEMBER_POINTS_NOTE =
  "Loyalty points are for members. Join a membership to earn points at every visit and use them in the clinic.";

/** Zenoti's billing cycle ("1 Months", "12 Months", "1 Year") in words: "month", "12 months", "year". */
export function billingCycleLabel(paymentFrequency: string): string {
  const match = /^\s*(\d+)\s*(day|week|month|year)s?\s*$/i.exec(paymentFrequency);
  if (!match) return paymentFrequency.trim() || "term";
  const count = Number(match[1]);
  const unit = match[2].toLowerCase();
  if (unit === "month" && count === 12) return "year";
  return count === 1 ? unit : `${count} ${unit}s`;
}

/**
 * What a plan saves on one treatment it covers, in cents: the treatment's price less the plan's price
 * shared among the treatments it covers each billing period; never negative.
 */
export function membershipSaving(treatmentPrice: number, planPrice: number, coveredPerPeriod: number): number {
  if (coveredPerPeriod <= 0) return 0;
  return Math.max(0, treatmentPrice - Math.round(planPrice / coveredPerPeriod));
}

/** A membership the guest holds, as far as buying another one is concerned. */
export type HeldMembership = { membershipId: string; name: string; status: number; recurring: boolean };

/**
 * Why this guest may not buy this plan, or null when they may (the spec's isRecurringMembershipExist,
 * decision 037): a plan they already hold and is active, or a second plan that renews by itself
 * beside one they hold (two monthly charges for one person). A plan paid once may sit beside others.
 */
export function membershipPurchaseRefusal(
  held: readonly HeldMembership[],
  plan: { id: string; recurring: boolean },
): { kind: "same" | "recurring"; name: string } | null {
  const active = held.filter((m) => isActiveMembership(m.status));
  const same = active.find((m) => m.membershipId.toLowerCase() === plan.id.toLowerCase());
  if (same) return { kind: "same", name: same.name };
  const renewing = plan.recurring ? active.find((m) => m.recurring) : undefined;
  return renewing ? { kind: "recurring", name: renewing.name } : null;
}
