import type { Services } from "../context.server";
import { logger } from "./logger.server";

export type CheckResult = "ok" | "failing" | "not configured";
export type Readiness = {
  ready: boolean;
  checks: { backEnd: CheckResult; store: CheckResult; sharedCounters: CheckResult };
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

/**
 * Whether this instance can serve customers: the spa back end answers (through the catalog cache,
 * so a warm instance costs Zenoti no call: every call counts against the organisation's limit), the
 * store of our own records answers a read, and the shared counters (Redis) answer when configured.
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
  return {
    ready: backEnd === "ok" && store === "ok" && sharedCounters !== "failing",
    checks: { backEnd, store, sharedCounters },
    clinicsWithoutTimeZone: refused.map((clinic) => ({
      id: clinic.id,
      name: clinic.name,
      set: clinic.zoneId === null ? `SPA_CENTER_TIME_ZONES=${clinic.id}=<IANA zone>` : `SPA_TIME_ZONE_IDS=${clinic.zoneId}=<IANA zone>`,
    })),
  };
}
