import { data } from "react-router";
import { requireVisitAccess } from "#server/appointments/access.server";
import type { Route } from "./+types/rebook";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireVisitAccess(request, context, params);
  throw data("Not built yet", { status: 404 });
}
