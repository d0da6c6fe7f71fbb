import type { Breadcrumb, Event } from "@sentry/react-router";

/**
 * What an error report may carry: facts about the failure, never about the visitor (decision 027).
 * The server and the browser run these same functions as Sentry's last step before sending: no
 * email, phone number, cookie, query string, request body, IP address or user record leaves, and a
 * long opaque path segment (a signed manage link's token) is replaced. Names cannot be recognised
 * in free text, so the fields that hold them (the user, the request's body and headers) are dropped
 * whole. No lookbehind in the patterns: older Safari cannot parse it.
 */

const EMAIL = /[A-Z0-9._%+-]+(?:@|%40)[A-Z0-9-]+(?:\.[A-Z0-9-]+)*\.[A-Z]{2,}/gi;
/** US numbers as typed (512-555-0141, (512) 555 0141, +1 5125550141), not runs inside ids. */
const US_PHONE = /(^|[^\w-])((?:\+?1[\s.-]?)?(?:\(\d{3}\)\s?|\d{3}[\s.-]?)\d{3}[\s.-]?\d{4})(?![\w-])/g;
const INTERNATIONAL_PHONE = /(^|[^\w+])\+\d[\d\s().-]{7,}\d(?!\w)/g;
const IPV4 = /(^|[^\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w.])/g;
/** A query string: after a path (`/x?...`), or anything shaped `?name=value`, up to the end of the URL. */
const PATH_QUERY = /(\/[^\s?#"'<>]*)\?[^\s"'<>#]*/g;
const QUERY = /(\S)\?[^\s"'<>#?]*=[^\s"'<>#]*/g;
/** A path segment long enough to be a token; a UUID (a record id) and a script's file name stay. */
const LONG_SEGMENT = /\/([^/\s?#"'<>]{25,})/g;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SCRIPT_FILE = /\.(?:[cm]?js|jsx|tsx?|map)$/;

/** Keys whose values are personal or secret wherever they appear (headers, span data, extras). */
const SENSITIVE_KEY =
  /cookie|authorization|query|password|secret|token|email|phone|^ip$|ip_address|client_ip|client\.address|peer\.ip|forwarded|real-ip|body|^user$|^username$/i;

/** Emails, phone numbers, IP addresses and query strings out of a piece of text. */
export function scrubText(text: string): string {
  return text
    .replace(EMAIL, "[email]")
    .replace(PATH_QUERY, "$1")
    .replace(QUERY, "$1")
    .replace(US_PHONE, "$1[phone]")
    .replace(INTERNATIONAL_PHONE, "$1[phone]")
    .replace(IPV4, "$1[ip]");
}

/** scrubText, and any path segment that could be a token replaced. */
function scrubUrlText(text: string): string {
  return scrubText(text).replace(LONG_SEGMENT, (whole, segment: string) =>
    UUID.test(segment) || SCRIPT_FILE.test(segment) ? whole : "/:redacted",
  );
}

/** A URL or path without its query or fragment, with no segment that could be a secret. */
export function scrubUrl(url: string): string {
  return scrubUrlText(url.replace(/[?#].*$/s, ""));
}

function scrubValue(value: unknown, depth: number): unknown {
  if (typeof value === "string") return scrubUrlText(value);
  if (value === null || typeof value !== "object") return value;
  // Deeper than any event the SDKs build: dropped rather than sent unread.
  if (depth > 12) return "[too deep]";
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (SENSITIVE_KEY.test(key)) continue;
    copy[key] = scrubValue(item, depth + 1);
  }
  return copy;
}

type Frame = { vars?: unknown; filename?: string; abs_path?: string };

/** A server file path stays as it is; a browser frame of an inline script is named by the page's URL. */
function scrubFramePath(path: string): string {
  return /^https?:/i.test(path) ? scrubUrl(path) : path;
}

/** Stack frames keep their files, functions and lines, but never their local variables. */
function scrubFrame({ vars: _vars, ...frame }: Frame): Frame {
  return {
    ...frame,
    ...(frame.filename ? { filename: scrubFramePath(frame.filename) } : {}),
    ...(frame.abs_path ? { abs_path: scrubFramePath(frame.abs_path) } : {}),
  };
}

function scrubFrames<T extends { stacktrace?: { frames?: Frame[] } }>(holder: T): T {
  if (!holder.stacktrace?.frames) return holder;
  return { ...holder, stacktrace: { ...holder.stacktrace, frames: holder.stacktrace.frames.map(scrubFrame) } };
}

export function scrubBreadcrumb(breadcrumb: Breadcrumb): Breadcrumb {
  const scrubbed: Breadcrumb = { ...breadcrumb };
  if (scrubbed.message) scrubbed.message = scrubUrlText(scrubbed.message);
  // A console breadcrumb's data is whatever was logged; a request's holds its URL and sizes.
  if (scrubbed.category === "console") delete scrubbed.data;
  else if (scrubbed.data) scrubbed.data = scrubValue(scrubbed.data, 0) as Breadcrumb["data"];
  return scrubbed;
}

/** A copy of the event with nothing personal left in it (the input is not changed). */
export function scrubEvent<T extends Event>(event: T): T {
  const { user: _user, request, breadcrumbs, exception, threads, message, logentry, ...rest } = event;
  const scrubbed = scrubValue(rest, 0) as T;
  if (request) {
    // Only where the request went; its headers, cookies, body and query stay behind. The browser
    // kind is kept to tell a device's bug apart.
    const userAgent = Object.entries(request.headers ?? {}).find(([name]) => name.toLowerCase() === "user-agent")?.[1];
    scrubbed.request = {
      ...(request.url ? { url: scrubUrl(request.url) } : {}),
      ...(request.method ? { method: request.method } : {}),
      ...(userAgent ? { headers: { "User-Agent": userAgent } } : {}),
    };
  }
  if (message) scrubbed.message = scrubUrlText(message);
  if (logentry) scrubbed.logentry = { message: logentry.message ? scrubUrlText(logentry.message) : logentry.message };
  if (breadcrumbs) scrubbed.breadcrumbs = breadcrumbs.map(scrubBreadcrumb);
  if (exception?.values) {
    scrubbed.exception = {
      ...exception,
      values: exception.values.map((value) =>
        scrubFrames({ ...value, ...(value.value ? { value: scrubUrlText(value.value) } : {}) }),
      ),
    };
  }
  if (threads?.values) scrubbed.threads = { ...threads, values: threads.values.map((thread) => scrubFrames(thread)) };
  return scrubbed;
}

/** The not-found page and React Router's catch-all route ("*"), by name or by the path asked for. */
const NOT_FOUND_NAMES = new Set(["/404", "*", "/*"]);
const URL_DATA_KEYS = ["url", "url.full", "url.path", "http.url", "http.target", "http.route"];

function pathOf(url: string): string {
  try {
    return new URL(url, "http://local").pathname.replace(/(.)\/$/, "$1");
  } catch {
    return "";
  }
}

/** A transaction of a page that was not found: not worth a report, and any visitor can make many. */
export function isNotFoundTransaction(event: Event): boolean {
  const name = (event.transaction ?? "").replace(/^[A-Z]+ /, "").trim();
  if (NOT_FOUND_NAMES.has(name) || pathOf(name) === "/404") return true;
  const data = (event.contexts?.trace?.data ?? {}) as Record<string, unknown>;
  const urls = [event.request?.url, ...URL_DATA_KEYS.map((key) => data[key])];
  return urls.some((url) => typeof url === "string" && (url === "*" || url === "/*" || pathOf(url) === "/404"));
}

/** Sentry's beforeSendTransaction: not-found pages dropped, the rest scrubbed. */
export function keepTransaction<T extends Event>(event: T): T | null {
  return isNotFoundTransaction(event) ? null : scrubEvent(event);
}
