import { randomUUID } from "node:crypto";
import { mayBeEmail } from "../observability/logger.server";

/**
 * What an analytics event may say, and the one place that makes sure it says nothing else: the
 * names are a closed list, the properties an allow-list, and whatever reaches an adapter passes
 * through `prepareEvent` first (decision 026).
 */
export const EVENT_NAMES = [
  "page_viewed",
  "service_chosen",
  "time_held",
  "hold_expired",
  "details_entered",
  "payment_started",
  "booked",
  "booking_failed",
  "account_registered",
  "signed_in",
  "purchase_started",
  "purchase_completed",
  "purchase_failed",
  "referral_registered",
  "referral_rewarded",
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

/** Every key an event may carry. Anything else is dropped, whatever the caller's types said. */
export type EventProperties = {
  /** The page's path, never its query string (which may carry a token or a code). */
  path?: string;
  /** The path of the page the visitor came from, not its host or query. */
  referrerPath?: string;
  centerId?: string;
  serviceIds?: readonly string[];
  serviceCount?: number;
  bookingId?: string;
  appointmentId?: string;
  amountCents?: number;
  prepaid?: boolean;
  /** Whether a promo code was applied; the code itself is never recorded. */
  promoApplied?: boolean;
  /** A short machine reason ("slot_taken", "card_declined"), not a message someone typed. */
  reason?: string;
  kind?: string;
  method?: string;
  status?: string | number;
  durationMs?: number;
  userAgentFamily?: string;
  /** Kept only when the adapter was made with `includeContact` (ANALYTICS_CONTACT_FIELDS). */
  email?: string;
  /** Kept only when the adapter was made with `includeContact` (ANALYTICS_CONTACT_FIELDS). */
  phone?: string;
};

type PropertyKind = "string" | "strings" | "number" | "boolean" | "path" | "status" | "contact";

/** The runtime allow-list; `satisfies` keeps it and `EventProperties` the same set of keys. */
const PROPERTY_KINDS = {
  path: "path",
  referrerPath: "path",
  centerId: "string",
  serviceIds: "strings",
  serviceCount: "number",
  bookingId: "string",
  appointmentId: "string",
  amountCents: "number",
  prepaid: "boolean",
  promoApplied: "boolean",
  reason: "string",
  kind: "string",
  method: "string",
  status: "status",
  durationMs: "number",
  userAgentFamily: "string",
  email: "contact",
  phone: "contact",
} as const satisfies Record<keyof EventProperties, PropertyKind>;

/**
 * An event as a caller records it. The second half of the type refuses keys outside the allow-list
 * even when the properties come from a variable or a spread, where TypeScript's excess-property
 * check does not look.
 */
export type AnalyticsEvent<P extends EventProperties = EventProperties> = {
  name: EventName;
  properties: P & Record<Exclude<keyof P, keyof EventProperties>, never>;
  anonymousId?: string;
  userId?: string;
  requestId?: string;
};

/** An event as an adapter sends or writes it. */
export type RecordedEvent = {
  name: EventName;
  properties: EventProperties;
  anonymousId?: string;
  userId?: string;
  requestId?: string;
  messageId: string;
  timestamp: string;
};

/** An event ready for a queue: its JSON is made once, when it is recorded, so later changes to the caller's objects do not reach it. */
export type PreparedEvent = { json: string; bytes: number; timestamp: string };

/** Larger than this, an event is dropped and counted: it would not fit in one 64 KB chunk of a collector request (decision 026). */
export const MAX_EVENT_BYTES = 64 * 1024;

export type SanitizeOptions = { includeContact: boolean };

const NAMES = new Set<string>(EVENT_NAMES);

/** 13 digits or more in a row, single spaces or dashes between them allowed: the shape of a card number. */
const CARD_LIKE = /\d(?:[ -]?\d){12,}/;

/** Longer than any id or slug of ours; the signed link that opens a visit carries its token as a path segment. */
const MAX_PATH_SEGMENT = 40;

/** Our ids (a request's, a clinic's): their digits can run to a card number's length across a dash. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function safeString(value: unknown): string | undefined {
  return typeof value === "string" && (UUID.test(value) || !CARD_LIKE.test(value)) ? value : undefined;
}

/** Numbers as large as a card number are no amount or duration of ours. */
function safeNumber(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && Math.abs(value) < 1e12 ? value : undefined;
}

/**
 * A path that `new URL` would hand back unchanged: segments of letters, digits and the characters
 * a URL path keeps as they are, with no dot (no `.` or `..` to resolve), no `%` (no escape to
 * normalise), no query or fragment and no empty segment (`//` would be read as a host). Every page
 * view's path has this shape, and skipping the parse is most of what recording one costs.
 */
const PLAIN_PATH = /^\/(?:[\w\-~:@!$&'()*+,;=]+(?:\/[\w\-~:@!$&'()*+,;=]+)*\/?)?$/;

