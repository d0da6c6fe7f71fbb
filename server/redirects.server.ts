/** A path a browser reads as on this site: one leading slash, not two, not a slash and a backslash. */
function isLocalPath(path: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses.
  return path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/\\") && !/[\u0000-\u001f\\]/.test(path);
}

/**
 * Every redirect target the app takes from a request passes through here: only paths on this
 * site, never another origin, never a protocol-relative or backslash trick. The normalised path
 * is checked again: dot segments can turn `/.//evil.example` into `//evil.example`.
 */
export function safeLocalPath(candidate: string | null | undefined, fallback = "/"): string {
  if (!candidate || !isLocalPath(candidate)) return fallback;
  try {
    const url = new URL(candidate, "http://local.invalid");
    if (url.origin !== "http://local.invalid") return fallback;
    const path = `${url.pathname}${url.search}${url.hash}`;
    return isLocalPath(path) ? path : fallback;
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
