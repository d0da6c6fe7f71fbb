import type { Services } from "../services";
import { logger } from "./logger.server";

export type CheckResult = "ok" | "failing" | "not configured";

/** Something failing that the instance serves without: named, with what customers notice. */
export type Degradation = { dependency: "redis"; check: "sharedCounters"; effect: string };

export type Readiness = {
  /** Whether the instance should get traffic: it can serve pages and bookings. */
  ready: boolean;
  /** "ok"; "degraded": ready, with what does not work named in `degraded`; "unavailable": not ready. */
  status: "ok" | "degraded" | "unavailable";
  checks: { backEnd: CheckResult; store: CheckResult; sharedCounters: CheckResult };
  degraded: Degradation[];
  /**
   * Clinics refused for want of a time zone (decision 035), each with what to set. The instance
   * stays ready: the other clinics are served, and these say online booking is unavailable.
   */
  clinicsWithoutTimeZone: { id: string; name: string; set: string }[];
};

/** A check that has not answered in this long counts as failing: a load balancer's probe must not hang. */
export const READINESS_CHECK_TIMEOUT_MS = 2_000;

async function check(name: string, run: () => Promise<unknown>, timeoutMs: number): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      run(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error("timed out")), timeoutMs);
      }),
    ]);
    return "ok";
  } catch (error) {
    logger.warn("readiness check failing", { check: name, reason: (error as Error).message.slice(0, 120) });
    return "failing";
  } finally {
    clearTimeout(timer);
  }
}

/** What a Redis outage does to customers (decision 028: the limits that guard secrets fail closed). */
export const REDIS_DOWN_EFFECT =
  "sign-in, one-time code checks and promo codes are refused until Redis answers; browsing and booking go on";

/**
 * Whether this instance can serve customers: the spa back end answers (through the catalog cache,
 * so a warm instance costs Zenoti no call: every call counts against the organisation's limit) and
 * the store of our own records answers a read. The shared counters (Redis, when configured) failing
 * leave it ready but "degraded" (decision 041): every instance shares that Redis, so taking
 * instances out for it would take the whole site down while its pages still work.
 */
export async function checkReadiness(
  services: Pick<Services, "catalog" | "stores" | "rateLimiter">,
  timeoutMs = READINESS_CHECK_TIMEOUT_MS,
): Promise<Readiness> {
  const limiter = services.rateLimiter;
  const [backEnd, store, sharedCounters] = await Promise.all([
    check("back end", () => services.catalog.listCenters(), timeoutMs),
    check("store", () => services.stores.ping(), timeoutMs),
    limiter.kind === "redis"
      ? check(
          "shared counters",
          async () => {
            if (!(await limiter.ready())) throw new Error("no answer");
          },
          timeoutMs,
        )
      : Promise.resolve<CheckResult>("not configured"),
  ]);
  const refused = backEnd === "ok" ? await services.catalog.clinicsWithoutTimeZone().catch(() => []) : [];
  const ready = backEnd === "ok" && store === "ok";
  const degraded: Degradation[] =
    sharedCounters === "failing" ? [{ dependency: "redis", check: "sharedCounters", effect: REDIS_DOWN_EFFECT }] : [];
  return {
    ready,
    status: !ready ? "unavailable" : degraded.length > 0 ? "degraded" : "ok",
    checks: { backEnd, store, sharedCounters },
    degraded,
    clinicsWithoutTimeZone: refused.map((clinic) => ({
      id: clinic.id,
      name: clinic.name,
      set:
        clinic.zoneId === null
          ? `SPA_CENTER_TIME_ZONES=${clinic.id}=<IANA zone>`
          : `SPA_TIME_ZONE_IDS=${clinic.zoneId}=<IANA zone>`,
    })),
  };
}
