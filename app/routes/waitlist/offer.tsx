import { data, href, Link, redirect } from "react-router";
import { getDraft, setDraft } from "#server/booking/draft.server";
import { dropDraftHold } from "#server/booking/holds.server";
import { requestSession } from "#server/request-context.server";
import { orUnavailable } from "#server/unavailable.server";
import { followOffer } from "#server/waitlist/waitlist.server";
import type { Route } from "./+types/offer";

export const meta: Route.MetaFunction = () => [
  { title: "A time from the waitlist | Glow Clinic" },
  { name: "robots", content: "noindex" },
];

/** The page answers with no cache and names no referrer: the link's token is the guest's. */
export const headers: Route.HeadersFunction = () => ({
  "Cache-Control": "no-store",
  "Referrer-Policy": "no-referrer",
});

/**
 * The link of a waitlist's message (decision 058). The time still open: the booking starts on it
 * (the entry's treatment, add-ons and nurse, that day) and the time step opens with it offered
 * first; the first guest to book it gets it. Gone, or the entry ended, or a link forged or too
 * old: a page that says so, and nothing changed.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { services } = context;
  const offer = await orUnavailable(() => followOffer(services, params.token));
  switch (offer.kind) {
    case "invalid":
      return data({ kind: "invalid" as const }, { status: 400 });
    case "ended":
      return data({ kind: "ended" as const }, { status: 410 });
    case "gone":
      return data(
        {
          kind: "gone" as const,
          when: offer.when,
          leave: href("/waitlist/leave/:token", {
            token: services.waitlistLinks.leave(offer.entry.id, offer.entry.expiresAt),
          }),
        },
        { status: 410 },
      );
    case "open": {
      const { entry, slot } = offer;
      const session = requestSession(context);
      // A booking under way in this browser gives way to the offered one; its hold is let go.
      await dropDraftHold(services, getDraft(session));
      setDraft(session, {
        centerId: entry.centerId,
        serviceId: entry.serviceId,
        addOnIds: entry.addOnIds,
        therapistId: entry.therapistId,
        date: slot.slice(0, 10),
      });
      throw redirect(`${href("/appointment/time")}?date=${slot.slice(0, 10)}&group=all&opened=${slot.slice(11, 19)}`);
    }
  }
}

export default function WaitlistOffer({ loaderData }: Route.ComponentProps) {
  switch (loaderData.kind) {
    case "invalid":
      return (
        <section className="page narrow">
          <h1>This link doesn't work</h1>
          <p>
            It may be incomplete, or too old. Nothing was changed. Please open the link from the message again, or
            choose a time yourself.
          </p>
          <p>
            <Link to={href("/locations")}>Find a clinic and book</Link>
          </p>
        </section>
      );
    case "ended":
      return (
        <section className="page narrow">
          <h1>You're no longer on this waitlist</h1>
          <p>You booked a time, left the waitlist, or its last day has passed. Nothing was changed.</p>
          <p>
            <Link to={href("/locations")}>Find a clinic and book</Link>
          </p>
        </section>
      );
    case "gone":
      return (
        <section className="page narrow">
          <h1>That time has gone</h1>
          <p>
            Another guest booked {loaderData.when} first. You're still on the waitlist: we'll tell you when another time
            opens.
          </p>
          <p>
            <Link to={href("/locations")}>Choose another time yourself</Link>
          </p>
          <p>
            <Link to={loaderData.leave}>Leave the waitlist</Link>
          </p>
        </section>
      );
  }
}
