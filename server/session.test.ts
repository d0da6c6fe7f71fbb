import { describe, expect, it } from "vitest";
import { createCookieCipher, createEncryptedSessionStorage } from "./session.server";

const SECRET_A = "a".repeat(40);
const SECRET_B = "b".repeat(40);

function cookieValue(setCookie: string): string {
  return setCookie.split(";")[0];
}

/** Every way the value could be read: as is, URI-decoded, base64 and base64url, each part, nested. */
function decodings(value: string, depth = 3): string[] {
  const found = new Set<string>([value]);
  let frontier = [value];
  for (let i = 0; i < depth; i++) {
    const next: string[] = [];
    for (const text of frontier) {
      const parts = [text, ...text.split(/[.:"]/)];
      for (const part of parts) {
        const candidates = [
          Buffer.from(part, "base64").toString("latin1"),
          Buffer.from(part, "base64url").toString("latin1"),
        ];
        try {
          candidates.push(decodeURIComponent(part));
        } catch {
          // Not URI-encoded.
        }
        for (const candidate of candidates) if (!found.has(candidate)) found.add(candidate), next.push(candidate);
      }
    }
    frontier = next;
  }
  return [...found];
}

describe("encrypted session cookie", () => {
  it("round-trips the session data", async () => {
    const storage = createEncryptedSessionStorage({ secrets: [SECRET_A], secure: true });
    const session = await storage.getSession(null);
    session.set("userSessionId", "sess-123");
    const header = await storage.commitSession(session);
    const again = await storage.getSession(cookieValue(header));
    expect(again.get("userSessionId")).toBe("sess-123");
  });

  it("reveals nothing when decoded, however it is decoded, and never looks the same twice", async () => {
    const storage = createEncryptedSessionStorage({ secrets: [SECRET_A], secure: true });
    const session = await storage.getSession(null);
    session.set("draft", { email: "ana@example.com", guestId: "guest-42" } as never);
    const first = cookieValue(await storage.commitSession(session));
    const second = cookieValue(await storage.commitSession(session));
    // An encoding (base64, JSON, signing) gives the same value for the same data; encryption with a
    // fresh nonce never does.
    expect(second).not.toBe(first);
    for (const text of decodings(first.slice(first.indexOf("=") + 1))) {
      expect(text).not.toContain("ana@example.com");
      expect(text).not.toContain("guest-42");
    }
  });

  it("sets HttpOnly, SameSite=Lax, Secure and a 90-day lifetime", async () => {
    const storage = createEncryptedSessionStorage({ secrets: [SECRET_A], secure: true });
    const header = await storage.commitSession(await storage.getSession(null));
    expect(header).toMatch(/HttpOnly/);
    expect(header).toMatch(/SameSite=Lax/);
    expect(header).toMatch(/Secure/);
    expect(header).toMatch(/Max-Age=7776000/);
  });

  it("treats a tampered cookie as an empty session, even a change that would still read as valid data", async () => {
    const storage = createEncryptedSessionStorage({ secrets: [SECRET_A], secure: false });
    const session = await storage.getSession(null);
    session.set("userSessionId", "sess-123");
    const value = cookieValue(await storage.commitSession(session));
    const name = value.slice(0, value.indexOf("="));
    const sealed = value.slice(name.length + 1);
    // Flip one bit of the ciphertext where the plaintext has the "3" of "sess-123": a stream cipher
    // without authentication would open it as "sess-122". Only the authentication tag stops it.
    const plaintext = JSON.stringify({ userSessionId: "sess-123" });
    const raw = Buffer.from(sealed.slice(3), "base64url");
    raw[12 + 16 + plaintext.indexOf("3")] ^= 0x01;
    // The untouched cookie opens: the tampered one fails because of the flipped bit alone.
    expect((await storage.getSession(value)).get("userSessionId")).toBe("sess-123");
    const tampered = `${name}=v1.${raw.toString("base64url")}`;
    for (const header of [tampered, `${name}=garbage`, `${name}=`, `${name}=%E0%A4%A`]) {
      const opened = await storage.getSession(header);
      expect(opened.get("userSessionId")).toBeUndefined();
    }
  });

  it("opens cookies sealed with an older secret after rotation, and seals with the newest", async () => {
    const before = createEncryptedSessionStorage({ secrets: [SECRET_A], secure: false });
    const session = await before.getSession(null);
    session.set("userSessionId", "sess-old");
    const oldCookie = cookieValue(await before.commitSession(session));

    const rotated = createEncryptedSessionStorage({ secrets: [SECRET_B, SECRET_A], secure: false });
    expect((await rotated.getSession(oldCookie)).get("userSessionId")).toBe("sess-old");

    const newCookie = cookieValue(await rotated.commitSession(await rotated.getSession(oldCookie)));
    const onlyNew = createEncryptedSessionStorage({ secrets: [SECRET_B], secure: false });
    expect((await onlyNew.getSession(newCookie)).get("userSessionId")).toBe("sess-old");
    expect((await onlyNew.getSession(oldCookie)).get("userSessionId")).toBeUndefined();
  });

  it("binds a sealed value to the cookie name", () => {
    const sealed = createCookieCipher([SECRET_A], "__session").seal("hello");
    expect(createCookieCipher([SECRET_A], "__session").open(sealed)).toBe("hello");
    expect(createCookieCipher([SECRET_A], "other").open(sealed)).toBeNull();
  });
});
