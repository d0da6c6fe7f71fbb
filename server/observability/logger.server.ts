import { AsyncLocalStorage } from "node:async_hooks";

/**
 * One JSON line per event on stdout. Callers pass facts, never personal data: no emails, phone
 * numbers, names, card data, tokens or query strings (which may carry any of those). A line written
 * while a request is being answered carries that request's id, which the response's X-Request-Id
 * header also shows, so one customer's report leads to every line of their request.
 */
const requestScope = new AsyncLocalStorage<{ requestId: string }>();

/** Runs `fn` (and everything it starts) as part of the request `requestId`. */
export function withRequestId<T>(requestId: string, fn: () => T): T {
  return requestScope.run({ requestId }, fn);
}

export function currentRequestId(): string | undefined {
  return requestScope.getStore()?.requestId;
}

type Level = "debug" | "info" | "warn" | "error";
type Fields = Record<string, string | number | boolean | null | undefined>;

const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

function threshold(): number {
  const configured = process.env.LOG_LEVEL as Level | "off" | undefined;
  // A tool whose output is its own (the preflight's table) turns the lines off.
  if (configured === "off") return Infinity;
  if (configured && configured in order) return order[configured];
  return process.env.NODE_ENV === "test" ? order.error : order.info;
}

type LogListener = (level: Level, message: string, fields: Fields) => void;
const listeners = new Set<LogListener>();

/**
 * Every line logged from now on, whatever LOG_LEVEL lets through, until the returned function is
 * called: how a tool (the preflight) counts what the client dropped while it ran.
 */
export function observeLogs(listener: LogListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function write(level: Level, message: string, fields: Fields = {}) {
  for (const listener of listeners) listener(level, message, fields);
  if (order[level] < threshold()) return;
  const line = JSON.stringify({
    time: new Date().toISOString(),
    level,
    message,
    requestId: currentRequestId(),
    ...fields,
  });
  if (level === "error" || level === "warn") process.stderr.write(`${line}\n`);
  else process.stdout.write(`${line}\n`);
}

export const logger = {
  debug: (message: string, fields?: Fields) => write("debug", message, fields),
  info: (message: string, fields?: Fields) => write("info", message, fields),
  warn: (message: string, fields?: Fields) => write("warn", message, fields),
  error: (message: string, fields?: Fields) => write("error", message, fields),
};

/** The path of a URL without its query string, safe to log. */
export function pathOnly(url: string): string {
  try {
    return new URL(url, "http://local").pathname;
  } catch {
    return "(unparseable url)";
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path segment with an at sign, as it is or escaped: it may be an email address. */
export function mayBeEmail(segment: string): boolean {
  return segment.includes("@") || segment.includes("%40");
}

/** A run of eight digits or more: a gift card's or a payment card's number, a phone number. */
const LONG_NUMBER = /\d{8,}/;

/**
 * A request path fit for a log line: a segment that may be a secret or personal (a signed manage
 * link's token, anything with an "@", a card's number, any long opaque string) is replaced; ids of
 * records stay.
 */
export function loggablePath(path: string): string {
  return path
    .split("/")
    .map((segment) => {
      if (UUID.test(segment)) return segment;
      if (mayBeEmail(segment) || segment.length > 24 || LONG_NUMBER.test(segment.replace(/[\s-]|%20/g, "")))
        return ":redacted";
      return segment;
    })
    .join("/");
}
