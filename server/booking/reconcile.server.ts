import type { Services } from "../context.server";
import { logger } from "../observability/logger.server";
import { purchaseStatus } from "../purchases/purchase.server";
import { isFinalPurchase } from "../store/stores.server";
import { advanceAttempt, attemptTiming, type AttemptTiming } from "./payment-attempt.server";
import { reconcileAffiliates } from "../referrals/affiliates.server";
import { reconcileReferrals } from "../referrals/referrals.server";

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
  const stale = await services.stores.paymentAttempts.listStale(now, now - (options.idleMs ?? RECONCILE_IDLE_MS), BATCH);
  let settled = 0;
  for (const candidate of stale) {
    const claim = await services.stores.paymentAttempts.claim({ ...candidate, leaseUntil: clock() + timing.leaseMs }, clock());
    if (claim.state !== "claimed") continue;
    const outcome = await advanceAttempt({ services, timing, clock, mode: "reconcile" }, claim.attempt);
    logger.info("payment attempt reconciled", { outcome: outcome.kind });
    if (outcome.kind !== "pending") settled += 1;
  }
  return settled;
}

/**
 * Finishes purchases (memberships, packages, gift cards) whose guest did not come back after paying:
 * the paid sale is closed (and a gift card sent) so what was bought exists; a charge whose answer was
 * lost is read from the invoice. Each is taken through its lease, as the purchase's page does.
 */
export async function reconcilePurchases(services: Services, options: { clock?: () => number; idleMs?: number } = {}): Promise<number> {
  const clock = options.clock ?? Date.now;
  const now = clock();
  const unfinished = await services.stores.purchases.listUnfinished(now, now - (options.idleMs ?? RECONCILE_IDLE_MS), BATCH);
  let finished = 0;
  for (const candidate of unfinished) {
    const purchase = await purchaseStatus(services, candidate.id, services.env.PUBLIC_URL ?? "http://localhost", clock);
    logger.info("purchase reconciled", { state: purchase?.state ?? "gone" });
    if (purchase && isFinalPurchase(purchase)) finished += 1;
  }
  return finished;
}

/** Runs the reconcilers (payments, purchases, referral rewards, affiliate clicks) at start and then every minute, until stopped. */
export function startPaymentReconciler(services: Services): { stop(): void } {
  const run = () =>
    Promise.all([
      reconcilePaymentAttempts(services).catch((error: Error) => logger.error("payment reconciliation failed", { error: error.message })),
      reconcilePurchases(services).catch((error: Error) => logger.error("purchase reconciliation failed", { error: error.message })),
      // Friends whose first facial may have been completed since, and ad clicks still open (a few each minute).
      reconcileReferrals(services).catch((error: Error) => logger.error("referral reconciliation failed", { error: error.message })),
      reconcileAffiliates(services).catch((error: Error) => logger.error("affiliate reconciliation failed", { error: error.message })),
    ]);
  void run();
  const timer = setInterval(run, RECONCILE_EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
