import { requireVisitAccess } from "#server/appointments/access.server";
import type { Route } from "./+types/manage";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const access = await requireVisitAccess(request, context, params);
  return { visitId: access.visit.id };
}

export default function Page({ loaderData }: Route.ComponentProps) {
  return <p>{loaderData.visitId}</p>;
}
