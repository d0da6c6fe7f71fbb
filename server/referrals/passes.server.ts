import type { Services } from "../services";
import type { PeriodicPass } from "../jobs/periodic-passes.server";
import { reconcileAffiliates } from "./affiliates.server";
import { reconcileReferrals } from "./referrals.server";

/** Each pass asks about a few records a minute; a record is asked about again an hour later at the soonest. */
const PASS_EVERY_MS = 60_000;

/** Friends whose first facial may have been closed since, and reward credits not yet accepted (decisions 032, 038). */
export function referralRewardsPass(services: Services): PeriodicPass {
  return { name: "referral reconciliation", everyMs: PASS_EVERY_MS, run: () => reconcileReferrals(services) };
}

/** Ad clicks still open: treated within their window, or expired (decision 032). */
export function affiliateClicksPass(services: Services): PeriodicPass {
  return { name: "affiliate reconciliation", everyMs: PASS_EVERY_MS, run: () => reconcileAffiliates(services) };
}
