import { useEffect, useRef, useState } from "react";
import { useRevalidator } from "react-router";
import { displayedExpiry, formatSlot } from "~/lib/dates";
import { firstLastSaid, holdWarningDue, holdWarningText } from "~/lib/hold-warnings";

export type HoldView = {
  /** "Mon Dec 7 @ 10:00 AM", in the clinic's time zone. */
  slotLabel: string;
  /** The expiry time as shown: rounded up to the next minute when its seconds exceed 5. */
  untilLabel: string;
  minutesLeft: number;
  expiresAt: string;
};

/** The banner's view of a hold on `slot` (clinic-local) until `expiresAt` (ISO), in the clinic's zone. */
export function holdViewOf(slot: string, expiresAt: string, timeZone: string, now = Date.now()): HoldView & { secondsLeft: number } {
  const secondsLeft = Math.max(0, Math.ceil((Date.parse(expiresAt) - now) / 1000));
  return {
    slotLabel: formatSlot(slot),
    untilLabel: displayedExpiry(expiresAt, timeZone).format("h:mm A"),
    minutesLeft: Math.max(1, Math.ceil(secondsLeft / 60)),
    expiresAt,
    secondsLeft,
  };
}

function remainingSeconds(expiresAt: string): number {
  return Math.max(0, Math.ceil((Date.parse(expiresAt) - Date.now()) / 1000));
}

/**
 * "Your previously selected slot ... is on hold": rendered by the server; with JavaScript a live
 * countdown, and at zero the page reloads its data so the server can send the visitor back.
 */
export function HoldBanner({ hold }: { hold: HoldView }) {
  const revalidator = useRevalidator();
  const [seconds, setSeconds] = useState<number | null>(null);
  // Two minutes and one minute before the end, said politely to screen readers (once each).
  const [warning, setWarning] = useState("");
  const lastSaid = useRef(Infinity);

  useEffect(() => {
    const start = remainingSeconds(hold.expiresAt);
    setSeconds(start);
    lastSaid.current = firstLastSaid(start);
    const timer = setInterval(() => {
      const left = remainingSeconds(hold.expiresAt);
      setSeconds(left);
      const due = holdWarningDue(left, lastSaid.current);
      if (due !== null) {
        lastSaid.current = due;
        setWarning(holdWarningText(due));
      }
      if (left <= 0) {
        clearInterval(timer);
        revalidator.revalidate();
      }
    }, 1000);
    return () => clearInterval(timer);
    // The revalidator object changes identity on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hold.expiresAt]);

  return (
    <section className="hold-banner" aria-label="Your reserved time" role="status">
      <p>
        Your previously selected slot, <strong>{hold.slotLabel}</strong>, is on hold for the next{" "}
        {hold.minutesLeft} {hold.minutesLeft === 1 ? "minute" : "minutes"}, until {hold.untilLabel}.
      </p>
      {seconds !== null ? (
        <p className="countdown-live" aria-live="off">
          Time left: {Math.floor(seconds / 60)}:{String(seconds % 60).padStart(2, "0")}
        </p>
      ) : null}
      <p className="visually-hidden" aria-live="polite">
        {warning}
      </p>
    </section>
  );
}
