import { Form, href, Link, redirect } from "react-router";
import { firstOpenStep, getDraft, readSession, setDraft, commit } from "#server/booking/draft.server";
import { releaseDraftHold } from "#server/booking/holds.server";
import type { Route } from "./+types/cancel";

export const meta: Route.MetaFunction = () => [{ title: "Leave this booking? | Glow Clinic" }, { name: "robots", content: "noindex" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const draft = getDraft(await readSession(request, context.services));
  return { hasBooking: Boolean(draft), backTo: firstOpenStep(draft), held: Boolean(draft?.hold) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { services } = context;
  const session = await readSession(request, services);
  const draft = getDraft(session);
  await releaseDraftHold(services, draft);
  setDraft(session, null);
  session.flash("toast", { id: crypto.randomUUID(), type: "info", title: "Your booking was cancelled", description: draft?.hold ? "The time we held for you is free again." : undefined });
  return redirect(href("/"), { headers: await commit(services, session) });
}

export default function CancelBooking({ loaderData }: Route.ComponentProps) {
  const { hasBooking, backTo, held } = loaderData;
  if (!hasBooking) {
    return (
      <section className="narrow">
        <h1>There's no booking in progress</h1>
        <p>
          <Link className="button" to={href("/locations")}>
            Find a clinic
          </Link>
        </p>
      </section>
    );
  }
  return (
    <section className="narrow">
      <h1>Leave this booking?</h1>
      <p>{held ? "We'll release the time we're holding for you and forget your choices." : "We'll forget the choices you made so far."}</p>
      <Form method="post" className="actions">
        <button type="submit">Yes, cancel my booking</button>
        <Link className="button button-secondary" to={backTo}>
          No, keep booking
        </Link>
      </Form>
    </section>
  );
}
