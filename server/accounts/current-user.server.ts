import { data, href, redirect } from "react-router";
import type { CurrentUser, Services } from "../services";
import type { HitOptions } from "./rate-limit.server";
import { safeLocalPath } from "../redirects.server";
import { currentUser, requestSession, type RequestContext } from "../request-context.server";

/** The signed-in user, or a redirect to sign in that comes back here. */
export async function requireUser(request: Request, context: RequestContext): Promise<{ user: CurrentUser; token: string }> {
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

/** The answer over a limit: 429, Retry-After and a message that says how long to wait. */
export function tooManyAttempts(retryAfterSeconds: number) {
  return data(
    { rateLimited: true, message: `Too many attempts. Please wait ${retryAfterSeconds} seconds and try again.` },
    { status: 429, headers: { "Retry-After": String(retryAfterSeconds) } },
  );
}

/**
 * Counts an attempt against a limit; over it, a 429 with Retry-After and a friendly message. A
 * limit that guards guessing a secret (a one-time code) passes `{ failClosed: true }` (decision 028).
 */
export async function enforceRateLimit(services: Services, key: string, limit: number, windowMs: number, options?: HitOptions): Promise<void> {
  const result = await services.rateLimiter.hit(key, limit, windowMs, options);
  if (result.limited) throw tooManyAttempts(result.retryAfterSeconds);
}
