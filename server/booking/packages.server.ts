import { sameId } from "~/domain/catalog";
import type { Services } from "../context.server";
import { createSwrCache } from "../spa/catalog-cache.server";
import { isSpaError } from "../spa/errors.server";

/**
 * A signed-in guest's packages, read once for a booking's steps rather than on every page and press
 * (Zenoti meters every call); kept briefly in this process, and dropped once one is redeemed.
 */
const guestPackageLists = createSwrCache({ ttlMs: 2 * 60_000, staleMs: 0, maxEntries: 5_000 });
const listKey = (guestId: string, centerId: string) => `packages:${guestId.toLowerCase()}|${centerId.toLowerCase()}`;

export type BookingPackage = { userPackageId: string; name: string; left: number };

/**
 * The guest's package at this clinic with a session left for the treatment, the one ending soonest
 * first; null when there is none, or when the back end cannot say (booking goes on without it).
 */
export async function packageForTreatment(services: Services, input: { guestId: string; centerId: string; serviceId: string }): Promise<BookingPackage | null> {
  try {
    const packages = await guestPackageLists.get(listKey(input.guestId, input.centerId), () =>
      services.spa.guestPackages(input.guestId, { centerId: input.centerId, redeemableOnly: true }),
    );
    const usable = packages
      .map((p) => ({ p, service: p.services.find((s) => sameId(s.serviceId, input.serviceId) && s.left > 0) }))
      .filter((u) => u.service)
      .sort((a, b) => (a.p.endDate ?? "9999").localeCompare(b.p.endDate ?? "9999"));
    const first = usable[0];
    return first ? { userPackageId: first.p.userPackageId, name: first.p.name, left: first.service!.left } : null;
  } catch (error) {
    if (!isSpaError(error)) throw error;
    return null;
  }
}

/** After a redemption the kept list is out of date. */
export function forgetGuestPackages(guestId: string, centerId: string): void {
  guestPackageLists.delete(listKey(guestId, centerId));
}
