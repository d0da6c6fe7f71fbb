import { HOLD_EXPIRED_MESSAGE } from "~/domain/booking";
import { PAYMENT_MESSAGES } from "~/domain/payment";
import { formatSlot } from "~/lib/dates";
import type { NotBooked } from "#server/booking/not-booked.server";

export type NotBookedView = Pick<NotBooked, "kind" | "resume"> & {
  title: string;
  /** "Tue Dec 1 @ 10:00 AM": the time that was let go, when known. */
  slotLabel: string | null;
};

const TITLES: Record<NotBooked["kind"], string> = {
  "payment-failed": PAYMENT_MESSAGES.failed,
  "hold-expired": HOLD_EXPIRED_MESSAGE,
  "not-finished": "We couldn't finish your booking",
};

/** The view of why a booking ended without an appointment. */
export function notBookedViewOf(notBooked: NotBooked): NotBookedView {
  return {
    kind: notBooked.kind,
    title: TITLES[notBooked.kind],
    slotLabel: notBooked.slot ? formatSlot(notBooked.slot) : null,
    resume: notBooked.resume,
  };
}

/**
 * What happened to the appointment and to the time, and what to do now, at the top of the step the
 * visitor was sent back to. It stays until they leave the page: rendered by the server, announced,
 * and where focus lands (`autofocus` without JavaScript, the page's focus-on-navigation with it).
 */
export function NotBookedNotice({ notice }: { notice: NotBookedView }) {
  const { kind, title, slotLabel, resume } = notice;
  return (
    <section
      className="not-booked"
      role="alert"
      aria-labelledby="not-booked-title"
      tabIndex={-1}
      autoFocus
      data-focus-on-arrival
    >
      <h2 id="not-booked-title">{title}</h2>
      <p>
        {kind === "hold-expired"
          ? "Nothing was booked and your card was not charged."
          : "Your card was not charged and your appointment was not booked: we removed it."}
      </p>
      <p>
        {slotLabel ? (
          <>
            The time you had chosen, <strong>{slotLabel}</strong>, was released
          </>
        ) : (
          "The time you had chosen was released"
        )}
        {kind === "hold-expired" ? " when its hold ran out" : ""}: it is no longer held for you.
      </p>
      <p>
        <strong>What to do now:</strong>{" "}
        {resume === "service"
          ? "Choose the treatment and a time again below to make a new booking"
          : "Your clinic, treatment and other choices are kept. Choose a time again below (the same one, if it is still free)"}
        {kind === "payment-failed" ? ", then pay with another card or ask your bank why the payment was refused." : "."}
      </p>
    </section>
  );
}
