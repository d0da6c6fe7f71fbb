import { redirect } from "react-router";
import { requestSession, type RequestContext } from "./request-context.server";
import type { Toast } from "./session.server";

/** A message shown once on the next page this browser opens. */
export function flashToast(context: RequestContext, toast: Omit<Toast, "id">) {
  requestSession(context).flash("toast", { id: crypto.randomUUID(), ...toast });
}

/** Redirects with a toast shown once on the next page (POST-redirect-GET). */
export function redirectWithToast(context: RequestContext, url: string, toast: Omit<Toast, "id">): Response {
  flashToast(context, toast);
  return redirect(url);
}

/** Reads and clears the pending toast. */
export function takeToast(context: RequestContext): Toast | null {
  return requestSession(context).get("toast") ?? null;
}
