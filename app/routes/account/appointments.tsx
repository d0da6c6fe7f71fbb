import { requireUser } from "#server/accounts/current-user.server";
import type { Route } from "./+types/appointments";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireUser(request, context);
  return { guestId: user.guestId };
}

export default function Page() {
  return <p>Appointments</p>;
}
