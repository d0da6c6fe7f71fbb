import { href, redirect } from "react-router";
import type { CurrentUser } from "../services";
import { safeLocalPath } from "../redirects.server";
import { currentUser, requestSession, type RequestContext } from "../request-context.server";

/** The signed-in user, or a redirect to sign in that comes back here. */
export async function requireUser(
  request: Request,
  context: RequestContext,
): Promise<{ user: CurrentUser; token: string }> {
  const user = await currentUser(context);
  if (!user) {
    const url = new URL(request.url);
    throw redirect(`${href("/login")}?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
  }
  return { user, token: requestSession(context).get("userSessionId")! };
}

/** Where to go after signing in: a path on this site only. */
export function redirectTarget(value: FormDataEntryValue | string | null, fallback = "/account/profile"): string {
  return safeLocalPath(typeof value === "string" ? value : null, fallback);
}
