import type { Services } from "../services";
import type { PeriodicPass } from "../jobs/periodic-passes.server";
import { logger } from "../observability/logger.server";
import { isFinalPurchase } from "../store/stores.server";
import { purchaseStatus } from "./purchase.server";

/** An unfinished purchase idle this long has no guest waiting on it any more. */
const RECONCILE_IDLE_MS = 5 * 60_000;
const RECONCILE_EVERY_MS = 60_000;
const BATCH = 20;

/**
 * Finishes purchases (memberships, packages, gift cards) whose guest did not come back after paying:
 * the paid sale is closed (and a gift card sent) so what was bought exists; a charge whose answer was
 * lost is read from the invoice. Each is taken through its lease, as the purchase's page does, so
 * several instances may run it.
 */
export async function reconcilePurchases(
  services: Services,
  options: { clock?: () => number; idleMs?: number } = {},
): Promise<number> {
  const clock = options.clock ?? Date.now;
  const now = clock();
  const unfinished = await services.stores.purchases.listUnfinished(
    now,
    now - (options.idleMs ?? RECONCILE_IDLE_MS),
    BATCH,
  );
  let finished = 0;
  for (const candidate of unfinished) {
    const purchase = await purchaseStatus(services, candidate.id, services.env.PUBLIC_URL ?? "http://localhost", clock);
    logger.info("purchase reconciled", { state: purchase?.state ?? "gone" });
    if (purchase && isFinalPurchase(purchase)) finished += 1;
  }
  return finished;
}

/** The unfinished purchases' pass: at start and then every minute (decision 031). */
export function unfinishedPurchasesPass(services: Services): PeriodicPass {
  return { name: "purchase reconciliation", everyMs: RECONCILE_EVERY_MS, run: () => reconcilePurchases(services) };
}
