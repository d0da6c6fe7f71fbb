import { requireUser } from "#server/accounts/current-user.server";
import { ownPurchase } from "#server/purchases/access.server";
import { stepAnswer } from "./buy-answer.server";
import { cardReturned } from "#server/purchases/purchase.server";
import { siteOrigin } from "#server/site.server";
import { orUnavailable } from "#server/unavailable.server";
import type { Route } from "./+types/card-return";

/**
 * Where the hosted card page sends the guest back: the card saved there is charged, once (a reload
 * of this address finds the purchase past this step and shows where it stands).
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user } = await requireUser(request, context);
  await ownPurchase(context.services, params.id, user);
  const status = new URL(request.url).searchParams.get("status");
  const outcome = await orUnavailable(() =>
    cardReturned(context.services, params.id, status, siteOrigin(request, context)),
  );
  return stepAnswer(outcome!);
}
