import { describe, expect, it, vi } from "vitest";
import { createMemoryRateLimiter, type RateLimiter } from "../accounts/rate-limit.server";
import { unreachableRedisRateLimiter } from "../accounts/redis-rate-limit.test-support";
import { logger } from "../observability/logger.server";
import {
  clearSignInFailures,
  consume,
  enforceLimit,
  LIMITS,
  LIVE_HOLDS,
  WAITLIST_ENTRIES_PER_CONTACT,
  type LimitName,
  type LimitParts,
} from "./policy.server";

const START = Date.parse("2026-11-02T10:00:00Z");

function setup() {
  let now = START;
  const rateLimiter = createMemoryRateLimiter(() => now);
  return { services: { rateLimiter }, advance: (ms: number) => (now += ms) };
}

/** One attempt's parts for every limit: a limit added to the table without one here does not compile. */
const SAMPLE: { [Name in LimitName]: LimitParts<Name> } = {
  signIn: { email: "owner@example.com", ip: "203.0.113.9" },
  codeSend: { to: "owner@example.com", ip: "203.0.113.9" },
  codeResend: { to: "owner@example.com" },
  codeCheck: { ip: "203.0.113.9" },
  registration: { ip: "203.0.113.9" },
  bookingDetails: { ip: "203.0.113.9" },
  giftCardBalance: { ip: "203.0.113.9" },
  promoCode: { bookingId: "booking-1", ip: "203.0.113.9" },
  linkedPromoCode: { ip: "203.0.113.9" },
  holdAttempt: { ip: "203.0.113.9", bookingId: "booking-1" },
  newGuest: { ip: "203.0.113.9" },
  waitlistJoin: { ip: "203.0.113.9" },
};

const NAMES = Object.keys(LIMITS) as LimitName[];

type AnyParts = Record<string, string>;
type AnyCounter = { points: number; windowMs: number; key: (parts: AnyParts) => string };
const countersOf = (name: LimitName) => LIMITS[name].counters as unknown as ReadonlyArray<AnyCounter>;

/**
 * The parts of attempt `n` aimed at one counter: the parts its key is made of stay as in the
 * sample, every other part is new each time, so the other counters of the limit see one attempt each.
 */
function aimedAt(counter: AnyCounter, sample: AnyParts, n: number): AnyParts {
  const parts: AnyParts = {};
  for (const [field, value] of Object.entries(sample)) {
    const partOfKey = counter.key({ ...sample, [field]: `${value}-changed` }) !== counter.key(sample);
    parts[field] = partOfKey ? value : `${value}-${n}`;
  }
  return parts;
}

const consumeAny = (services: { rateLimiter: RateLimiter }, name: LimitName, parts: AnyParts) =>
  consume(services, name, parts as never);

