import { useEffect, useRef } from "react";
import { useLocation } from "react-router";

/**
 * After a client-side navigation to another page, focus moves to that page's `<h1>`, so a screen
 * reader says where the visitor is and the keyboard starts from the top of the content; or to what
 * the page marks `data-focus-on-arrival`, a message that must be read first (why a booking was not
 * made). Not on the first load (the browser starts the page, and `autofocus` there), and not when
 * only the query or the hash changes (a filter or a choice on the same page, where focus stays where
 * it was).
 */
export function FocusHeadingOnNavigation() {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    const target =
      document.querySelector<HTMLElement>("main [data-focus-on-arrival]") ??
      document.querySelector<HTMLElement>("main h1");
    if (!target) return;
    if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    // Scrolling is left to ScrollRestoration.
    target.focus({ preventScroll: true });
  }, [pathname]);
  return null;
}
