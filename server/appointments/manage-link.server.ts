import { createTokenSigner } from "../signed-tokens.server";

/** A manage link stays good until a week after the visit it opens, at most this long after it was sent. */
const AFTER_VISIT_MS = 7 * 24 * 3_600_000;
const LONGEST_MS = 180 * 24 * 3_600_000;

/**
 * The links that open one visit, for a guest without an account: signed with a key of their own,
 * naming the guest and the visit (its appointment group), and expiring. They reveal nothing else.
 */
export function createManageLinks(secrets: string[], clock: () => number = Date.now) {
  const signer = createTokenSigner<{ g: string; v: string }>(secrets, "manage-link", clock);
  return {
    /** A token for the guest's visit starting at `visitStartMs`. */
    sign(guestId: string, visitId: string, visitStartMs: number): string {
      const expires = Math.min(visitStartMs + AFTER_VISIT_MS, clock() + LONGEST_MS);
      return signer.sign(
        { g: guestId.toLowerCase(), v: visitId.toLowerCase() },
        Math.max(expires, clock() + AFTER_VISIT_MS),
      );
    },
    /** The guest and visit of a genuine, unexpired token; null for anything else. */
    verify(token: string | null | undefined): { guestId: string; visitId: string } | null {
      const payload = signer.verify(token, ["g", "v"]);
      return payload ? { guestId: payload.g, visitId: payload.v } : null;
    },
  };
}

export type ManageLinks = ReturnType<typeof createManageLinks>;
