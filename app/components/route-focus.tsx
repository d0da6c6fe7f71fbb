import { useEffect, useRef, useState } from "react";
import { useLocation } from "react-router";
import { useHydrated } from "remix-utils/use-hydrated";

/**
 * After a client-side navigation to another page, focus moves to that page's `<h1>`, so a screen
 * reader says where the visitor is and the keyboard starts from the top of the content; or to what
 * the page marks `data-focus-on-arrival`: a message that must be read first (why a booking was not
 * made), or the control a booking step starts at (`useStartHere`). The start control takes focus
 * when the visitor came by the keyboard (their last press was a key, not a pointer): a keyboard user
 * lands on the step's decision, brought just into view, and the page's heading is said by a polite
 * live region so the new page is still heard; a pointer or touch user keeps the page from its top,
 * its heading focused. Not on the first load (the browser starts the page, and `autofocus` there),
 * and not when only the query or the hash changes (a filter or a choice on the same page, where
 * focus stays where it was).
 */
export function FocusHeadingOnNavigation() {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  const byKeyboard = useRef(false);
  const [announced, setAnnounced] = useState("");
  useEffect(() => {
    const key = () => {
      byKeyboard.current = true;
    };
    const pointer = () => {
      byKeyboard.current = false;
    };
    document.addEventListener("keydown", key, true);
    document.addEventListener("pointerdown", pointer, true);
    return () => {
      document.removeEventListener("keydown", key, true);
      document.removeEventListener("pointerdown", pointer, true);
    };
  }, []);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    const heading = document.querySelector<HTMLElement>("main h1");
    const marked = document.querySelector<HTMLElement>("main [data-focus-on-arrival]");
    const isControl = (element: HTMLElement | null) =>
      Boolean(element?.matches("a[href], button, input, select, textarea, summary"));
    const target = marked && (!isControl(marked) || byKeyboard.current) ? marked : heading;
    if (!target) return;
    // A heading or a message takes focus only with a tabindex; a control has its own place in the Tab order.
    if (target.tabIndex < 0 && !target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    // Scrolling is left to ScrollRestoration, but for a control below the first screen: brought just
    // into view, so the keyboard user sees what a press would act on.
    target.focus({ preventScroll: true });
    const onControl = isControl(target);
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
