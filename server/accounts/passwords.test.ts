import { describe, expect, it } from "vitest";
import { failedPasswordRules } from "~/domain/password-rules";
import { hashPassword, verifyPassword } from "./passwords.server";
import { createMemoryRateLimiter } from "./rate-limit.server";

describe("password hashing", () => {
  it("verifies the right password only, with a salted scrypt hash", async () => {
    const hash = await hashPassword("Glow!Skin2026");
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(hash).not.toContain("Glow");
    expect(await verifyPassword("Glow!Skin2026", hash)).toBe(true);
    expect(await verifyPassword("glow!skin2026", hash)).toBe(false);
    expect(await hashPassword("Glow!Skin2026")).not.toBe(hash);
  });
  it("takes a 64-character password", async () => {
    const long = `Aa1!${"x".repeat(60)}`;
    expect(await verifyPassword(long, await hashPassword(long))).toBe(true);
  });
});

describe("password rules", () => {
  it("names each rule a password fails", () => {
    expect(failedPasswordRules("Glow!Skin2026")).toEqual([]);
    expect(failedPasswordRules("abc")).toEqual([
      "At least 8 characters",
      "At least one uppercase character",
      "At least one number",
      "At least one special character (one of ! @ # $ % ^ & *)",
    ]);
  });
});

describe("rate limiter", () => {
  it("allows the limit in a window and refuses the next, until the window ends", () => {
    let now = 0;
    const limiter = createMemoryRateLimiter(() => now);
    for (let i = 0; i < 5; i++) expect(limiter.hit("ip", 5, 60_000).limited).toBe(false);
    const sixth = limiter.hit("ip", 5, 60_000);
    expect(sixth).toEqual({ limited: true, retryAfterSeconds: 60 });
    now = 60_000;
    expect(limiter.hit("ip", 5, 60_000).limited).toBe(false);
  });
});
