import { describe, expect, it } from "vitest";
import { createCookieCipher, createEncryptedSessionStorage } from "./session.server";

const SECRET_A = "a".repeat(40);
const SECRET_B = "b".repeat(40);

function cookieValue(setCookie: string): string {
  return setCookie.split(";")[0];
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

  it("reveals nothing when decoded", async () => {
    const storage = createEncryptedSessionStorage({ secrets: [SECRET_A], secure: true });
    const session = await storage.getSession(null);
    session.set("draft", { email: "ana@example.com", guestId: "guest-42" });
    const header = await storage.commitSession(session);
    const raw = decodeURIComponent(cookieValue(header).split("=").slice(1).join("="));
    const decoded = [raw, Buffer.from(raw, "base64").toString("latin1"), Buffer.from(raw, "base64url").toString("latin1")];
    for (const text of decoded) {
      expect(text).not.toContain("ana@example.com");
      expect(text).not.toContain("guest-42");
    }
    const inner = JSON.parse(Buffer.from(raw, "base64").toString("utf8")) as string;
    expect(Buffer.from(inner.slice(3), "base64url").toString("latin1")).not.toContain("guest-42");
  });

  it("sets HttpOnly, SameSite=Lax, Secure and a 90-day lifetime", async () => {
    const storage = createEncryptedSessionStorage({ secrets: [SECRET_A], secure: true });
    const header = await storage.commitSession(await storage.getSession(null));
    expect(header).toMatch(/HttpOnly/);
    expect(header).toMatch(/SameSite=Lax/);
    expect(header).toMatch(/Secure/);
    expect(header).toMatch(/Max-Age=7776000/);
  });

  it("treats a tampered cookie as an empty session", async () => {
    const storage = createEncryptedSessionStorage({ secrets: [SECRET_A], secure: false });
    const session = await storage.getSession(null);
    session.set("userSessionId", "sess-123");
    const value = cookieValue(await storage.commitSession(session));
    const [name, payload] = [value.slice(0, value.indexOf("=")), value.slice(value.indexOf("=") + 1)];
    const flipped = payload.slice(0, 20) + (payload[20] === "A" ? "B" : "A") + payload.slice(21);
    for (const header of [`${name}=${flipped}`, `${name}=garbage`, `${name}=`, `${name}=%E0%A4%A`]) {
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
