import { redirect } from "react-router";
import type { Services } from "./context.server";
import type { Toast } from "./session.server";

/** Redirects with a toast shown once on the next page (POST-redirect-GET). */
export async function redirectWithToast(
  request: Request,
  services: Services,
  url: string,
  toast: Omit<Toast, "id">,
): Promise<Response> {
  const session = await services.sessions.getSession(request.headers.get("cookie"));
  session.flash("toast", { id: crypto.randomUUID(), ...toast });
  return redirect(url, { headers: { "set-cookie": await services.sessions.commitSession(session) } });
}

/** Reads and clears the pending toast; the header must go out with the response. */
export async function takeToast(request: Request, services: Services): Promise<{ toast: Toast | null; headers: HeadersInit | undefined }> {
  const session = await services.sessions.getSession(request.headers.get("cookie"));
  const toast = session.get("toast") ?? null;
  if (!toast) return { toast: null, headers: undefined };
  return { toast, headers: { "set-cookie": await services.sessions.commitSession(session) } };
}
