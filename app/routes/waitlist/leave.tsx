import { data, href, Link } from "react-router";
import { leaveByLink } from "#server/waitlist/waitlist.server";
import type { Route } from "./+types/leave";

export const meta: Route.MetaFunction = () => [
  { title: "Leave the waitlist | Glow Clinic" },
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => ({
  "Cache-Control": "no-store",
  "Referrer-Policy": "no-referrer",
});

/**
 * The one-click leave link of every waitlist message (decision 058): the entry and what it held are
 * deleted at once. Leaving twice is the same as once; a forged or too old link changes nothing.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const left = await leaveByLink(context.services, params.token);
  return data({ kind: left.kind }, { status: left.kind === "invalid" ? 400 : 200 });
}

export default function WaitlistLeave({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === "invalid") {
    return (
      <section className="page narrow">
        <h1>This link doesn't work</h1>
        <p>
          It may be incomplete, or too old. Nothing was changed. Please open the link from the message again; a
          signed-in guest can also leave from their account.
        </p>
        <p>
          <Link to={href("/account/waitlist")}>Your waitlist</Link>
        </p>
      </section>
    );
  }
  return (
    <section className="page narrow">
      <h1>You've left the waitlist</h1>
      <p>
        {loaderData.kind === "left"
          ? "We won't send you any more messages about open times, and we've deleted the email or mobile number you gave us for it."
          : "You were no longer on it: there is nothing more to send you."}
      </p>
      <p>
        <Link to={href("/locations")}>Find a clinic and book</Link>
      </p>
    </section>
  );
}
