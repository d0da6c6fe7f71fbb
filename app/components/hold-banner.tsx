import { useEffect, useRef, useState } from "react";
import { useRevalidator } from "react-router";
import { expiryClock, formatSlot } from "~/lib/dates";
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
export function holdViewOf(
  slot: string,
  expiresAt: string,
  timeZone: string,
  now = Date.now(),
): HoldView & { secondsLeft: number } {
  const secondsLeft = Math.max(0, Math.ceil((Date.parse(expiresAt) - now) / 1000));
  return {
    slotLabel: formatSlot(slot),
    untilLabel: expiryClock(expiresAt, timeZone),
    minutesLeft: Math.max(1, Math.ceil(secondsLeft / 60)),
    expiresAt,
    secondsLeft,
  };
}

function remainingSeconds(expiresAt: string): number {
  return Math.max(0, Math.ceil((Date.parse(expiresAt) - Date.now()) / 1000));
}

export type HoldCountdownState = {
  /** Seconds left, or null until the browser counts (the server renders none). */
  seconds: number | null;
  /** The polite warning said last, two minutes and one minute before the end. */
  warning: string;
};

/**
 * The live countdown of a hold ending at `expiresAt` (none when null); at zero the page reloads its
 * data so the server can send the visitor back. One per page: whoever shows the time left and the
 * warnings shares this one count.
 */
export function useHoldCountdown(expiresAt: string | null): HoldCountdownState {
  const revalidator = useRevalidator();
  const [seconds, setSeconds] = useState<number | null>(null);
  const [warning, setWarning] = useState("");
  const lastSaid = useRef(Infinity);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the revalidator changes identity on every render; the count restarts only for a new hold.
  useEffect(() => {
    if (!expiresAt) {
      setSeconds(null);
      setWarning("");
      return;
    }
    const start = remainingSeconds(expiresAt);
    setSeconds(start);
    lastSaid.current = firstLastSaid(start);
    const timer = setInterval(() => {
      const left = remainingSeconds(expiresAt);
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
  }, [expiresAt]);

  return { seconds, warning };
}

/**
 * "Your previously selected slot ... is on hold": rendered by the server; with JavaScript a live
 * countdown, and at zero the page reloads its data so the server can send the visitor back.
 */
export function HoldBanner({ hold }: { hold: HoldView }) {
  const { seconds, warning } = useHoldCountdown(hold.expiresAt);
  return (
    <HoldStatus hold={hold} warning={warning}>
      <HoldCountdown seconds={seconds} />
    </HoldStatus>
  );
}

/**
 * The banner's sentence and its polite warnings, without the countdown when a page shows that
 * elsewhere (the booking summary); `children` go between the two.
 */
export function HoldStatus({
  hold,
  warning,
  children,
}: {
  hold: HoldView;
  warning: string;
  children?: React.ReactNode;
}) {
  return (
    <section className="hold-banner" aria-label="Your reserved time" role="status">
      <p>
        Your previously selected slot, <strong>{hold.slotLabel}</strong>, is on hold for the next {hold.minutesLeft}{" "}
        {hold.minutesLeft === 1 ? "minute" : "minutes"}, until {hold.untilLabel}.
      </p>
      {children}
      <p className="visually-hidden" aria-live="polite">
        {warning}
      </p>
    </section>
  );
}

/** "Time left: 9:41" once the browser counts; not read out each second (the warnings are). */
export function HoldCountdown({ seconds }: { seconds: number | null }) {
  if (seconds === null) return null;
  return (
    <p className="countdown-live" aria-live="off">
      Time left: {Math.floor(seconds / 60)}:{String(seconds % 60).padStart(2, "0")}
    </p>
  );
}
