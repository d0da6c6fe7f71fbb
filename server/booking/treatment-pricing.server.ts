import { priceLines } from "~/domain/booking";
import type { TotalInputs } from "~/domain/booking-total";
import type { Center, Service } from "~/domain/catalog";
import type { PriceLine } from "~/domain/discounts";
import { isActiveMembership } from "~/domain/memberships";
import type { CurrentUser, Services } from "../services";
import { guestMembershipList } from "../guests/member-prices.server";
import { findService } from "./catalog-view.server";
import { pricingOf } from "./checkout.server";
import type { Draft } from "./draft.server";
import { draftAsPriced } from "./referral-offer.server";

/**
 * The draft as its prices see the guest before the details step names them: a signed-in guest's
 * own record (their member prices, their packages), as the payment step will have it.
 */
export function draftAsKnown(draft: Draft, user: CurrentUser | null): Draft {
  return draft.guestId || !user ? draft : { ...draft, guestId: user.guestId };
}

/**
 * What every choice of one treatment costs (decision 056): the treatment's line and one line per
 * option (add-ons, fixer, laser areas), and what the total depends on besides them, worked out as
 * the payment step's quote works it out for the draft this choice would make. `bookingTotal` of the
 * lines chosen is then that quote's total, on the server and in the browser, with no call per change.
 */
export type TreatmentPricing = { lines: PriceLine[]; inputs: TotalInputs };

export async function treatmentPricing(
  services: Services,
  input: {
    center: Center;
    catalog: Service[];
    draft: Draft;
    service: Service;
    user: CurrentUser | null;
    partnerType?: string;
    /** A package of the guest's pays for this treatment: the treatment step books it with a session. */
    packageSession: boolean;
  },
): Promise<TreatmentPricing> {
  const { center, catalog, draft, service } = input;
  const options = service.addOnIds.map((id) => findService(catalog, id)).filter((s): s is Service => Boolean(s));
  const lines = priceLines(service, options);
  // The draft choosing this treatment saves: another treatment starts its payment step afresh.
  const chosen: Draft = {
    ...draftAsKnown(draft, input.user),
    serviceId: service.id,
    addOnIds: options.map((o) => o.id),
    pkg: input.packageSession ? 1 : undefined,
    ...(service.id === draft.serviceId ? {} : { payKey: undefined }),
  };
  const priced = await draftAsPriced(services, chosen, { service, catalog, partnerType: input.partnerType });
  // The code is checked against every option: a rule that matches none of those chosen takes nothing off.
  const { inputs } = await pricingOf(services, center, priced, service, lines);
  return { lines, inputs };
}

/** Whether the guest holds an active membership: only a member is told what membership does not cover. */
export async function isMember(services: Services, guestId: string | undefined): Promise<boolean> {
  if (!guestId) return false;
  return (await guestMembershipList(services, guestId)).some((m) => isActiveMembership(m.status));
}
