import { clickExpired } from "~/domain/attribution";
import { APPOINTMENT_STATUS } from "~/domain/appointments";
import { isReferralTreatment } from "~/domain/referrals";
import type { Services } from "../services";
import { errorReporter } from "../observability/error-reporter.server";
import { logger } from "../observability/logger.server";
import type { AffiliateDetails } from "../store/stores.server";

/**
 * Writes an affiliate's ad click for the user (the back end's guest) to impactAffiliateDetails: a
 * new record, or the new click id and its time when it differs (spec section 7). A failure is
 * reported to the error reporter and rethrown, as the spec says; callers on a customer's path
 * catch it, so a registration or a booking never fails for it.
 */
export async function recordAffiliateClick(
  services: Services,
  input: { guestId: string; email: string; click: { id: string; at: number } },
): Promise<void> {
  try {
    const outcome = await services.stores.affiliates.record({
      userId: input.guestId,
      userEmail: input.email,
      clickId: input.click.id,
      clickedAt: input.click.at,
    });
    logger.info("affiliate click recorded", { outcome });
  } catch (error) {
    errorReporter().captureException(error, { where: "affiliate-update" });
    throw error;
  }
}

/** The most records one reconciler pass asks the back end about. */
const CHECKS_PER_PASS = 20;
const CHECK_EVERY_MS = 60 * 60_000;

/**
 * Follows each open click to its end: `isFtTreatedTriggered` once the user's first treatment was
 * completed within the window, `isExpired` once the window ended without one.
 */
export async function reconcileAffiliates(services: Services, now = Date.now()): Promise<number> {
  const open = await services.stores.affiliates.listOpen(now - CHECK_EVERY_MS, CHECKS_PER_PASS);
  let changed = 0;
  for (const record of open) changed += (await settleAffiliate(services, record, now)) ? 1 : 0;
  return changed;
}

export async function settleAffiliate(
  services: Services,
  record: AffiliateDetails,
  now = Date.now(),
): Promise<boolean> {
  try {
    const visits = await services.spa.listGuestAppointments(record.user_id, { size: 100 });
    // The first treatment: the new-client signature facial, closed (a returning client has none to come).
    const treated = visits
      .flatMap((v) => v.services)
      .some((service) => service.status === APPOINTMENT_STATUS.CLOSED && isReferralTreatment(service.name));
    if (treated)
      await services.stores.affiliates.update(record.user_id, { isFtTreatedTriggered: true, checkedAt: now });
    else if (clickExpired(record.timestamp, now))
      await services.stores.affiliates.update(record.user_id, { isExpired: true, checkedAt: now });
    else await services.stores.affiliates.update(record.user_id, { checkedAt: now });
    return treated || clickExpired(record.timestamp, now);
  } catch (error) {
    errorReporter().captureException(error, { where: "affiliate-update" });
    // Asked again later, not first in line: one record that cannot be read never holds up the rest.
    await services.stores.affiliates.update(record.user_id, { checkedAt: now }).catch(() => undefined);
    return false;
  }
}
