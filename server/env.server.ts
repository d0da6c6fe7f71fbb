import { isIP } from "node:net";
import { z } from "zod";
import { DEFAULT_DOWNTIME_DAYS, parseDowntimeWindows } from "~/domain/downtime";
import { DEFAULT_NIGHT_HOURS, parseNightHours } from "~/domain/recovery";
import { EMBEDDED_AVAILABILITY_GUEST_ID } from "./embedded-defaults";
import {
  LEAD_WEBHOOK_TIMEOUT_MS,
  MAX_LEAD_WEBHOOK_TIMEOUT_MS,
  MIN_LEAD_WEBHOOK_TIMEOUT_MS,
} from "./leads/lead-webhooks.server";
import { parseZoneSetting } from "./spa/time-zones.server";

/**
 * Every setting of the app, read once at start. With no environment at all the app runs on the
 * embedded defaults: the spa sandbox, the SQLite stores, the offline ZIP table.
 */
const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

/** A comma-separated list, each item trimmed, empty ones dropped; unset is an empty list. */
const commaList = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  );

const booleanFlag = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((value) => (value === undefined || value === "" ? undefined : value === "true" || value === "1"));

export const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  /** Public origin of the site, used in canonical links, Open Graph tags and the sitemap. */
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().default("data"),
  /**
   * Which proxies in front of the app may name the client in X-Forwarded-For (and the host in
   * X-Forwarded-Host); the client address drives every per-address limit. Express's forms: a comma
   * list of addresses, subnets and the names loopback, linklocal, uniquelocal; a hop count; or
   * "false" (no proxy). Unset: loopback only (a proxy on this machine), decision 041.
   */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const parsed = parseTrustProxy(value);
      if (parsed === null) {
        ctx.addIssue({
          code: "custom",
          message:
            'expected a comma list of addresses, subnets or loopback/linklocal/uniquelocal, a hop count, or "false"',
        });
        return z.NEVER;
      }
      return parsed;
    }),

  /** Comma-separated; the first encrypts, every one decrypts (rotation). */
  SESSION_SECRETS: optionalString.pipe(
    z
      .string()
      .transform((value) =>
        value
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().min(32, "each session secret needs at least 32 characters")).min(1))
      .optional(),
  ),
  COOKIE_SECURE: booleanFlag,

  /** Spa back end. Unset: the embedded sandbox served by this app under /spa-sandbox. */
  SPA_BASE_URL: z.url().optional(),
  SPA_AUTH: z.enum(["apikey", "token"]).default("apikey"),
  SPA_API_KEY: optionalString,
  SPA_USERNAME: optionalString,
  SPA_PASSWORD: optionalString,
  SPA_CLIENT_ID: optionalString,
  /** With SPA_AUTH=token: Zenoti's current JSON endpoint (v1) or the form-encoded /Token (legacy). */
  SPA_TOKEN_ENDPOINT: z.enum(["legacy", "v1"]).default("legacy"),
  SPA_ACCOUNT_NAME: optionalString,
  SPA_APP_SECRET: optionalString,
  SPA_DEVICE_ID: optionalString,
  SPA_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(8_000),
  /**
   * The call governor (decision 036): one token bucket for Zenoti's per-organisation call limit,
   * shared through REDIS_URL, sized from Zenoti's headers; bookings that hold a slot come first.
   * "off": calls go out as they come.
   */
  SPA_CALL_GOVERNOR: z
    .enum(["on", "off"])
    .default("on")
    .transform((value) => value === "on"),
  /** Calls a new booking makes from choosing its time to its confirmation: it is let in only while the bucket covers them. */
  SPA_CALLS_PER_BOOKING: z.coerce.number().int().min(1).max(100).default(13),
  /** Calls kept for each booking that holds a slot, until it ends or its hold runs out. */
  SPA_CALLS_AFTER_HOLD: z.coerce.number().int().min(0).max(100).default(8),
  /** Calls catalog and open-time reads leave free besides what bookings keep; below that they are answered from their caches. */
  SPA_READ_RESERVE: z.coerce.number().int().min(0).max(1_000).default(6),
  /**
   * The guest that open times are read through: Zenoti lists slots only for a booking, and a
   * booking needs a guest. Operations create one guest for this in Zenoti, with the contact fields
   * the organisation requires. Required with SPA_BASE_URL; the embedded sandbox seeds its own.
   */
  SPA_AVAILABILITY_GUEST_ID: optionalString.pipe(
    z.guid("SPA_AVAILABILITY_GUEST_ID must be a Zenoti guest id (a GUID)").optional(),
  ),
  /** The configured Zenoti referral source new guests who typed a referral code are filed under. Optional. */
  SPA_REFERRAL_SOURCE_ID: optionalString.pipe(
    z.guid("SPA_REFERRAL_SOURCE_ID must be a Zenoti referral source id (a GUID)").optional(),
  ),
  CATALOG_TTL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  CATALOG_STALE_SECONDS: z.coerce.number().int().min(0).max(604_800).default(3_600),
  /** Public pages for visitors without a session are kept rendered this long at most (0: not kept; decision 023). */
  PAGE_CACHE_SECONDS: z.coerce.number().int().min(0).max(3_600).default(60),
  /** Megabytes of booking-step pages kept by what they show (0: none kept; decision 034). */
  RENDER_MEMO_MB: z.coerce.number().int().min(0).max(1_024).default(32),
  /** Render every kept page again and refuse to answer when the two differ: for test servers, never production. */
  RENDER_MEMO_VERIFY: booleanFlag,
  /**
   * The work of each password hash: "standard" (scrypt at OWASP's N=2^17), or "low" (N=2^10) for test
   * servers on the embedded sandbox, refused with a real back end (decision 061).
   */
  PASSWORD_HASH_COST: z.enum(["standard", "low"]).default("standard"),

  /** Extra origins the hosted card page may live on (Zenoti's payment host), comma-separated. */
  HOSTED_PAYMENT_ORIGINS: commaList.pipe(z.array(z.url())),
  /**
   * Hosts the pictures of clinics, treatments and nurses may come from besides the site itself
   * (Zenoti's image host, the chain's own), comma-separated https origins: the pages' img-src, and a
   * catalog picture anywhere else is not shown (decision 060).
   */
  IMAGE_ORIGINS: commaList.pipe(
    z.array(
      z
        .url({ protocol: /^https$/, error: "IMAGE_ORIGINS takes https origins only" })
        .transform((url) => new URL(url).origin),
    ),
  ),
  /** A JSON file of the chain's own pictures of its clinics, treatments and nurses (decision 060). */
  CATALOG_IMAGES_FILE: optionalString,
  /**
   * Clinics whose time zone Zenoti does not name (decision 035): `<center id>=<zone>` pairs, and
   * `<Zenoti time-zone id>=<zone>` pairs, comma-separated; a zone is an IANA name.
   */
  SPA_CENTER_TIME_ZONES: zoneSetting(
    (key) => (z.guid().safeParse(key).success ? key.toLowerCase() : null),
    "a center id (a GUID)",
  ),
  SPA_TIME_ZONE_IDS: zoneSetting(
    (key) => (/^[1-9]\d{0,5}$/.test(key) ? key : null),
    "a Zenoti time-zone id (a number)",
  ),
  /** Zenoti's "Search Guest Across Centers": auto (across centers until refused, then per center), across-centers, per-center. */
  SPA_GUEST_SEARCH: z.enum(["auto", "across-centers", "per-center"]).default("auto"),
  /** Which of Zenoti's documented answer variants the embedded sandbox gives (decision 035). */
  SANDBOX_TENANT_PROFILE: z.enum(["sandbox", "strict"]).default("sandbox"),
  /** How long a chosen slot is held, in seconds (sandbox only; Zenoti decides its own). */
  SANDBOX_HOLD_SECONDS: z.coerce.number().int().min(1).max(3600).default(600),

  /** Sandbox knobs (embedded default only). */
  /** Unset: a key is generated on first start and kept in DATA_DIR/sandbox-api-key. */
  SANDBOX_API_KEY: optionalString.pipe(z.string().min(8).optional()),
  SANDBOX_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(0),

  /** The stores of our own records. Set both to use Firestore; otherwise SQLite under DATA_DIR. */
  FIRESTORE_PROJECT_ID: optionalString,
  FIRESTORE_CREDENTIALS_JSON: optionalString,

  /** Geocoding. Set to use Google Maps; otherwise the offline US ZIP table. */
  GOOGLE_MAPS_API_KEY: optionalString,

  /** Production messages: an SMTP URL (smtp://user:pass@host:587) and sender; texts through an SMS webhook. */
  SMTP_URL: optionalString,
  MAIL_FROM: z.string().default("Glow Clinic <hello@glowclinic.example>"),
  SMS_WEBHOOK_URL: z.url().optional(),

  /** The development outbox page at /dev/outbox. Default: on with the embedded sandbox; never with a real back end. */
  DEV_OUTBOX: booleanFlag,
  /** The outbox page answers only requests from this machine unless this is set (a shared test server). */
  DEV_OUTBOX_ALLOW_REMOTE: booleanFlag,

  /** Medical downtime windows in days per kind of treatment, e.g. "peel=14,lhr=28,facial=7". */
  MEDICAL_DOWNTIME_DAYS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (!value?.trim()) return DEFAULT_DOWNTIME_DAYS;
      const windows = parseDowntimeWindows(value);
      if (!windows) {
        ctx.addIssue({
          code: "custom",
          message:
            "expected kind=days pairs, e.g. peel=14,lhr=28 (kinds: facial, peel, lhr, partial-face, sculpting, fixer, consultation, other)",
        });
        return z.NEVER;
      }
      return windows;
    }),

  /**
   * The one message with a link back to an unfinished booking (decision 059): how long after the
   * guest stopped it is sent, in minutes (0: at the next pass), and the clinic's night hours on its
   * own clock, when none is sent ("21:00-08:00", or "off").
   */
  RECOVERY_DELAY_MINUTES: z.coerce.number().int().min(0).max(10_080).default(60),
  RECOVERY_NIGHT_HOURS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (!value?.trim()) return DEFAULT_NIGHT_HOURS;
      const night = parseNightHours(value);
      if (night === undefined) {
        ctx.addIssue({
          code: "custom",
          message: 'expected HH:MM-HH:MM on the clinic\'s clock, e.g. 21:00-08:00, or "off"',
        });
        return z.NEVER;
      }
      return night;
    }),

  /** Clinic shown when no clinic is within the search radius; defaults to the first clinic. */
  DEFAULT_CENTER_ID: optionalString,

  /**
   * Shared counters (the abuse limits) and catalog copies in Redis, for several instances:
   * redis:// or rediss://. Unset: in this process's memory (one instance only).
   */
  REDIS_URL: optionalString.pipe(
    z
      .string()
      .refine((value) => /^rediss?:\/\/[^\s]+$/.test(value), "expected a redis:// or rediss:// URL")
      .optional(),
  ),

  /** "off" records no analytics event at all (the bench compares the two). */
  ANALYTICS: z.enum(["on", "off"]).default("on"),
  /** Analytics: the collector batches are posted to. Unset: JSON lines under DATA_DIR/analytics/. */
  ANALYTICS_URL: z.url().optional(),
  /** Sent as a bearer token to the collector, when it wants one. */
  ANALYTICS_WRITE_KEY: optionalString,
  /** Emails and phone numbers go into events only when the collector is meant to receive them. */
  ANALYTICS_CONTACT_FIELDS: booleanFlag,

  /** Lead webhooks: a new registration or a new guest's booking is posted to each one set. */
  LEAD_WEBHOOK_AUTOMATION_URL: z.url().optional(),
  LEAD_WEBHOOK_HOOKS_URL: z.url().optional(),
  LEAD_WEBHOOK_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(MIN_LEAD_WEBHOOK_TIMEOUT_MS)
    .max(MAX_LEAD_WEBHOOK_TIMEOUT_MS)
    .default(LEAD_WEBHOOK_TIMEOUT_MS),

  /** Error reporting to Sentry (server and browser). Unset: errors are only logged. */
  SENTRY_DSN: z.url().optional(),
  SENTRY_ENVIRONMENT: optionalString,
  SENTRY_TRACES_SAMPLE_RATE: z.coerce.number().min(0).max(1).default(0),
});

