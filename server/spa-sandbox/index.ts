import express, { type NextFunction, type Request, type Response } from "express";
import { randomBytes } from "node:crypto";
import { isFromThisMachine } from "../loopback.server";
import { mountBooking } from "./booking";
import { catalogImagesRouter } from "./catalog-images";
import { mountCatalog } from "./catalog";
import { openSandboxDb, type SandboxDb } from "./db";
import { mountCoupons, seedDemoGuestCoupons } from "./coupons";
import { DEMO_GUEST_ID, seedDemoGuest } from "./demo-guest";
import { answerAsTenant, aspNetMessage, v1Error } from "./errors";
import { mountGuests, type MandatoryGuestField } from "./guests";
import { mountMemberships } from "./memberships";
import { mountPayments } from "./payments";
import { mountSales } from "./sales";
import { mountVisits } from "./visits";
import { SANDBOX_PROFILE, type TenantProfile } from "./tenant-profiles";

/** An employee login; `/v1/tokens` also checks the account name and app secret when they are set. */
export type SandboxUser = {
  username: string;
  password: string;
  clientId: string;
  accountName?: string;
  appSecret?: string;
};

export type SandboxOptions = {
  /** SQLite file, or ":memory:". */
  file: string;
  apiKeys: string[];
  users?: SandboxUser[];
  /**
   * 0 turns the limiter off. Zenoti's standard plan allows 60 calls a minute: a token bucket of 60,
   * refilled continuously (one call a second).
   */
  rateLimitPerMinute?: number;
  /** How long a reserved slot is held (Zenoti's Webstore holds 10 minutes). */
  holdSeconds?: number;
  /** How long an access token lasts; default 24 hours. */
  tokenLifetimeSeconds?: number;
  /** The organisation's mandatory guest fields; default email and mobile, as a strict tenant has them. */
  mandatoryGuestFields?: MandatoryGuestField[];
  now?: () => number;
  /**
   * Embedded in the app, the sandbox is reached by the customer's browser at the app's own public
   * origin, which is the origin of the redirect_uri the app sends: hosted pages are addressed there.
   * A sandbox started on its own addresses them at the host its API was called on.
   */
  hostedPagesOnCallerOrigin?: boolean;
  /** Which of Zenoti's documented answer variants the sandbox gives (decision 035); default `sandbox`. */
  tenant?: TenantProfile;
};

/** Faults a test can switch on to see how the app copes; never reachable over HTTP. */
export type SandboxFaults = {
  delayMs: number;
  /** Answer every request with this HTTP status and a .NET-shaped error body. */
  failWithStatus: number | null;
  /** How many requests the fault applies to before it clears itself (Infinity: until reset). */
  remaining: number;
};

export type SpaSandbox = {
  router: express.Router;
  db: SandboxDb;
  faults: SandboxFaults;
  resetFaults(): void;
  /** The tenant profile it answers as. */
  tenant: TenantProfile;
  /** Number of API calls answered (auth failures included): lets tests see caching at work. */
  callCount(): number;
  /** API calls by organisation (an API key, or `user:<name>` for a bearer token): the call budget. */
  callsByKey(): Record<string, number>;
  close(): void;
};

/**
 * The sandbox's API answers only the app itself, on this machine: it can read and change every
 * guest's records, so a well-known or leaked key must not be enough from elsewhere. Refusals use
 * Zenoti's shape for an authentication failure.
 */
export function onlyFromThisMachine(req: Request, res: Response, next: NextFunction) {
  if (isFromThisMachine(req)) return next();
  v1Error(res, 403, 403, "The sandbox API answers only requests from this machine.");
}

/** Access tokens last 24 hours, as Zenoti's refresh page says. */
const TOKEN_LIFETIME_SECONDS = 86_400;

