import { Form, href } from "react-router";
import { ButtonLink, ButtonLinkForm } from "~/components/button-link";
import { firstOpenStep, getDraft, setDraft } from "#server/booking/draft.server";
import { dropDraftHold } from "#server/booking/holds.server";
import { forgetRecoveryOfDraft } from "#server/booking/recovery.server";
import { requestSession } from "#server/request-context.server";
import { redirectWithToast } from "#server/toast.server";
import { guardAction } from "#server/unavailable.server";
import type { Route } from "./+types/cancel";

export const meta: Route.MetaFunction = () => [
  { title: "Leave this booking? | Glow Clinic" },
  { name: "robots", content: "noindex" },
];

export async function loader({ context }: Route.LoaderArgs) {
  const draft = getDraft(requestSession(context));
  return { hasBooking: Boolean(draft), backTo: firstOpenStep(draft), held: Boolean(draft?.hold) };
}

export const action = guardAction(async ({ context }: Route.ActionArgs) => {
  const session = requestSession(context);
  const draft = getDraft(session);
  await dropDraftHold(context.services, draft);
  // Left on purpose: no message about it.
  await forgetRecoveryOfDraft(context.services, draft);
  setDraft(session, null);
  return redirectWithToast(context, href("/"), {
    type: "info",
    title: "Your booking was cancelled",
    description: draft?.hold
      ? "The time we held for you is let go; others can book it once its hold runs out."
      : undefined,
  });
});

export default function CancelBooking({ loaderData }: Route.ComponentProps) {
  const { hasBooking, backTo, held } = loaderData;
  if (!hasBooking) {
    return (
      <section className="narrow">
        <h1>There's no booking in progress</h1>
        <div className="button-row">
          <ButtonLink className="button" to={href("/locations")}>
            Find a clinic
          </ButtonLink>
        </div>
      </section>
    );
  }
  return (
    <section className="narrow">
      <h1>Leave this booking?</h1>
      <p>
        {held
          ? "We'll release the time we're holding for you and forget your choices."
          : "We'll forget the choices you made so far."}
      </p>
      {/* "No, keep booking" sits beside the cancel button, in its form; forms do not nest, so its own form is here. */}
      <ButtonLinkForm id="keep-booking" to={backTo} />
      <Form method="post" className="actions">
        <button type="submit">Yes, cancel my booking</button>
        <button type="submit" form="keep-booking" className="button button-secondary">
          No, keep booking
        </button>
      </Form>
    </section>
  );
}