describe("the limits policy", () => {
  for (const name of NAMES) {
    countersOf(name).forEach((counter, index) => {
      it(`${name}: counter ${index + 1} refuses after its ${counter.points} tries on one key, and not another key`, async () => {
        const { services } = setup();
        const sample = SAMPLE[name] as AnyParts;
        for (let n = 0; n < counter.points; n++)
          expect(await consumeAny(services, name, aimedAt(counter, sample, n))).toEqual({ ok: true });
        const refused = await consumeAny(services, name, aimedAt(counter, sample, counter.points));
        const retryAfterSeconds = counter.windowMs / 1000;
        expect(refused).toEqual({
          ok: false,
          limit: name,
          retryAfterSeconds,
          message: LIMITS[name].message(retryAfterSeconds),
        });
        const elsewhere = Object.fromEntries(
          Object.entries(sample).map(([field, value]) => [field, `${value}-elsewhere`]),
        );
        expect(await consumeAny(services, name, elsewhere)).toEqual({ ok: true });
      });
    });

    it(`${name}: lets the same key try again once its window has passed`, async () => {
      const { services, advance } = setup();
      const longest = Math.max(...countersOf(name).map((counter) => counter.windowMs));
      const most = Math.max(...countersOf(name).map((counter) => counter.points));
      for (let n = 0; n <= most; n++) await consume(services, name, SAMPLE[name] as never);
      expect((await consume(services, name, SAMPLE[name] as never)).ok).toBe(false);
      advance(longest);
      expect(await consume(services, name, SAMPLE[name] as never)).toEqual({ ok: true });
    });
  }

  it("keeps the keys the counters have always had, so counts kept in Redis carry over", async () => {
    const keys: string[] = [];
    const memory = createMemoryRateLimiter(() => START);
    const rateLimiter: RateLimiter = { ...memory, hit: (key, ...rest) => (keys.push(key), memory.hit(key, ...rest)) };
    for (const name of NAMES) await consume({ rateLimiter }, name, SAMPLE[name] as never);
    expect(keys).toEqual([
      "login-pair:owner@example.com|203.0.113.9",
      "login-ip:203.0.113.9",
      "login-account:owner@example.com",
      "code-send-ip:203.0.113.9",
      "code-send:owner@example.com",
      "code-send:owner@example.com",
      "code-check-ip:203.0.113.9",
      "register-ip:203.0.113.9",
      "details-ip:203.0.113.9",
      "gift-balance:203.0.113.9",
      "promo-booking:booking-1",
      "promo-ip:203.0.113.9",
      "promo-ip:203.0.113.9",
      "hold-ip:203.0.113.9",
      "hold-booking:booking-1",
      "hold-guest-ip:203.0.113.9",
      "waitlist-ip:203.0.113.9",
    ]);
    expect(LIVE_HOLDS.key({ ip: "203.0.113.9" })).toMatch(/^live-holds:[A-Za-z0-9_-]{22}$/);
    expect(LIVE_HOLDS.key({ ip: "203.0.113.9" })).not.toContain("203.0.113.9");
  });

  it("keeps the numbers of decisions 009 and 028: tries per window, and which limits refuse during an outage", () => {
    const table = Object.fromEntries(
      NAMES.map((name) => [
        name,
        {
          counters: countersOf(name).map((c) => `${c.points}/${c.windowMs / 60_000}min`),
          failClosed: LIMITS[name].failClosed,
        },
      ]),
    );
    expect(table).toEqual({
      signIn: { counters: ["5/15min", "20/10min", "100/60min"], failClosed: true },
      codeSend: { counters: ["10/10min", "3/10min"], failClosed: false },
      codeResend: { counters: ["3/10min"], failClosed: false },
      codeCheck: { counters: ["20/10min"], failClosed: true },
      registration: { counters: ["10/10min"], failClosed: false },
      bookingDetails: { counters: ["30/10min"], failClosed: false },
      giftCardBalance: { counters: ["10/10min"], failClosed: true },
      promoCode: { counters: ["5/10min", "20/60min"], failClosed: true },
      linkedPromoCode: { counters: ["20/60min"], failClosed: true },
      holdAttempt: { counters: ["10/1min", "10/1min"], failClosed: false },
      newGuest: { counters: ["5/10min"], failClosed: false },
      waitlistJoin: { counters: ["10/60min"], failClosed: false },
    });
    expect(LIVE_HOLDS.places).toBe(3);
    expect(WAITLIST_ENTRIES_PER_CONTACT).toBe(3);
    expect(LIVE_HOLDS.lifetimeMs).toBe(10 * 60_000);
  });

  it("says what each refusal means, in seconds or minutes as the window suits", () => {
    expect(LIMITS.signIn.message(900)).toBe("Too many attempts. Please wait 900 seconds and try again.");
    expect(LIMITS.codeSend.message(600)).toBe("Too many attempts. Please wait 600 seconds and try again.");
    expect(LIMITS.giftCardBalance.message(61)).toBe("Too many balance checks. Please wait 2 minutes and try again.");
    expect(LIMITS.promoCode.message(30)).toBe("Too many promo codes tried. Please wait 1 minute and try again.");
    expect(LIMITS.waitlistJoin.message(600)).toBe("Too many waitlist requests. Please wait 10 minutes and try again.");
    expect(LIMITS.newGuest.message(600)).toBe(
      "Too many times are on hold from your network right now. Please finish or cancel a booking in progress, or try again in 10 minutes.",
    );
  });

  it("counts a code sent and a code sent again on one recipient's count, whatever the case of the address", async () => {
    const { services } = setup();
    await consume(services, "codeSend", { to: "Owner@Example.com", ip: "203.0.113.9" });
    await consume(services, "codeResend", { to: "owner@example.com" });
    await consume(services, "codeSend", { to: "owner@example.com", ip: "198.51.100.4" });
    expect((await consume(services, "codeResend", { to: "OWNER@example.com" })).ok).toBe(false);
  });

  it("counts a linked promo code on the address's tries of typed ones", async () => {
    const { services } = setup();
    for (let n = 0; n < 20; n++)
      expect((await consume(services, "linkedPromoCode", { ip: "203.0.113.9" })).ok).toBe(true);
    expect((await consume(services, "promoCode", { bookingId: "fresh", ip: "203.0.113.9" })).ok).toBe(false);
  });

  describe("sign-in", () => {
    const OWNER = "owner@example.com";

    it("lets the owner in from another address after a stranger's failures", async () => {
      const { services } = setup();
      for (let n = 0; n < 8; n++) await consume(services, "signIn", { email: OWNER, ip: "203.0.113.9" });
      expect(await consume(services, "signIn", { email: OWNER, ip: "198.51.100.4" })).toEqual({ ok: true });
    });

    it("treats the account's address in any case as one account", async () => {
      const { services } = setup();
      for (let n = 0; n < 5; n++) await consume(services, "signIn", { email: OWNER, ip: "203.0.113.9" });
      expect((await consume(services, "signIn", { email: " Owner@Example.com", ip: "203.0.113.9" })).ok).toBe(false);
    });

    it("clears an address's failures on the account when the right password comes, not the address's total", async () => {
      const { services } = setup();
      for (let n = 0; n < 4; n++) await consume(services, "signIn", { email: OWNER, ip: "203.0.113.9" });
      await clearSignInFailures(services, { email: OWNER, ip: "203.0.113.9" });
      for (let n = 0; n < 5; n++)
        expect((await consume(services, "signIn", { email: OWNER, ip: "203.0.113.9" })).ok).toBe(true);
      // 4 + 5 tries from the address so far; 11 more on other accounts reach its 20.
      for (let n = 0; n < 11; n++)
        expect((await consume(services, "signIn", { email: `person${n}@example.com`, ip: "203.0.113.9" })).ok).toBe(
          true,
        );
      expect((await consume(services, "signIn", { email: "someone@example.com", ip: "203.0.113.9" })).ok).toBe(false);
    });
  });

  it("answers a refusal with a 429, Retry-After and the limit's message", async () => {
    const { services } = setup();
    for (let n = 0; n < 3; n++) await enforceLimit(services, "codeResend", { to: "ana@example.com" });
    const thrown = await enforceLimit(services, "codeResend", { to: "ana@example.com" }).then(
      () => null,
      (error: unknown) => error as { data: unknown; init: ResponseInit },
    );
    expect(thrown?.init.status).toBe(429);
    expect(new Headers(thrown?.init.headers).get("Retry-After")).toBe("600");
    expect(thrown?.data).toEqual({
      rateLimited: true,
      message: "Too many attempts. Please wait 600 seconds and try again.",
    });
  });

  it("refuses the limits that guard a secret, and lets the others through, while the shared counters cannot be reached", async () => {
    vi.spyOn(logger, "error").mockImplementation(() => {});
    const rateLimiter = await unreachableRedisRateLimiter();
    try {
      const refused: LimitName[] = [];
      for (const name of NAMES) {
        const outcome = await consume({ rateLimiter }, name, SAMPLE[name] as never);
        if (!outcome.ok) {
          expect(outcome.retryAfterSeconds).toBe(30);
          refused.push(name);
        }
      }
      expect(refused).toEqual(["signIn", "codeCheck", "giftCardBalance", "promoCode", "linkedPromoCode"]);
      await expect(clearSignInFailures({ rateLimiter }, SAMPLE.signIn)).resolves.toBeUndefined();
    } finally {
      await rateLimiter.close();
      vi.restoreAllMocks();
    }
  });
});
