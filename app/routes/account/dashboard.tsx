import { href, Link } from "react-router";
import { ErrorMessage } from "~/components/error-message";
import { requireUser } from "#server/accounts/current-user.server";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = () => [{ title: "Your account | Glow Clinic" }, { name: "robots", content: "noindex" }];

/** The account's home: what a signed-in guest can do today. The appointments list comes next. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireUser(request, context);
  return { email: user.email, homeClinicId: user.centerId || null };
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { email, homeClinicId } = loaderData;
  return (
    <section className="page narrow">
      <h1>Your account</h1>
      <p>Signed in as {email}. Your booking confirmations come by email and text.</p>
      <ul className="actions-list">
        <li>
          <Link to={href("/account/profile")}>Your profile</Link>: name, phone, address, message choices and password.
        </li>
        <li>
          {homeClinicId ? (
            <Link to={`${href("/appointment/service")}?id=${encodeURIComponent(homeClinicId)}`}>Book at your home clinic</Link>
          ) : (
            <Link to={href("/locations")}>Book a treatment</Link>
          )}{" "}
          or <Link to={href("/locations")}>find another clinic</Link>.
        </li>
      </ul>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorMessage error={error} />;
}
