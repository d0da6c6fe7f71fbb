import { idKey, sameId } from "~/domain/catalog";
import { isActiveMembership } from "~/domain/memberships";
import type { Services } from "../services";
import { clinicPlanList } from "../memberships/memberships.server";
import { appCache } from "../cache/cache.server";
import { isSpaError } from "../spa/errors.server";
import type { GuestMembership } from "../spa/memberships.server";

/**
 * A guest's memberships, read once for a booking's steps (Zenoti meters every call): kept briefly in
 * this process, by guest. A guest made a moment ago has none, and is not asked about; after a
 * membership is bought the kept list is out of date.
 */
const membershipLists = appCache.define<GuestMembership[]>({
  name: "guest-memberships",
  key: idKey,
  ttlMs: 2 * 60_000,
  staleMs: 0,
  maxEntries: 5_000,
  on: {
    guestCreated: ({ guestId }, lists) => lists.set(guestId, []),
    membershipBought: ({ guestId }, lists) => lists.delete(guestId),
  },
});

/** The guest's memberships of every status, from the list kept for a booking's steps; empty when the back end cannot say. */
export async function guestMembershipList(services: Services, guestId: string): Promise<GuestMembership[]> {
  try {
    return await membershipLists.get(guestId, () => services.spa.guestMemberships(guestId));
  } catch (error) {
    if (!isSpaError(error)) throw error;
    return [];
  }
}

export type MemberPrices = { plan: string; percentOf: (serviceId: string) => number };

/**
 * What the guest's active memberships take off each service at this clinic (the best plan's percent),
 * as the back end prices a member's visit; null for a non-member, or when the back end cannot say
 * (the booking is then quoted without it, and a prepaid clinic's invoice shows the difference before
 * any charge).
 */
export async function memberPrices(
  services: Services,
  guestId: string,
  centerId: string,
): Promise<MemberPrices | null> {
  try {
    const active = (await guestMembershipList(services, guestId)).filter((m) => isActiveMembership(m.status));
    if (active.length === 0) return null;
    const plans = ((await clinicPlanList(services, centerId)) ?? []).filter((p) =>
      active.some((m) => sameId(m.membershipId, p.id)),
    );
    if (plans.length === 0) return null;
    const percentOf = (serviceId: string) =>
      Math.max(
        0,
        ...plans.flatMap((p) => p.serviceDiscounts.filter((d) => sameId(d.serviceId, serviceId)).map((d) => d.percent)),
      );
    return { plan: active[0].name, percentOf };
  } catch (error) {
    if (!isSpaError(error)) throw error;
    return null;
  }
}
