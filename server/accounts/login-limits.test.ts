import { describe, expect, it } from "vitest";
import { countLoginAttempt, LOGIN_LIMITS, loginSucceeded } from "./login-limits.server";
import { createMemoryRateLimiter } from "./rate-limit.server";

function setup() {
  let now = Date.parse("2026-11-02T10:00:00Z");
  const limiter = createMemoryRateLimiter(() => now);
  const attempt = (email: string, ip: string) => countLoginAttempt(limiter, email, ip).limited;
  return { limiter, attempt, advance: (ms: number) => (now += ms) };
}

const OWNER = "owner@example.com";

describe("sign-in limits", () => {
  it("stops the sixth try from one address on one account", () => {
    const { attempt } = setup();
    for (let i = 0; i < 5; i++) expect(attempt(OWNER, "203.0.113.9")).toBe(false);
    expect(attempt(OWNER, "203.0.113.9")).toBe(true);
  });

  it("lets the owner in from another address after a stranger's failures", () => {
    const { attempt } = setup();
    for (let i = 0; i < 8; i++) attempt(OWNER, "203.0.113.9");
    expect(attempt(OWNER, "198.51.100.4")).toBe(false);
  });

  it("treats the account's address in any case as one account", () => {
    const { attempt } = setup();
    for (let i = 0; i < 5; i++) attempt(OWNER, "203.0.113.9");
    expect(attempt("Owner@Example.com", "203.0.113.9")).toBe(true);
  });

  it("clears an address's failures on the account when the right password comes", () => {
    const { limiter, attempt } = setup();
    for (let i = 0; i < 4; i++) attempt(OWNER, "203.0.113.9");
    loginSucceeded(limiter, OWNER, "203.0.113.9");
    for (let i = 0; i < 5; i++) expect(attempt(OWNER, "203.0.113.9")).toBe(false);
  });

  it("lets the address try again once the window has passed", () => {
    const { attempt, advance } = setup();
    for (let i = 0; i < 6; i++) attempt(OWNER, "203.0.113.9");
    advance(LOGIN_LIMITS.perAccountAndAddress.windowMs);
    expect(attempt(OWNER, "203.0.113.9")).toBe(false);
  });

  it("stops one address trying many accounts", () => {
    const { attempt } = setup();
    const limited = Array.from({ length: 21 }, (_, i) => attempt(`person${i}@example.com`, "203.0.113.9"));
    expect(limited.slice(0, 20)).not.toContain(true);
    expect(limited[20]).toBe(true);
    expect(attempt("someone.else@example.com", "198.51.100.4")).toBe(false);
  });

  it("has a high ceiling per account for guesses spread over many addresses", () => {
    const { attempt } = setup();
    const limited = Array.from({ length: 101 }, (_, i) => attempt(OWNER, `10.0.${Math.floor(i / 250)}.${i % 250}`));
    expect(limited.slice(0, 100)).not.toContain(true);
    expect(limited[100]).toBe(true);
  });

  it("says how long to wait", () => {
    const { limiter } = setup();
    for (let i = 0; i < 5; i++) countLoginAttempt(limiter, OWNER, "203.0.113.9");
    expect(countLoginAttempt(limiter, OWNER, "203.0.113.9")).toEqual({ limited: true, retryAfterSeconds: 15 * 60 });
  });
});
