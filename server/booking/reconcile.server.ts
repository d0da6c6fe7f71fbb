import type { Services } from "../services";
import type { PeriodicPass } from "../jobs/periodic-passes.server";
import { logger } from "../observability/logger.server";
import { advanceAttempt, attemptTiming, type AttemptTiming } from "./payment-attempt.server";

/** An unfinished attempt idle this long has no guest waiting on it any more. */
export const RECONCILE_IDLE_MS = 5 * 60_000;
const RECONCILE_EVERY_MS = 60_000;
const BATCH = 20;

/**
 * Finishes or undoes payment attempts whose request died (a crash, a deploy, a lost connection
 * nobody retried): a paid or pay-in-clinic booking stands and its guest is told; an unpaid booking
 * at a prepaid clinic is removed; an unconfirmed hold is let go. Several instances may run it: each
 * attempt is taken over through its lease, so one instance works on it at a time.
 */
export async function reconcilePaymentAttempts(
  services: Services,
  options: { clock?: () => number; idleMs?: number; timing?: AttemptTiming } = {},
): Promise<number> {
  const clock = options.clock ?? Date.now;
  const timing = options.timing ?? attemptTiming(services);
  const now = clock();
  const stale = await services.stores.paymentAttempts.listStale(
    now,
    now - (options.idleMs ?? RECONCILE_IDLE_MS),
    BATCH,
  );
  let settled = 0;
  for (const candidate of stale) {
    const claim = await services.stores.paymentAttempts.claim(
      { ...candidate, leaseUntil: clock() + timing.leaseMs },
      clock(),
    );
    if (claim.state !== "claimed") continue;
    const outcome = await advanceAttempt({ services, timing, clock, mode: "reconcile" }, claim.attempt);
    logger.info("payment attempt reconciled", { outcome: outcome.kind });
    if (outcome.kind !== "pending") settled += 1;
  }
  return settled;
}

/** The payment attempts' pass: at start and then every minute, as the runner in `server/jobs/` runs every pass. */
export function paymentAttemptsPass(services: Services): PeriodicPass {
  return { name: "payment reconciliation", everyMs: RECONCILE_EVERY_MS, run: () => reconcilePaymentAttempts(services) };
}
