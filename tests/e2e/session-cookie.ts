import fs from "node:fs";
import type { BrowserContext } from "@playwright/test";
import { createCookieCipher, type SessionData } from "../../server/session.server";

/**
 * The session cookies as the server writes them, taken apart for the tests that check they reveal
 * nothing and that a changed one is not believed. Each value is the sealed value as it is:
 * "v1.<base64url of IV (12 bytes) | GCM tag (16 bytes) | ciphertext>" (server/session.server.ts).
 * `__session` holds the sign-in, `__booking` the booking in progress (decision 014).
 */
export const SESSION_COOKIE = "__session";
export const BOOKING_COOKIE = "__booking";
const IV_BYTES = 12;
const TAG_BYTES = 16;

export async function sessionCookie(context: BrowserContext, name: string = SESSION_COOKIE): Promise<string> {
  return (await context.cookies()).find((c) => c.name === name)?.value ?? "";
}

/** The sealed value inside a cookie value: "v1.…", or null when the cookie is not shaped that way. */
export function sealedValue(cookieValue: string): string | null {
  return cookieValue.startsWith("v1.") ? cookieValue : null;
}

/** Whether the value looks sealed: "v1." and base64url of more bytes than an IV and a tag. */
export function looksSealed(cookieValue: string): boolean {
  const sealed = sealedValue(cookieValue);
  return (
    sealed !== null &&
    /^v1\.[A-Za-z0-9_-]+$/.test(sealed) &&
    Buffer.from(sealed.slice(3), "base64url").length > IV_BYTES + TAG_BYTES
  );
}

/**
 * What a cookie holds, opened with the e2e server's own secret (its data directory) and the cookie's
 * name: the test learns the values that must not show, such as the user's session id.
 */
export function openSessionCookie(
  cookieValue: string,
  name: string = SESSION_COOKIE,
  dataDir = ".e2e-data",
): SessionData | null {
  const secret = fs.readFileSync(`${dataDir}/session-secret`, "utf8").trim();
  const sealed = sealedValue(cookieValue);
  const plaintext = sealed === null ? null : createCookieCipher([secret], name).open(sealed);
  return plaintext === null ? null : (JSON.parse(plaintext) as SessionData);
}

/** Every way the value could be read: as is, URI-decoded, base64 and base64url, each part, nested. */
export function decodings(value: string, depth = 4): string[] {
  const found = new Set<string>([value]);
  let frontier = [value];
  for (let i = 0; i < depth; i++) {
    const next: string[] = [];
    for (const text of frontier) {
      for (const part of [text, ...text.split(/[.:"]/)]) {
        const candidates = [
          Buffer.from(part, "base64").toString("latin1"),
          Buffer.from(part, "base64url").toString("latin1"),
        ];
        try {
          candidates.push(decodeURIComponent(part));
        } catch {
          // Not URI-encoded.
        }
        for (const candidate of candidates) {
          if (!found.has(candidate)) {
            found.add(candidate);
            next.push(candidate);
          }
        }
      }
    }
    frontier = next;
  }
  return [...found];
}

/** The plaintext texts among `secrets` that some decoding of the cookie value shows (none, for a sealed cookie). */
export function revealed(cookieValue: string, secrets: string[]): string[] {
  const texts = decodings(cookieValue);
  return secrets.filter((secret) => texts.some((text) => text.toLowerCase().includes(secret.toLowerCase())));
}

/**
 * The cookie with one byte of its sealed value changed, a change that would still be read as good
 * session data if the GCM tag were not checked:
 * - "tag": one bit of the tag; the IV and ciphertext are untouched, so they decrypt to the very same data;
 * - "ciphertext": the bit that changes the case of the first letter of the first key of the JSON
 *   (the plaintext starts with `{"`), say "draft" to "Draft": still valid JSON,
 *   with every other key kept.
 */
export function tampered(cookieValue: string, where: "tag" | "ciphertext"): string {
  const sealed = sealedValue(cookieValue);
  if (sealed === null || !looksSealed(cookieValue)) throw new Error("not a sealed session cookie");
  const raw = Buffer.from(sealed.slice(3), "base64url");
  if (where === "tag") raw[IV_BYTES] ^= 0x01;
  else raw[IV_BYTES + TAG_BYTES + 2] ^= 0x20;
  return `v1.${raw.toString("base64url")}`;
}
