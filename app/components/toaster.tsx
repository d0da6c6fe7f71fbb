import { useEffect, useState } from "react";
import { useLocation } from "react-router";

/** Toasts close by themselves after 5,000 ms, and 3 s after any route change. */
export const TOAST_AUTO_CLOSE_MS = 5_000;
export const TOAST_ROUTE_CHANGE_DISMISS_MS = 3_000;

export type ToastMessage = { id: string; type: "success" | "error" | "info"; title: string; description?: string };

export function Toaster({ toast }: { toast: ToastMessage | null }) {
  const location = useLocation();
  const [visible, setVisible] = useState<ToastMessage[]>(toast ? [toast] : []);

  useEffect(() => {
    if (toast) setVisible((current) => (current.some((t) => t.id === toast.id) ? current : [...current, toast]));
  }, [toast]);

  useEffect(() => {
    if (visible.length === 0) return;
    const timer = setTimeout(() => setVisible([]), TOAST_AUTO_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [visible]);

  useEffect(() => {
    // Only a route change starts this clock.
    const timer = setTimeout(() => setVisible([]), TOAST_ROUTE_CHANGE_DISMISS_MS);
    return () => clearTimeout(timer);
  }, [location.key]);

  return (
    <section className="toasts" aria-live="polite" aria-label="Notifications">
      {visible.map((t) => (
        <div key={t.id} className={`toast toast-${t.type}`} role={t.type === "error" ? "alert" : "status"}>
          <strong>{t.title}</strong>
          {t.description ? <p>{t.description}</p> : null}
          <button type="button" className="toast-close" aria-label="Dismiss" onClick={() => setVisible((c) => c.filter((x) => x.id !== t.id))}>
            ×
          </button>
        </div>
      ))}
    </section>
  );
}