export function createSpaSandbox(options: SandboxOptions): SpaSandbox {
  const now = options.now ?? Date.now;
  const db = openSandboxDb(options.file, (created) => seedDemoGuest(created, now()));
  // Her coupons came later than she did: a sandbox made before them gets them too.
  db.transaction(() => seedDemoGuestCoupons(db, DEMO_GUEST_ID, now()))();
  const users = options.users ?? [];
  const faults: SandboxFaults = { delayMs: 0, failWithStatus: null, remaining: 0 };
  let calls = 0;
  const limit = options.rateLimitPerMinute ?? 0;
  const callsByOrganisation = new Map<string, number>();
  const buckets = new Map<string, { tokens: number; refilledAt: number }>();
  const tokenLifetimeSeconds = options.tokenLifetimeSeconds ?? TOKEN_LIFETIME_SECONDS;
  const tenant = options.tenant ?? SANDBOX_PROFILE;

  const router = express.Router({ caseSensitive: false });
  router.use(answerAsTenant(tenant));
  router.use(express.json({ limit: "100kb" }));
  router.use(express.urlencoded({ extended: false, limit: "10kb" }));

  router.use((req, res, next) => {
    calls += 1;
    if (faults.remaining <= 0) return next();
    faults.remaining -= 1;
    const { delayMs, failWithStatus } = faults;
    const proceed = () => {
      if (failWithStatus) {
        res.status(failWithStatus).json({ Message: "An error has occurred.", StatusCode: failWithStatus });
      } else next();
    };
    if (delayMs > 0) setTimeout(proceed, delayMs).unref();
    else proceed();
  });

  // The hosted card page is the guest's browser talking to the "processor": no API credentials, and
  // reachable from anywhere. Everything after it is API, for the app on this machine only.
  const hosted = express.Router();
  router.use(hosted);
  // The catalog's pictures are fetched by the guest's browser too, from the organisation's image host.
  router.use("/images", catalogImagesRouter());
  router.use(onlyFromThisMachine);
  router.use(organisationLimit);

  // Legacy token endpoint: form-encoded, OAuth-style answer.
  router.post("/Token", (req, res) => {
    const body = (req.body ?? {}) as Record<string, string>;
    if (body.grant_type !== "password") {
      return res.status(400).json({ error: "unsupported_grant_type" });
    }
    const user = users.find(
      (u) => u.username === body.username && u.password === body.password && u.clientId === body.clientid,
    );
    if (!user) {
      return res
        .status(400)
        .json({ error: "invalid_grant", error_description: "The user name or password is incorrect." });
    }
    res.json({ access_token: issueToken(user.username), token_type: "bearer", expires_in: tokenLifetimeSeconds });
  });

  // Current token endpoint: JSON body, credentials block (Zenoti's sample).
  router.post("/v1/tokens", (req, res) => {
    const body = (req.body ?? {}) as Record<string, string>;
    const user = users.find(
      (u) =>
        u.username === body.user_name &&
        u.password === body.password &&
        u.clientId === body.app_id &&
        (u.accountName === undefined || u.accountName === body.account_name) &&
        (u.appSecret === undefined || u.appSecret === body.app_secret),
    );
    if (body.grant_type !== "password" || !user) {
      return v1Error(res, 401, 401, "Invalid credentials", { credentials: null });
    }
    const token = issueToken(user.username);
    const expiry = new Date(now() + tokenLifetimeSeconds * 1000).toISOString();
    res.json({
      credentials: {
        access_token: token,
        access_token_expiry: expiry,
        refresh_token: randomBytes(24).toString("hex"),
        refresh_token_expiry: new Date(now() + 90 * 86_400_000).toISOString(),
        token_type: "bearer",
        token_id: randomBytes(8).toString("hex"),
        app_id: user.clientId,
        user_type: "Employee",
      },
      login_policy_evaluation: {
        allowlogin: true,
        policyaction: 0,
        policyactiondata: null,
        userid: null,
        passwordexpiryreminder: false,
      },
      error: null,
    });
  });

  router.use("/v1", (req, res, next) => {
    if (isAuthorized(req.get("authorization"))) return next();
    v1Error(res, 401, 401, "Authorization has been denied for this request.");
  });

  mountCatalog(router, db, { tenant });
  mountGuests(router, db, {
    now,
    tenant,
    guestSettings: { mandatoryFields: options.mandatoryGuestFields ?? ["email", "mobile_phone"] },
  });
  mountBooking(router, db, { now, holdSeconds: options.holdSeconds ?? 600 });
  mountPayments(router, hosted, db, {
    now,
    tenant,
    hostedPagesOnCallerOrigin: options.hostedPagesOnCallerOrigin ?? false,
  });
  mountVisits(router, db, { now });
  mountMemberships(router, db, { now });
  mountSales(router, db, { now, tenant });
  mountCoupons(router, db, { now });

  router.use((req, res) => {
    aspNetMessage(
      res,
      404,
      `No HTTP resource was found that matches the request URI '${req.originalUrl.slice(0, 200)}'.`,
    );
  });

  router.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    const status = (error as { status?: number }).status ?? 500;
    if (status >= 400 && status < 500) return aspNetMessage(res, status, "The request is invalid.");
    aspNetMessage(res, 500, "An error has occurred.");
  });

  /**
   * Zenoti counts calls per organisation. Here an API key is an organisation, and a bearer token
   * counts for its user's; calls with neither (the token endpoints) count as "anonymous".
   */
  function organisationOf(req: Request): string {
    const match = /^(apikey|bearer)\s+(\S+)$/i.exec(req.get("authorization")?.trim() ?? "");
    if (!match) return "anonymous";
    if (match[1].toLowerCase() === "apikey") return match[2];
    const row = db.prepare("SELECT username FROM access_tokens WHERE token = ?").get(match[2]) as
      | { username: string }
      | undefined;
    return row ? `user:${row.username}` : "anonymous";
  }

  /**
   * Zenoti's token bucket (`60;w=60;b=60`), per organisation: at most `limit` calls kept (the
   * burst), refilled continuously at `limit` a minute, with its headers on every answer:
   * `RateLimit-Remaining`, the whole calls left; `RateLimit-Reset`, the seconds until the bucket is
   * full again (Zenoti's "refreshed to the maximum after"); and with the 429 of an empty bucket,
   * `Retry-After`, the seconds until the next call may go. `refilledAt` is when `tokens` was counted.
   */
  function organisationLimit(req: Request, res: Response, next: NextFunction) {
    const organisation = organisationOf(req);
    callsByOrganisation.set(organisation, (callsByOrganisation.get(organisation) ?? 0) + 1);
    if (limit <= 0) return next();
    const perSecond = limit / 60;
    const at = now();
    const bucket = buckets.get(organisation) ?? { tokens: limit, refilledAt: at };
    bucket.tokens = Math.min(limit, bucket.tokens + (Math.max(0, at - bucket.refilledAt) / 1000) * perSecond);
    bucket.refilledAt = Math.max(bucket.refilledAt, at);
    buckets.set(organisation, bucket);
    const secondsUntil = (tokens: number) => Math.max(1, Math.ceil((tokens - bucket.tokens) / perSecond));
    res.setHeader("Organization-RateLimit-Limit", `${limit};w=60;b=${limit}`);
    if (bucket.tokens < 1) {
      res.setHeader("RateLimit-Remaining", "0");
      res.setHeader("RateLimit-Reset", String(secondsUntil(limit)));
      res.setHeader("Retry-After", String(secondsUntil(1)));
      return v1Error(res, 429, 429, `API calls quota exceeded! maximum admitted ${limit} per 1m.`);
    }
    bucket.tokens -= 1;
    res.setHeader("RateLimit-Remaining", String(Math.floor(bucket.tokens)));
    res.setHeader("RateLimit-Reset", String(secondsUntil(limit)));
    next();
  }

  function issueToken(username: string): string {
    const token = randomBytes(32).toString("base64url");
    const expires = now() + tokenLifetimeSeconds * 1000;
    db.prepare("DELETE FROM access_tokens WHERE expires_at < ?").run(now());
    db.prepare("INSERT INTO access_tokens (token, username, expires_at) VALUES (?, ?, ?)").run(
      token,
      username,
      expires,
    );
    return token;
  }

  function isAuthorized(header: string | undefined): boolean {
    if (!header) return false;
    const match = /^(apikey|bearer)\s+(\S+)$/i.exec(header.trim());
    if (!match) return false;
    const [, scheme, credential] = match;
    if (scheme.toLowerCase() === "apikey") return options.apiKeys.includes(credential);
    const row = db.prepare("SELECT expires_at FROM access_tokens WHERE token = ?").get(credential) as
      | { expires_at: number }
      | undefined;
    return Boolean(row && row.expires_at > now());
  }

  return {
    router,
    db,
    faults,
    resetFaults() {
      Object.assign(faults, { delayMs: 0, failWithStatus: null, remaining: 0 });
    },
    tenant,
    callCount: () => calls,
    callsByKey: () => Object.fromEntries(callsByOrganisation),
    close: () => db.close(),
  };
}