/** A `key=Zone` list read into a map, every bad pair named. */
function zoneSetting(readKey: (key: string) => string | null, keyName: string) {
  return z
    .string()
    .optional()
    .transform((value, ctx) => {
      const parsed = parseZoneSetting(value, readKey);
      if ("problem" in parsed) {
        ctx.addIssue({ code: "custom", message: `${parsed.problem}; the key is ${keyName}` });
        return z.NEVER;
      }
      return parsed.entries;
    });
}

/** Unset, only a proxy on this machine is believed: any host of a private network could otherwise pick its address. */
export const DEFAULT_TRUST_PROXY = ["loopback"];
const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

/** An address, an address/prefix, or an address/netmask, as Express's proxy list takes them. */
function isProxyAddress(entry: string): boolean {
  const [address, range, ...rest] = entry.split("/");
  const family = isIP(address);
  if (!family || rest.length > 0) return false;
  if (range === undefined) return true;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(range) === 4;
}

/**
 * The "trust proxy" value for Express: a list, a hop count or false. "true" (trust any sender) is
 * refused: every client could then choose its own address and step around the limits.
 */
export function parseTrustProxy(value: string | undefined): string[] | number | false | null {
  const text = value?.trim() ?? "";
  if (text === "") return DEFAULT_TRUST_PROXY;
  if (text === "false") return false;
  if (/^\d+$/.test(text)) return Number(text) <= 32 ? Number(text) : null;
  const entries = text.split(",").map((entry) => entry.trim());
  return entries.every((entry) => PROXY_NAMES.has(entry) || isProxyAddress(entry)) ? entries : null;
}

