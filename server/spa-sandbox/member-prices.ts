import { isActiveMembership } from "../../app/domain/memberships";
import { coveredByMembership } from "../../app/domain/service-kinds";
import { normalizeId, type SandboxDb } from "./db";

/**
 * Member prices: a membership plan takes its percent (`service_discount_percent`) off its members'
 * treatments and add-ons at every clinic, as Zenoti applies a plan's service discounts to a member's
 * invoice. Never sculpting or laser hair removal (the membership rule, `coveredByMembership`), and
 * not what the plan covers (that comes with the plan). The plans answer lists the same services in
 * each plan's `benefits.discounts.services`.
 */

type DiscountPlan = { covered_services: string; service_discount_percent: number };

/** The services a clinic sells that a plan's members get its percent off, in the catalog's order. */
export function planDiscountedServices(
  db: SandboxDb,
  plan: DiscountPlan,
  centerId: string,
): { id: string; name: string }[] {
  if (plan.service_discount_percent <= 0) return [];
  const covered = new Set((JSON.parse(plan.covered_services) as { service: string }[]).map((c) => c.service));
  const sold = db
    .prepare(
      "SELECT s.id, s.code, s.name FROM services s JOIN center_services cs ON cs.service_id = s.id WHERE cs.center_id = ? ORDER BY s.display_order",
    )
    .all(centerId) as { id: string; code: string; name: string }[];
  return sold.filter((s) => coveredByMembership(s.name) && !covered.has(s.code)).map(({ id, name }) => ({ id, name }));
}

/**
 * The percent off each service (by normalized id) at a clinic for a guest: the best of the plans of
 * the guest's active memberships (Active 1 or Frozen 3, bought at any clinic). Empty for anyone else.
 */
export function memberPercents(db: SandboxDb, guestId: string, centerId: string): Map<string, number> {
  const plans = (
    db
      .prepare(
        `SELECT gm.status, p.covered_services, p.service_discount_percent FROM guest_memberships gm
         JOIN membership_plans p ON p.id = gm.membership_id WHERE gm.guest_id = ?`,
      )
      .all(guestId) as (DiscountPlan & { status: number })[]
  ).filter((p) => isActiveMembership(p.status));
  const percents = new Map<string, number>();
  for (const plan of plans) {
    for (const service of planDiscountedServices(db, plan, centerId)) {
      const key = normalizeId(service.id);
      percents.set(key, Math.max(percents.get(key) ?? 0, plan.service_discount_percent));
    }
  }
  return percents;
}

/** A percent of a price in whole cents, rounded half up to the cent; never more than the price. */
export function percentOffCents(priceCents: number, percent: number): number {
  if (priceCents <= 0 || percent <= 0) return 0;
  return Math.min(priceCents, Math.floor((priceCents * percent + 50) / 100));
}
