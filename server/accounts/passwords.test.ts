import { randomBytes, scryptSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { failedPasswordRules } from "~/domain/password-rules";
import { hashPassword, LOW_COST, needsRehash, verifyPassword } from "./passwords.server";
import { createMemoryRateLimiter } from "./rate-limit.server";

describe("password hashing", () => {
  it("verifies the right password only, with a salted scrypt hash", async () => {
    const hash = await hashPassword("Glow!Skin2026");
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(hash).not.toContain("Glow");
    expect(await verifyPassword("Glow!Skin2026", hash)).toBe(true);
    expect(await verifyPassword("glow!skin2026", hash)).toBe(false);
    expect(await hashPassword("Glow!Skin2026")).not.toBe(hash);
  });
  it("uses at least OWASP's scrypt cost (N=2^17, r=8, p=1) for a new hash", async () => {
    const [, n, r, p] = (await hashPassword("Glow!Skin2026")).split("$").map(Number);
    expect(n).toBeGreaterThanOrEqual(2 ** 17);
    expect(r).toBeGreaterThanOrEqual(8);
    expect(p).toBeGreaterThanOrEqual(1);
  });
  it("still verifies a hash made with the earlier parameters (N=2^15), and marks it for an upgrade", async () => {
    const salt = randomBytes(16);
    const key = scryptSync("Glow!Skin2026", salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    const old = `scrypt$32768$8$1$${salt.toString("base64url")}$${key.toString("base64url")}`;
    expect(await verifyPassword("Glow!Skin2026", old)).toBe(true);
    expect(await verifyPassword("Glow!Skin2027", old)).toBe(false);
    expect(needsRehash(old)).toBe(true);
    expect(needsRehash(await hashPassword("Glow!Skin2026"))).toBe(false);
  });
  it("refuses a stored hash with a broken or outsized cost instead of computing it", async () => {
    const [, , , , salt, key] = (await hashPassword("Glow!Skin2026")).split("$");
    expect(await verifyPassword("Glow!Skin2026", `scrypt$${2 ** 24}$8$1$${salt}$${key}`)).toBe(false);
    expect(await verifyPassword("Glow!Skin2026", `scrypt$1000$8$1$${salt}$${key}`)).toBe(false);
  });
  it("hashes at the low cost when asked (test servers), and upgrades such a hash at the standard cost", async () => {
    const low = await hashPassword("Glow!Skin2026", LOW_COST);
    expect(low).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await verifyPassword("Glow!Skin2026", low)).toBe(true);
    expect(await verifyPassword("Glow!Skin2027", low)).toBe(false);
    expect(needsRehash(low, LOW_COST)).toBe(false);
    expect(needsRehash(low)).toBe(true);
    // A standard hash is never "upgraded" down to the low cost.
    expect(needsRehash(await hashPassword("Glow!Skin2026"), LOW_COST)).toBe(false);
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
  it("allows the limit in a window and refuses the next, until the window ends", async () => {
    let now = 0;
    const limiter = createMemoryRateLimiter(() => now);
    for (let i = 0; i < 5; i++) expect((await limiter.hit("ip", 5, 60_000)).limited).toBe(false);
    const sixth = await limiter.hit("ip", 5, 60_000);
    expect(sixth).toEqual({ limited: true, retryAfterSeconds: 60 });
    now = 60_000;
    expect((await limiter.hit("ip", 5, 60_000)).limited).toBe(false);
  });
});
