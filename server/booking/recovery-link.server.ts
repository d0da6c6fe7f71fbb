import { createTokenSigner } from "../signed-tokens.server";

/**
 * The links of the recovery messages (decision 059): signed with a key of their own, naming only
 * the record (a random id), and expiring. A link made for another purpose never opens one.
 */
export function createRecoveryLinks(secrets: string[], clock: () => number = Date.now) {
  const signer = createTokenSigner<{ r: string }>(secrets, "booking-recovery", clock);
  return {
    /** A token for the record, good until `expiresAtMs`. */
    sign(recoveryId: string, expiresAtMs: number): string {
      return signer.sign({ r: recoveryId }, expiresAtMs);
    },
    /** The record's id of a genuine, unexpired token; null for anything else. */
    verify(token: string | null | undefined): string | null {
      return signer.verify(token, ["r"])?.r ?? null;
    },
  };
}

export type RecoveryLinks = ReturnType<typeof createRecoveryLinks>;
