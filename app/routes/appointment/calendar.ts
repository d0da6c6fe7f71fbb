import { loadConfirmationCalendar } from "#server/booking/confirmation.server";
import { calendarResponse } from "#server/appointments/calendar.server";
import { siteOrigin } from "#server/site.server";
import type { Route } from "./+types/calendar";

/** The booking just made as an iCalendar file: the same event (UID) as the account's and the manage link's. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  return calendarResponse(await loadConfirmationCalendar(context, params.appointmentId, siteOrigin(request, context)));
}
