import { createTokenSigner } from "../signed-tokens.server";

/** An offer's link is good a day past the time it offers, no longer than this after it was sent. */
const OFFER_AFTER_MS = 24 * 3_600_000;
/** A leave link is good a week past the entry's last day. */
const LEAVE_AFTER_MS = 7 * 24 * 3_600_000;

/**
 * The links of a waitlist's messages (decision 058), each signed with a key of its own: the offer
 * of an open time (the entry and the time, clinic-local) and leaving the waitlist (the entry). They
 * name nothing but the entry's random id and the time, and they expire.
 */
export function createWaitlistLinks(secrets: string[], clock: () => number = Date.now) {
  const offers = createTokenSigner<{ e: string; s: string }>(secrets, "waitlist-offer", clock);
  const leaves = createTokenSigner<{ e: string }>(secrets, "waitlist-leave", clock);
  return {
    /** The offer of `slot` to the entry; `slotAtMs` is the time as an instant. */
    offer(entryId: string, slot: string, slotAtMs: number): string {
      return offers.sign({ e: entryId, s: slot }, Math.max(slotAtMs, clock()) + OFFER_AFTER_MS);
    },
    readOffer(token: string | null | undefined): { entryId: string; slot: string } | null {
      const payload = offers.verify(token, ["e", "s"]);
      return payload && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(payload.s)
        ? { entryId: payload.e, slot: payload.s }
        : null;
    },
    /** Leaving the entry, good until a week after it ends. */
    leave(entryId: string, expiresAtMs: number): string {
      return leaves.sign({ e: entryId }, Math.max(expiresAtMs, clock()) + LEAVE_AFTER_MS);
    },
    readLeave(token: string | null | undefined): { entryId: string } | null {
      const payload = leaves.verify(token, ["e"]);
      return payload ? { entryId: payload.e } : null;
    },
  };
}

export type WaitlistLinks = ReturnType<typeof createWaitlistLinks>;
