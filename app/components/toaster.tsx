import { useCallback, useEffect, useRef, useState } from "react";
import { useLocation } from "react-router";

/**
 * A success or info toast closes by itself after 5,000 ms, and 3 s after a route change once it has
 * been shown; never while the pointer is over it or focus is in it. An error toast stays until
 * it is closed: a message that matters is not timed out before it is read (WCAG 2.2.1).
 */
export const TOAST_AUTO_CLOSE_MS = 5_000;
export const TOAST_ROUTE_CHANGE_DISMISS_MS = 3_000;

export type ToastMessage = { id: string; type: "success" | "error" | "info"; title: string; description?: string };

export function Toaster({ toast }: { toast: ToastMessage | null }) {
  const location = useLocation();
  const [visible, setVisible] = useState<ToastMessage[]>(toast ? [toast] : []);
  // False in the server's HTML and the first render in the browser: without JavaScript the toasts
  // stay in the page's flow (controls.css), where they cover nothing and need no closing.
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);

  useEffect(() => {
    if (toast) setVisible((current) => (current.some((t) => t.id === toast.id) ? current : [...current, toast]));
  }, [toast]);

  const dismiss = useCallback((id: string) => setVisible((current) => current.filter((t) => t.id !== id)), []);

  return (
    <section className="toasts" aria-live="polite" aria-label="Notifications" data-enhanced={enhanced ? "" : undefined}>
      {visible.map((t) => (
        <Toast key={t.id} toast={t} routeKey={location.key} closable={enhanced} onDismiss={dismiss} />
      ))}
    </section>
  );
}

function Toast({
  toast,
  routeKey,
  closable,
  onDismiss,
}: {
  toast: ToastMessage;
  routeKey: string;
  closable: boolean;
  onDismiss: (id: string) => void;
}) {
  const sticky = toast.type === "error";
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  // The timer's length: the full auto-close at first, the shorter one after each later route change.
  const [timer, setTimer] = useState({ ms: TOAST_AUTO_CLOSE_MS, round: 0 });
  const shownAt = useRef(routeKey);
  const element = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (routeKey === shownAt.current) return;
    shownAt.current = routeKey;
    setTimer((t) => ({ ms: TOAST_ROUTE_CHANGE_DISMISS_MS, round: t.round + 1 }));
  }, [routeKey]);

  useEffect(() => {
    // Held while read: the clock starts again, in full, when the pointer and focus have left.
    if (sticky || hovered || focused) return;
    const id = setTimeout(() => onDismiss(toast.id), timer.ms);
    return () => clearTimeout(id);
  }, [sticky, hovered, focused, timer, toast.id, onDismiss]);

  const close = () => {
    // Focus would be lost with the button; it goes back to the page's content.
    if (element.current?.contains(document.activeElement)) document.getElementById("main")?.focus();
    onDismiss(toast.id);
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: hover and focus only pause the toast's timer; nothing is done on them.
    <div
      ref={element}
      className={`toast toast-${toast.type}`}
      role={sticky ? "alert" : "status"}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <strong>{toast.title}</strong>
      {toast.description ? <p>{toast.description}</p> : null}
      {closable ? (
        <button type="button" className="toast-close" aria-label="Close" onClick={close}>
          <span aria-hidden="true">×</span>
        </button>
      ) : null}
    </div>
  );
}
