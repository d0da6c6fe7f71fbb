import type { Services } from "../services";
import type { SpaGuest } from "../spa/booking.server";
import type { GuestDetails } from "../store/stores.server";

/**
 * A client the clinics already know (a guest record in the back end) but who has no record with
 * us: we note their guest under their email, without a password, so that a one-time code sent to
 * that email lets them set one and the account links to that guest. Null when the back end knows
 * no guest by this email. When several records share the email, the oldest is theirs.
 */
export async function adoptExistingGuest(services: Services, email: string): Promise<GuestDetails | null> {
  const { guestDetails } = services.stores;
  const known = await guestDetails.get(email);
  if (known) return known;
  const [guest] = await services.spa.findGuestsByEmail(email);
  if (!guest) return null;
  await noteGuest(services, email, guest);
  return guestDetails.get(email);
}

/** Notes a back-end guest under an email, once; a record already there is kept. */
export async function noteGuest(services: Services, email: string, guest: Pick<SpaGuest, "id">): Promise<void> {
  const { guestDetails } = services.stores;
  if (await guestDetails.get(email)) return;
  await guestDetails
    .create({ email, guest_id: guest.id, is_password_set: false, is_return_user: false })
    .catch(async (error: Error) => {
      // Two requests for the same email at once: the other one wrote it.
      if (!(await guestDetails.get(email))) throw error;
    });
}
