import { useEffect, useRef, useState } from "react";
import { useLocation } from "react-router";
import { useHydrated } from "remix-utils/use-hydrated";

/**
 * After a client-side navigation to another page, focus moves to that page's `<h1>`, so a screen
 * reader says where the visitor is and the keyboard starts from the top of the content; or to what
 * the page marks `data-focus-on-arrival`: a message that must be read first (why a booking was not
 * made), or the control a booking step starts at (`useStartHere`). On a control, the page's heading
 * is said by a polite status message, so the new page is still heard. Not on the first load (the
 * browser starts the page, and `autofocus` there), and not when only the query or the hash changes
 * (a filter or a choice on the same page, where focus stays where it was).
 */
export function FocusHeadingOnNavigation() {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  const [announced, setAnnounced] = useState("");
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    const heading = document.querySelector<HTMLElement>("main h1");
    const target = document.querySelector<HTMLElement>("main [data-focus-on-arrival]") ?? heading;
    if (!target) return;
    // A heading or a message takes focus only with a tabindex; a control has its own place in the Tab order.
    if (target.tabIndex < 0 && !target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    // Scrolling is left to ScrollRestoration, but for a control below the first screen: brought just
    // into view, so a sighted keyboard user sees what a press would act on.
    target.focus({ preventScroll: true });
    const onControl = target.matches("a[href], button, input, select, textarea, summary");
    if (onControl) target.scrollIntoView({ block: "nearest" });
    setAnnounced(onControl && heading ? (heading.textContent ?? "").trim() : "");
  }, [pathname]);
  return (
    <div className="visually-hidden" aria-live="polite" aria-atomic="true" data-testid="page-announcer">
      {announced}
    </div>
  );
}

/**
 * Marks the control a booking step starts at, where the step's decision is (decision 062): focused
 * by the browser on a page loaded whole (`autofocus` in the page the server sends: every step
 * without JavaScript) and by `FocusHeadingOnNavigation` after a client-side navigation. `autofocus`
 * only in the page as sent: a control that appears later on the same page (another day's times)
 * never takes focus from where the visitor is.
 */
export function useStartHere(enabled: boolean): { autoFocus?: true; "data-focus-on-arrival"?: "" } {
  const hydrated = useHydrated();
  if (!enabled) return {};
  return hydrated ? { "data-focus-on-arrival": "" } : { autoFocus: true, "data-focus-on-arrival": "" };
}
