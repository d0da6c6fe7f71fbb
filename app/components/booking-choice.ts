import { createContext, useContext, useEffect } from "react";

/** A choice on the treatment step, as the booking bar shows it: the clinic, names and the total. */
export type LiveChoice = {
  clinic: string;
  treatment: string;
  addOns: string[];
  price: string;
  listPrice: string | null;
};

/**
 * The booking bar's way to hear of a choice the step is making in the browser (decision 056): the
 * step totals each change itself and tells the bar, so the two agree before anything is saved. The
 * page as sent shows the step's own `bookingBar` (its loader data); without JavaScript each change
 * is a submit.
 */
export const BookingChoice = createContext<(choice: LiveChoice | null) => void>(() => {});

/** Tells the booking bar this choice while the component is shown (in the browser only). */
export function useShowChoice(choice: LiveChoice | null) {
  const show = useContext(BookingChoice);
  const key = choice ? JSON.stringify(choice) : null;
  useEffect(() => {
    show(key ? (JSON.parse(key) as LiveChoice) : null);
    return () => show(null);
  }, [key, show]);
}
