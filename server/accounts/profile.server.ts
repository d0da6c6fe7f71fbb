import { languageChoice, type Language } from "~/domain/account-forms";
import type { CurrentUser, Services } from "../services";
import type { GuestChange } from "../spa/booking.server";
import { orUnavailable } from "../unavailable.server";

export type ProfileDetails = {
  firstName: string;
  lastName: string;
  phone: string;
  address: string;
  city: string;
  zip: string;
  /** YYYY-MM-DD, or null: none on file (shown), or none given (saved: the one on file stays). */
  birthDate: string | null;
  /** Zenoti's guest gender: 1 Male, 0 Female, -1 Not specified, 3 Other. */
  gender: number;
  /**
   * One of the form's languages, or null: none on file, or one the form does not offer (shown as
   * none); none given (saved: the one on file stays, decision 043).
   */
  language: Language | null;
};
export type Consents = { marketingEmail: boolean; marketingSms: boolean };

/** What the profile page shows of the guest the back end holds (a 503 page when it is down). */
export async function loadProfile(
  services: Services,
  user: CurrentUser,
): Promise<{ details: ProfileDetails; consents: Consents | null }> {
  const guest = await orUnavailable(() => services.spa.getGuest(user.guestId));
  return {
    details: {
      firstName: guest?.firstName ?? "",
      lastName: guest?.lastName ?? "",
      phone: guest?.phone ?? "",
      address: guest?.address?.line1 ?? "",
      city: guest?.address?.city ?? "",
      zip: guest?.address?.zip ?? "",
      birthDate: guest?.birthDate ?? null,
      gender: guest?.gender ?? -1,
      language: languageChoice(guest?.language ?? null),
    },
    consents: guest?.consents
      ? { marketingEmail: guest.consents.marketingEmail, marketingSms: guest.consents.marketingSms }
      : null,
  };
}

/** `no-guest`: the back end no longer knows the account's guest (merged or deleted at a clinic). */
export type ProfileSave = "saved" | "no-guest" | "no-consents";

/**
 * Saves the guest's own details or message choices. The spa client reads the guest and merges the
 * change, so what the form does not show (tags, referral, other phones) stays as it was; so do a
 * birth date and a language on file when the form's are left empty (a made-up or empty one is never
 * sent). A back end that fails throws: the action's outage guard answers it.
 */
export async function saveProfile(
  services: Services,
  user: CurrentUser,
  change: { details: ProfileDetails } | { consents: Consents },
): Promise<ProfileSave> {
  const guest = await services.spa.getGuest(user.guestId);
  if (!guest) return "no-guest";
  let update: GuestChange;
  if ("consents" in change) {
    if (!guest.consents) return "no-consents";
    update = { consents: change.consents };
  } else {
    const { firstName, lastName, phone, address, city, zip, birthDate, gender, language } = change.details;
    update = {
      firstName,
      lastName,
      phone,
      address: { line1: address, city, zip },
      gender,
      ...(birthDate ? { birthDate } : {}),
      ...(language ? { language } : {}),
    };
  }
  await services.spa.updateGuestProfile(user.guestId, update);
  return "saved";
}
