import type { LinkSigner, Services } from "../services";
import type { SpaGuest } from "../spa/booking.server";
import { createTokenSigner } from "../signed-tokens.server";

/** How long a texted booking link stays good. */
export const SMS_LINK_SECONDS = 7 * 24 * 60 * 60;

/**
 * Signed, expiring guest tokens for the SMS flow: a clinic texts a known guest a booking link that
 * opens with the guest already known.
 */
export function createLinkSigner(secrets: string[], clock: () => number = Date.now): LinkSigner {
  const signer = createTokenSigner<{ g: string; c: string }>(secrets, "sms-link", clock);
  return {
    sign(guestId: string, centerId: string, ttlSeconds = SMS_LINK_SECONDS): string {
      return signer.sign({ g: guestId, c: centerId }, clock() + ttlSeconds * 1000);
    },
    /** The guest and clinic of an untampered, unexpired token; null for anything else. */
    verify(token: string | null | undefined): { guestId: string; centerId: string } | null {
      const payload = signer.verify(token, ["g", "c"]);
      return payload ? { guestId: payload.g, centerId: payload.c } : null;
    },
  };
}

/**
 * The guest a texted link names, when its token is ours, unaltered, unexpired and for this clinic;
 * otherwise (or when the back end cannot say) null, and the journey goes on as for anyone.
 */
export async function textedGuest(
  services: Services,
  token: string | null,
  centerId: string,
): Promise<SpaGuest | null> {
  const texted = services.linkSigner.verify(token);
  if (!texted || texted.centerId !== centerId) return null;
  return services.spa.getGuest(texted.guestId).catch(() => null);
}
