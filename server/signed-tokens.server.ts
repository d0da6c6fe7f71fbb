import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";

/**
 * Signed, expiring tokens carried in links: a JSON payload and its HMAC, both base64url. Each
 * purpose has its own key derived from the session secrets, so a token made for one kind of link
 * never opens another. The first secret signs; every secret verifies (rotation).
 */
export function createTokenSigner<P extends Record<string, string>>(
  secrets: string[],
  purpose: string,
  clock: () => number = Date.now,
) {
  const keys = secrets.map((secret) =>
    Buffer.from(hkdfSync("sha256", secret, `clinic-webstore/${purpose}`, "hmac-sha256 key", 32)),
  );
  const mac = (k: Buffer, body: string) => createHmac("sha256", k).update(body).digest();
  return {
    /** A token for the payload, good until `expiresAtMs`. */
    sign(payload: P, expiresAtMs: number): string {
      const body = Buffer.from(JSON.stringify({ ...payload, exp: Math.floor(expiresAtMs / 1000) })).toString(
        "base64url",
      );
      return `${body}.${mac(keys[0], body).toString("base64url")}`;
    },
    /** The payload of an untampered, unexpired token with every field a string; null for anything else. */
    verify(token: string | null | undefined, fields: (keyof P)[]): P | null {
      if (!token || token.length > 1000) return null;
      const [body, signature, extra] = token.split(".");
      if (!body || !signature || extra !== undefined) return null;
      // Compared as text: base64url's decoder ignores a last character's spare bits, so comparing
      // decoded bytes would take an altered signature that decodes the same.
      const given = Buffer.from(signature);
      const genuine = keys.some((k) => {
        const expected = Buffer.from(mac(k, body).toString("base64url"));
        return expected.length === given.length && timingSafeEqual(expected, given);
      });
      if (!genuine) return null;
      try {
        const payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Record<string, unknown>;
        if (typeof payload.exp !== "number" || payload.exp * 1000 <= clock()) return null;
        if (!fields.every((f) => typeof payload[f as string] === "string")) return null;
        return Object.fromEntries(fields.map((f) => [f, payload[f as string]])) as P;
      } catch {
        return null;
      }
    },
  };
}