type Source = Record<string, string | undefined>;

/**
 * Rules between settings, checked on the raw values so that they are reported together with any
 * type errors in the same message.
 */
function crossFieldProblems(source: Source): string[] {
  const set = (key: string) => Boolean(source[key]?.trim());
  const problems: string[] = [];
  const auth = source.SPA_AUTH?.trim() || "apikey";
  if (set("SPA_BASE_URL") && auth === "apikey" && !set("SPA_API_KEY")) {
    problems.push("SPA_API_KEY: required when SPA_BASE_URL is set with SPA_AUTH=apikey");
  }
  if (set("SPA_BASE_URL") && auth === "token") {
    for (const key of ["SPA_USERNAME", "SPA_PASSWORD", "SPA_CLIENT_ID"]) {
      if (!set(key)) problems.push(`${key}: required when SPA_AUTH=token`);
    }
    if (source.SPA_TOKEN_ENDPOINT?.trim() === "v1") {
      for (const key of ["SPA_ACCOUNT_NAME", "SPA_APP_SECRET"]) {
        if (!set(key)) problems.push(`${key}: required when SPA_TOKEN_ENDPOINT=v1`);
      }
    }
  }
  if (set("SPA_BASE_URL") && !set("SPA_AVAILABILITY_GUEST_ID")) {
    problems.push(
      "SPA_AVAILABILITY_GUEST_ID: required when SPA_BASE_URL is set. Create one guest in Zenoti for reading open times (with the contact fields your organisation requires) and give its id here",
    );
  }
  if (set("FIRESTORE_PROJECT_ID") !== set("FIRESTORE_CREDENTIALS_JSON")) {
    const missing = set("FIRESTORE_PROJECT_ID") ? "FIRESTORE_CREDENTIALS_JSON" : "FIRESTORE_PROJECT_ID";
    problems.push(`${missing}: set FIRESTORE_PROJECT_ID and FIRESTORE_CREDENTIALS_JSON together`);
  }
  if (set("SPA_BASE_URL") && ["true", "1"].includes(source.DEV_OUTBOX?.trim() ?? "")) {
    problems.push(
      "DEV_OUTBOX: the outbox page shows one-time codes; it is never available with a real back end (SPA_BASE_URL)",
    );
  }
  if (set("SPA_BASE_URL") && source.PASSWORD_HASH_COST?.trim() === "low") {
    problems.push(
      "PASSWORD_HASH_COST: low is for test servers on the embedded sandbox; it is never allowed with a real back end (SPA_BASE_URL)",
    );
  }
  if ((source.NODE_ENV ?? "production") === "production" && set("SPA_BASE_URL") && !set("SESSION_SECRETS")) {
    problems.push("SESSION_SECRETS: required in production with a real spa back end");
  }
  if (
    (source.NODE_ENV ?? "production") === "production" &&
    set("SPA_BASE_URL") &&
    !set("SMTP_URL") &&
    !set("SMS_WEBHOOK_URL")
  ) {
    problems.push(
      "SMTP_URL or SMS_WEBHOOK_URL: required in production with a real spa back end; without one no one-time code (sign-in, password reset, existing clients) can reach a customer",
    );
  }
  return problems;
}

