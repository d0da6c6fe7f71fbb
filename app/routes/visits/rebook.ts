import { requireVisitAccess } from "#server/appointments/access.server";
import { rebookVisit } from "#server/booking/rebook.server";
import { getDraft, setDraft } from "#server/booking/draft.server";
import { requestSession } from "#server/request-context.server";
import { redirectWithToast } from "#server/toast.server";
import { orUnavailable } from "#server/unavailable.server";
import { redirect } from "react-router";
import type { Route } from "./+types/rebook";

/**
 * "Book again": a link, so it works without JavaScript. It starts a booking like the visit and
 * opens the journey at the time step; it books nothing by itself.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const access = await requireVisitAccess(request, context, params);
  const session = requestSession(context);
  const outcome = await orUnavailable(() => rebookVisit(context.services, access, getDraft(session)));
  if (outcome.kind === "clinic-gone")
    return redirectWithToast(context, outcome.to, { type: "info", title: outcome.message });
  setDraft(session, outcome.draft);
  if (outcome.kind === "choose-service")
    return redirectWithToast(context, outcome.to, { type: "info", title: outcome.message });
  return redirect(outcome.to);
}
