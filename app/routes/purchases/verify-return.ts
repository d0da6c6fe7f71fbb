import { requireUser } from "#server/accounts/current-user.server";
import { ownPurchase } from "#server/purchases/access.server";
import { stepAnswer } from "./buy-answer.server";
import { verificationReturned } from "#server/purchases/purchase.server";
import { siteOrigin } from "#server/site.server";
import { orUnavailable } from "#server/unavailable.server";
import type { Route } from "./+types/verify-return";

/** Back from the bank's 3-D Secure check: the invoice says whether it was paid; nothing is charged here. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user } = await requireUser(request, context);
  await ownPurchase(context.services, params.id, user);
  const outcome = await orUnavailable(() =>
    verificationReturned(context.services, params.id, siteOrigin(request, context)),
  );
  return stepAnswer(outcome!);
}
