import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import type { Services } from "../context.server";
import type { SpaGuest } from "../spa/booking.server";

/** How long a texted booking link stays good. */
export const SMS_LINK_SECONDS = 7 * 24 * 60 * 60;

type Payload = { g: string; c: string; exp: number };

function key(secret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "clinic-webstore/sms-link", "hmac-sha256 key", 32));
}

/**
 * Signed, expiring guest tokens for the SMS flow: a clinic texts a known guest a booking link that
 * opens with the guest already known. The first secret signs; every secret verifies (rotation).
 */
export function createLinkSigner(secrets: string[], clock: () => number = Date.now) {
  const keys = secrets.map(key);
  const mac = (k: Buffer, body: string) => createHmac("sha256", k).update(body).digest();
  return {
    sign(guestId: string, centerId: string, ttlSeconds = SMS_LINK_SECONDS): string {
      const body = Buffer.from(JSON.stringify({ g: guestId, c: centerId, exp: Math.floor(clock() / 1000) + ttlSeconds } satisfies Payload)).toString("base64url");
      return `${body}.${mac(keys[0], body).toString("base64url")}`;
    },
    /** The guest and clinic of an untampered, unexpired token; null for anything else. */
    verify(token: string | null | undefined): { guestId: string; centerId: string } | null {
      if (!token || token.length > 1000) return null;
      const [body, signature, extra] = token.split(".");
      if (!body || !signature || extra !== undefined) return null;
      const given = Buffer.from(signature, "base64url");
      if (!keys.some((k) => { const expected = mac(k, body); return expected.length === given.length && timingSafeEqual(expected, given); })) return null;
      try {
        const payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Partial<Payload>;
        if (typeof payload.g !== "string" || typeof payload.c !== "string" || typeof payload.exp !== "number") return null;
        if (payload.exp * 1000 <= clock()) return null;
        return { guestId: payload.g, centerId: payload.c };
      } catch {
        return null;
      }
    },
  };
}

export type LinkSigner = ReturnType<typeof createLinkSigner>;

/**
 * The guest a texted link names, when its token is ours, unaltered, unexpired and for this clinic;
 * otherwise (or when the back end cannot say) null, and the journey goes on as for anyone.
 */
export async function textedGuest(services: Services, token: string | null, centerId: string): Promise<SpaGuest | null> {
  const texted = services.linkSigner.verify(token);
  if (!texted || texted.centerId !== centerId) return null;
  return services.spa.getGuest(texted.guestId).catch(() => null);
}
