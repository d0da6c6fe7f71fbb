import { useEffect, useRef } from "react";
import { useLocation } from "react-router";

/**
 * After a client-side navigation to another page, focus moves to that page's `<h1>`, so a screen
 * reader says where the visitor is and the keyboard starts from the top of the content. Not on the
 * first load (the browser starts the page), and not when only the query or the hash changes (a
 * filter or a choice on the same page, where focus stays where it was).
 */
export function FocusHeadingOnNavigation() {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    const heading = document.querySelector<HTMLElement>("main h1");
    if (!heading) return;
    if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
    // Scrolling is left to ScrollRestoration.
    heading.focus({ preventScroll: true });
  }, [pathname]);
  return null;
}
