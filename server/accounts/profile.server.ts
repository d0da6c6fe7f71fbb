import type { Services } from "../context.server";
import type { GuestChange } from "../spa/booking.server";
import { orUnavailable, unlessUnavailable } from "../unavailable.server";
import type { CurrentUser } from "./account-service.server";

export type ProfileDetails = { firstName: string; lastName: string; phone: string; address: string; city: string; zip: string };
export type Consents = { marketingEmail: boolean; marketingSms: boolean };

/** What the profile page shows of the guest the back end holds (a 503 page when it is down). */
export async function loadProfile(services: Services, user: CurrentUser): Promise<{ details: ProfileDetails; consents: Consents | null }> {
  const guest = await orUnavailable(() => services.spa.getGuest(user.guestId));
  return {
    details: {
      firstName: guest?.firstName ?? "",
      lastName: guest?.lastName ?? "",
      phone: guest?.phone ?? "",
      address: guest?.address?.line1 ?? "",
      city: guest?.address?.city ?? "",
      zip: guest?.address?.zip ?? "",
    },
    consents: guest?.consents ? { marketingEmail: guest.consents.marketingEmail, marketingSms: guest.consents.marketingSms } : null,
  };
}

export type ProfileSave = "saved" | "unavailable" | "no-consents";

/**
 * Saves the guest's own details or message choices. The spa client reads the guest and merges the
 * change, so what the form does not show (tags, birthday, referral, gender) stays as it was.
 */
export async function saveProfile(
  services: Services,
  user: CurrentUser,
  change: { details: ProfileDetails } | { consents: Consents },
): Promise<ProfileSave> {
  const guest = await unlessUnavailable(() => services.spa.getGuest(user.guestId), () => undefined);
  if (!guest) return "unavailable";
  let update: GuestChange;
  if ("consents" in change) {
    if (!guest.consents) return "no-consents";
    update = { consents: change.consents };
  } else {
    const { firstName, lastName, phone, address, city, zip } = change.details;
    update = { firstName, lastName, phone, address: { line1: address, city, zip } };
  }
  const saved = await unlessUnavailable(() => services.spa.updateGuestProfile(user.guestId, update), () => null);
  return saved ? "saved" : "unavailable";
}
