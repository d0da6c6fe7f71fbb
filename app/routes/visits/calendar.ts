import { data } from "react-router";
import { requireVisitAccess } from "#server/appointments/access.server";
import { accessCalendar, calendarResponse } from "#server/appointments/calendar.server";
import { siteOrigin } from "#server/site.server";
import type { Route } from "./+types/calendar";

/** A visit's calendar file, from the account or a manage link: the same event (UID) as its confirmation's. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const access = await requireVisitAccess(request, context, params);
  const ics = await accessCalendar(context.services, access, siteOrigin(request, context));
  if (!ics) throw data("We can't find that appointment's clinic.", { status: 404 });
  return calendarResponse(ics);
}
