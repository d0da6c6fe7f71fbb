import { sameId } from "~/domain/catalog";
import { billingCycleLabel, isActiveMembership, membershipSaving } from "~/domain/memberships";
import { coveredByMembership } from "~/domain/service-kinds";
import { percentOf } from "~/domain/money";
import { formatMoney } from "~/lib/money";
import type { CurrentUser, Services } from "../services";
import { isSpaError } from "../spa/errors.server";
import { clinicPlanList } from "./memberships.server";

/**
 * What membership means for the treatment being booked: for a member, their plan, whether it covers
 * this treatment and the credit they can use at the clinic (their member prices are in the price
 * summary, as the back end applies them); for anyone else, what the best plan here would save on it
 * (the treatment it covers, or its member price). Null when there is nothing to say or the back end
 * cannot say.
 */
export type MembershipNote =
  | { kind: "member"; plan: string; covers: boolean; credit: string | null }
  | { kind: "offer"; plan: string; price: string; saving: string };

export async function membershipNote(
  services: Services,
  input: { user: CurrentUser | null; centerId: string; service: { id: string; name: string; price: number } },
): Promise<MembershipNote | null> {
  const { user, centerId, service } = input;
  if (!coveredByMembership(service.name)) return null;
  try {
    const plans = (await clinicPlanList(services, centerId)) ?? [];
    const coverOf = (planId: string) =>
      plans.find((p) => sameId(p.id, planId))?.coveredServices.find((s) => sameId(s.serviceId, service.id));
    if (user) {
      const active = (await services.spa.guestMemberships(user.guestId)).filter((m) => isActiveMembership(m.status));
      if (active.length > 0) {
        const covering = active.find((m) => coverOf(m.membershipId)) ?? active[0];
        const credit = active.reduce((sum, m) => sum + m.creditCents.service, 0);
        return {
          kind: "member",
          plan: covering.name,
          covers: Boolean(coverOf(covering.membershipId)),
          credit: credit > 0 ? formatMoney(credit) : null,
        };
      }
    }
    const best = plans
      .map((plan) => {
        // Covered: the treatment comes with the plan; otherwise the plan's member price, if any.
        const cover = plan.coveredServices.find((s) => sameId(s.serviceId, service.id));
        const percent = plan.serviceDiscounts.find((d) => sameId(d.serviceId, service.id))?.percent ?? 0;
        return {
          plan,
          saving: cover
            ? membershipSaving(service.price, plan.priceCents, cover.quantity)
            : percentOf(service.price, percent),
        };
      })
      .filter((o) => o.saving > 0)
      .sort((a, b) => b.saving - a.saving)[0];
    return best
      ? {
          kind: "offer",
          plan: best.plan.name,
          price: `${formatMoney(best.plan.priceCents)} a ${billingCycleLabel(best.plan.billingCycle)}`,
          saving: formatMoney(best.saving),
        }
      : null;
  } catch (error) {
    if (!isSpaError(error)) throw error;
    return null;
  }
}
