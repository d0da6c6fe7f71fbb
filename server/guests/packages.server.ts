import { idKey, sameId } from "~/domain/catalog";
import { appCache } from "../cache/cache.server";
import type { Services } from "../services";
import { isSpaError } from "../spa/errors.server";
import type { GuestPackage } from "../spa/sales.server";

/**
 * A signed-in guest's packages, read once for a booking's steps rather than on every page and press
 * (Zenoti meters every call); kept briefly in this process, by guest and clinic, and dropped once
 * one is bought or redeemed there.
 */
const guestPackageLists = appCache.define<GuestPackage[], { guestId: string; centerId: string }>({
  name: "guest-packages",
  key: ({ guestId, centerId }) => `${idKey(guestId)}|${idKey(centerId)}`,
  ttlMs: 2 * 60_000,
  staleMs: 0,
  maxEntries: 5_000,
  on: {
    packageBought: (bought, lists) => lists.delete(bought),
    packageRedeemed: (redeemed, lists) => lists.delete(redeemed),
  },
});

export type BookingPackage = { userPackageId: string; name: string; left: number };

/**
 * The guest's packages at this clinic that can still be redeemed; empty when the back end cannot
 * say (booking goes on without them).
 */
export async function redeemablePackages(
  services: Services,
  guestId: string,
  centerId: string,
): Promise<GuestPackage[]> {
  try {
    return await guestPackageLists.get({ guestId, centerId }, () =>
      services.spa.guestPackages(guestId, { centerId, redeemableOnly: true }),
    );
  } catch (error) {
    if (!isSpaError(error)) throw error;
    return [];
  }
}

/** Of these packages, the one with a session left for the treatment, the one ending soonest first; null when none. */
export function packageCovering(packages: readonly GuestPackage[], serviceId: string): BookingPackage | null {
  const usable = packages
    .map((p) => ({ p, service: p.services.find((s) => sameId(s.serviceId, serviceId) && s.left > 0) }))
    .filter((u) => u.service)
    .sort((a, b) => (a.p.endDate ?? "9999").localeCompare(b.p.endDate ?? "9999"));
  const first = usable[0];
  return first ? { userPackageId: first.p.userPackageId, name: first.p.name, left: first.service!.left } : null;
}

/** The guest's package at this clinic with a session left for the treatment; null when there is none, or the back end cannot say. */
export async function packageForTreatment(
  services: Services,
  input: { guestId: string; centerId: string; serviceId: string },
): Promise<BookingPackage | null> {
  return packageCovering(await redeemablePackages(services, input.guestId, input.centerId), input.serviceId);
}