function pathOf(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  let pathname: string;
  if (PLAIN_PATH.test(value)) {
    pathname = value;
  } else {
    try {
      pathname = new URL(value, "http://local").pathname;
    } catch {
      return undefined;
    }
  }
  // No segment can be longer than the limit when the whole path is not (a path need not start with
  // "/": `x:abc`). An email in a path (`/ana@example.com`, `mailto:ana@example.com`) is no page of ours
  // and never sent, whatever the contact setting says: that is for the contact fields alone.
  const redacted =
    pathname.length <= MAX_PATH_SEGMENT && !mayBeEmail(pathname)
      ? pathname
      : pathname
          .split("/")
          .map((segment) => (segment.length > MAX_PATH_SEGMENT ? ":token" : mayBeEmail(segment) ? ":email" : segment))
          .join("/");
  return safeString(redacted);
}

function sanitizeValue(kind: PropertyKind, value: unknown, options: SanitizeOptions): unknown {
  switch (kind) {
    case "string":
      return safeString(value);
    case "contact":
      return options.includeContact ? safeString(value) : undefined;
    case "path":
      return pathOf(value);
    case "number":
      return safeNumber(value);
    case "boolean":
      return typeof value === "boolean" ? value : undefined;
    case "status":
      return typeof value === "number" ? safeNumber(value) : safeString(value);
    case "strings":
      return Array.isArray(value) ? value.map(safeString).filter((item) => item !== undefined) : undefined;
  }
}

/**
 * The allow-listed properties of `properties`, each of its expected type: any other key is
 * dropped (a password, a one-time code, a token, card data), so is a value that looks like a card
 * number, and so are email and phone unless `includeContact`.
 */
export function sanitizeProperties(properties: unknown, options: SanitizeOptions): EventProperties {
  const clean: Record<string, unknown> = {};
  if (!properties || typeof properties !== "object") return clean;
  const source = properties as Record<string, unknown>;
  // The caller's few keys, each looked up in the allow-list (rather than every allowed key looked up in the caller's).
  for (const key of Object.keys(source)) {
    if (!Object.hasOwn(PROPERTY_KINDS, key)) continue;
    const value = sanitizeValue(PROPERTY_KINDS[key as keyof EventProperties], source[key], options);
    if (value !== undefined) clean[key] = value;
  }
  return clean as EventProperties;
}

/**
 * An event checked against the allow-list and copied, so that later changes to the caller's
 * objects do not reach it, with the time it was recorded: everything but its id and its JSON, which
 * `serializeEvent` adds. Plain data, so it can be handed to another thread as it is.
 */
export type CapturedEvent = Omit<RecordedEvent, "messageId" | "timestamp"> & { at: number };

/** The event's allow-listed copy, at the clock's time; null for a name outside the list. */
export function captureEvent(
  event: AnalyticsEvent,
  options: SanitizeOptions & { clock: () => number },
): CapturedEvent | null {
  if (!event || !NAMES.has(event.name)) return null;
  const captured: CapturedEvent = {
    name: event.name,
    properties: sanitizeProperties(event.properties, options),
    at: options.clock(),
  };
  for (const key of ["anonymousId", "userId", "requestId"] as const) {
    const value = safeString(event[key]);
    if (value !== undefined) captured[key] = value;
  }
  return captured;
}

/**
 * At least the length of the captured event's JSON, counted from its strings: an event over
 * MAX_EVENT_BYTES by this count is too large before it is written, so it can be refused where it
 * is recorded (the exact count in bytes comes with the JSON).
 */
export function capturedLength(captured: CapturedEvent): number {
  let length =
    captured.name.length +
    (captured.anonymousId?.length ?? 0) +
    (captured.userId?.length ?? 0) +
    (captured.requestId?.length ?? 0);
  for (const value of Object.values(captured.properties)) {
    if (typeof value === "string") length += value.length;
    else if (Array.isArray(value)) for (const item of value) length += item.length;
  }
  return length;
}

function recordedOf(captured: CapturedEvent): RecordedEvent {
  const { name, properties, at, ...ids } = captured;
  return { name, properties, messageId: randomUUID(), timestamp: new Date(at).toISOString(), ...ids };
}

/** The captured event as it is sent: with its id and time, as JSON, and its size in bytes. */
export function serializeEvent(captured: CapturedEvent): PreparedEvent {
  const recorded = recordedOf(captured);
  const json = JSON.stringify(recorded);
  return { json, bytes: Buffer.byteLength(json), timestamp: recorded.timestamp };
}

/** The event as it will be sent, with its id and time; null for a name outside the list. */
export function sanitizeEvent(
  event: AnalyticsEvent,
  options: SanitizeOptions & { clock: () => number },
): RecordedEvent | null {
  const captured = captureEvent(event, options);
  return captured && recordedOf(captured);
}

/** The sanitised event as JSON, with its size in bytes; null for a name outside the list. */
export function prepareEvent(
  event: AnalyticsEvent,
  options: SanitizeOptions & { clock: () => number },
): PreparedEvent | null {
  const captured = captureEvent(event, options);
  return captured && serializeEvent(captured);
}
