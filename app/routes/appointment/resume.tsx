import { data, Form, href, Link, redirect, useNavigation } from "react-router";
import { getDraft, setDraft } from "#server/booking/draft.server";
import { dropDraftHold } from "#server/booking/holds.server";
import { followRecoveryLink, viewRecoveryLink } from "#server/booking/recovery.server";
import { LINK_PAGE_HEADERS } from "#server/link-pages.server";
import { requestSession } from "#server/request-context.server";
import { guardAction, orUnavailable } from "#server/unavailable.server";
import type { Route } from "./+types/resume";

export const meta: Route.MetaFunction = () => [
  { title: "Pick up your booking | Glow Clinic" },
  { name: "robots", content: "noindex" },
];

/** The page's address holds the link's token. */
export const headers: Route.HeadersFunction = () => LINK_PAGE_HEADERS;

const INVALID = {
  kind: "invalid" as const,
  title: "This link can't be used",
  message:
    "The link is not one we sent, or more than a week has passed since we sent it. Nothing was changed. You can start a new booking at any time.",
};

/**
 * The link of the recovery message (decision 059): what it brings back, and a button to continue.
 * Reading the page changes nothing (a mail scanner may open links); the press restores the booking.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const view = await orUnavailable(() => viewRecoveryLink(context.services, params.token));
  if (view.kind === "invalid") return data(INVALID, { status: 404 });
  return {
    kind: "open" as const,
    clinic: view.center.name,
    treatment: view.service.displayName,
    addOns: view.addOns.map((a) => a.displayName),
  };
}

export const action = guardAction(async ({ params, context }: Route.ActionArgs) => {
  const outcome = await followRecoveryLink(context.services, params.token);
  if (outcome.kind === "invalid") return data(INVALID, { status: 404 });
  const session = requestSession(context);
  // The booking in progress, if any, gives way; a time it held is let go on our side.
  await dropDraftHold(context.services, getDraft(session));
  setDraft(session, outcome.draft);
  return redirect(href("/appointment/time"));
});

export default function ResumeBooking({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const page = actionData ?? loaderData;
  if (page.kind === "invalid") {
    return (
      <section className="page narrow">
        <h1>{page.title}</h1>
        <p role="alert">{page.message}</p>
        <p>
          <Link to={href("/locations")}>Find a clinic and book</Link>
        </p>
      </section>
    );
  }
  return (
    <section className="page narrow">
      <h1>Pick up where you left off</h1>
      <p>Your choices are kept:</p>
      <dl className="facts">
        <dt>Clinic</dt>
        <dd>{page.clinic}</dd>
        <dt>Treatment</dt>
        <dd>{page.treatment}</dd>
        {page.addOns.length > 0 ? (
          <>
            <dt>Add-ons</dt>
            <dd>{page.addOns.join(", ")}</dd>
          </>
        ) : null}
      </dl>
      <Form method="post">
        <button type="submit" disabled={navigation.state !== "idle"}>
          Continue to date and time
        </button>
      </Form>
    </section>
  );
}