export type Env = Omit<
  z.infer<typeof EnvSchema>,
  | "DEV_OUTBOX"
  | "DEV_OUTBOX_ALLOW_REMOTE"
  | "SPA_AVAILABILITY_GUEST_ID"
  | "ANALYTICS_CONTACT_FIELDS"
  | "RENDER_MEMO_VERIFY"
> & {
  DEV_OUTBOX: boolean;
  RENDER_MEMO_VERIFY: boolean;
  ANALYTICS_CONTACT_FIELDS: boolean;
  DEV_OUTBOX_ALLOW_REMOTE: boolean;
  SPA_AVAILABILITY_GUEST_ID: string;
};

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "EnvError";
  }
}

/** Parses the environment, naming every bad variable in one error. */
export function parseEnv(source: Source = process.env): Env {
  const result = EnvSchema.safeParse(source);
  const problems = [
    ...(result.success
      ? []
      : result.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`)),
    ...crossFieldProblems(source),
  ];
  if (problems.length > 0 || !result.success) throw new EnvError(problems);
  return {
    ...result.data,
    DEV_OUTBOX: !result.data.SPA_BASE_URL && (result.data.DEV_OUTBOX ?? true),
    DEV_OUTBOX_ALLOW_REMOTE: result.data.DEV_OUTBOX_ALLOW_REMOTE ?? false,
    ANALYTICS_CONTACT_FIELDS: result.data.ANALYTICS_CONTACT_FIELDS ?? false,
    RENDER_MEMO_VERIFY: result.data.RENDER_MEMO_VERIFY ?? false,
    // Required with a real back end (checked above); the embedded sandbox seeds this guest.
    SPA_AVAILABILITY_GUEST_ID: result.data.SPA_AVAILABILITY_GUEST_ID ?? EMBEDDED_AVAILABILITY_GUEST_ID,
  };
}
