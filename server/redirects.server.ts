/**
 * Every redirect target the app takes from a request passes through here: only paths on this
 * site, never another origin, never a protocol-relative or backslash trick.
 */
export function safeLocalPath(candidate: string | null | undefined, fallback = "/"): string {
  if (!candidate) return fallback;
  if (!candidate.startsWith("/") || candidate.startsWith("//") || candidate.startsWith("/\\") || /[\u0000-\u001f\\]/.test(candidate)) {
    return fallback;
  }
  try {
    const url = new URL(candidate, "http://local.invalid");
    if (url.origin !== "http://local.invalid") return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}

/** The Referer as a local path when it is a page of this site, else null. */
export function sameSiteReferer(request: Request): string | null {
  const referer = request.headers.get("referer");
  if (!referer) return null;
  try {
    const from = new URL(referer);
    const here = new URL(request.url);
    if (from.origin !== here.origin) return null;
    return safeLocalPath(`${from.pathname}${from.search}`, "") || null;
  } catch {
    return null;
  }
}
