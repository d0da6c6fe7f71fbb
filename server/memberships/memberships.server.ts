import {
  billingCycleLabel,
  isActiveMembership,
  isMember,
  membershipStatusLabel,
  pointsValueCents,
} from "~/domain/memberships";
import { coveredByMembership } from "~/domain/service-kinds";
import { formatMoney } from "~/lib/money";
import { appCache } from "../cache/cache.server";
import type { CurrentUser, Services } from "../services";
import type { GuestMembership, MembershipPlan } from "../spa/memberships.server";

/** A clinic's plans change as rarely as its menu: kept like the catalog (Zenoti meters every call). */
const planLists = appCache.define<MembershipPlan[] | null>({
  name: "membership-plans",
  key: (centerId) => centerId.toLowerCase(),
  ttlMs: 5 * 60_000,
  staleMs: 60 * 60_000,
  maxEntries: 500,
});

export type PlanView = {
  id: string;
  priceCents: number;
  name: string;
  description: string;
  /** "$99 a month", "$1,068 a year". */
  price: string;
  recurring: boolean;
  /** What the plan covers, never sculpting or laser hair removal (whatever the back end lists). */
  covers: { name: string; quantity: number }[];
  terms: string | null;
};

export function planView(plan: MembershipPlan): PlanView {
  return {
    id: plan.id,
    priceCents: plan.priceCents,
    name: plan.name,
    description: plan.description,
    price: `${formatMoney(plan.priceCents)} a ${billingCycleLabel(plan.billingCycle)}`,
    recurring: plan.recurring,
    covers: plan.coveredServices
      .filter((s) => coveredByMembership(s.name))
      .map((s) => ({ name: s.name, quantity: s.quantity })),
    terms: plan.terms,
  };
}

/** The membership plans a clinic sells as the back end gives them (cached), or null for a clinic it does not know. */
export function clinicPlanList(services: Services, centerId: string): Promise<MembershipPlan[] | null> {
  return planLists.get(centerId, () => services.spa.listMembershipPlans(centerId));
}

/** The membership plans a clinic sells, or null when the back end knows no such clinic. */
export async function clinicPlans(services: Services, centerId: string): Promise<PlanView[] | null> {
  const plans = await clinicPlanList(services, centerId);
  return plans ? plans.map(planView) : null;
}

export type MembershipView = {
  id: string;
  name: string;
  status: string;
  active: boolean;
  recurring: boolean;
  memberSince: string | null;
  expires: string | null;
  credit: { total: string; service: string; product: string; other: string } | null;
};

export function membershipView(m: GuestMembership): MembershipView {
  const hasCredit =
    m.creditCents.total > 0 || m.creditCents.service > 0 || m.creditCents.product > 0 || m.creditCents.other > 0;
  return {
    id: m.userMembershipId,
    name: m.name,
    status: membershipStatusLabel(m.status),
    active: isActiveMembership(m.status),
    recurring: m.recurring,
    memberSince: m.memberSince,
    expires: m.expiryDate,
    credit: hasCredit
      ? {
          total: formatMoney(m.creditCents.total),
          service: formatMoney(m.creditCents.service),
          product: formatMoney(m.creditCents.product),
          other: formatMoney(m.creditCents.other),
        }
      : null,
  };
}

/** The signed-in guest's memberships, active ones first. */
export async function accountMemberships(
  services: Services,
  user: CurrentUser,
): Promise<{ member: boolean; memberships: MembershipView[] }> {
  const memberships = await services.spa.guestMemberships(user.guestId);
  const ordered = [...memberships].sort(
    (a, b) => Number(isActiveMembership(b.status)) - Number(isActiveMembership(a.status)),
  );
  return { member: isMember(memberships), memberships: ordered.map(membershipView) };
}

export type LoyaltyView =
  | { member: false }
  | { member: true; balance: number; value: string; history: { date: string; points: number; reason: string }[] };

/** Points are for members only (the spec): a non-member is told why they have none, and no call is made. */
export async function accountLoyalty(
  services: Services,
  user: CurrentUser,
  member: boolean,
  historyLength = 5,
): Promise<LoyaltyView> {
  if (!member) return { member: false };
  const points = await services.spa.loyaltyPoints(user.guestId);
  const balance = Math.max(0, Math.floor(points?.balance ?? 0));
  return {
    member: true,
    balance,
    value: formatMoney(pointsValueCents(balance)),
    history: [...(points?.history ?? [])].sort((a, b) => b.date.localeCompare(a.date)).slice(0, historyLength),
  };
}
