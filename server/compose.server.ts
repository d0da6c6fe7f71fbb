import path from "node:path";
import { createAccountService } from "./accounts/account-service.server";
import { passwordCost } from "./accounts/passwords.server";
import { createMemoryRateLimiter, type RateLimiter } from "./accounts/rate-limit.server";
import { createNoAnalytics, type Analytics } from "./analytics/analytics.server";
import { createThreadedHttpAnalytics } from "./analytics/collector-thread.server";
import { createFileAnalytics } from "./analytics/file-analytics.server";
import { createRecoveryLinks } from "./booking/recovery-link.server";
import { createManageLinks } from "./appointments/manage-link.server";
import { createWaitlistLinks } from "./waitlist/links.server";
import { createLinkSigner } from "./booking/sms-link.server";
import { generatedSecret, preparePrivateFile, sandboxApiKey } from "./data-dir.server";
import type { Env } from "./env.server";
import type { Geocoder } from "./geo/geocoder.server";
import { createZipTableGeocoder } from "./geo/zip-table-geocoder.server";
import { createLeadWebhooks } from "./leads/lead-webhooks.server";
import { createSpamTrap } from "./limits/spam-trap.server";
import { createOutboxNotifier, type Notifier } from "./notify/notifier.server";
import {
  createLogReporter,
  type ErrorReporter,
  type ErrorReporterOptions,
  type ErrorReportingSettings,
} from "./observability/error-reporter.server";
import { currentRequestId } from "./observability/logger.server";
import { hostedPageOrigins } from "./payments/hosted-pages.server";
import type { AccountService, Services } from "./services";
import { createSessionCookies } from "./session.server";
import {
  createCallGovernor,
  createMemoryCallBucket,
  type CallBucket,
  type CallGovernor,
  type CallGovernorEnv,
} from "./spa/call-governor.server";
import { createCachedCatalog } from "./spa/catalog-cache.server";
import { createSpaClient } from "./spa/client.server";
import type { SpaAuth } from "./spa/http.server";
import { noSharedCatalog, type SharedCatalogStore } from "./spa/shared-catalog.server";
import { withCachedConfiguration } from "./store/cached-configuration.server";
import { createSqliteStores } from "./store/sqlite-store.server";
import type { Stores } from "./store/stores.server";
import { createImagePicker, readChainImages } from "./images/images.server";

/*
 * The composition root (decision 049): the one place that picks an adapter for every port from the
 * configuration and builds the services. The ports' contracts are in `server/services.ts` and
 * beside each port; only `server/start.ts`, `scripts/` and the tests that build the whole import this file.
 * The large SDKs and the Redis client are imported only when configured.
 */

/**
 * Without configured secrets, one is made on first start and kept under the data directory, so
 * sessions survive a restart of the embedded setup.
 */
export function sessionSecrets(env: Env): string[] {
  if (env.SESSION_SECRETS) return env.SESSION_SECRETS;
  return [generatedSecret(path.join(env.DATA_DIR, "session-secret"), 48)];
}

/** How the client signs its calls: the configured key or token, or the embedded sandbox's own key. */
export function spaAuth(env: Env): SpaAuth {
  if (!env.SPA_BASE_URL) return { type: "apikey", apiKey: sandboxApiKey(env) };
  if (env.SPA_AUTH === "token") {
    return {
      type: "token",
      username: env.SPA_USERNAME,
      password: env.SPA_PASSWORD,
      clientId: env.SPA_CLIENT_ID,
      endpoint: env.SPA_TOKEN_ENDPOINT,
      accountName: env.SPA_ACCOUNT_NAME,
      appSecret: env.SPA_APP_SECRET,
      deviceId: env.SPA_DEVICE_ID,
    };
  }
  return { type: "apikey", apiKey: env.SPA_API_KEY };
}

/**
 * The production adapters (Firestore, Google Maps) are imported only when configured: their SDKs
 * are large, and the embedded defaults need none of them.
 */
async function createStores(env: Env): Promise<Stores> {
  if (env.FIRESTORE_PROJECT_ID && env.FIRESTORE_CREDENTIALS_JSON) {
    const { connectFirestore, createFirestoreStores } = await import("./store/firestore-store.server");
    const { db, close } = connectFirestore({
      projectId: env.FIRESTORE_PROJECT_ID,
      credentialsJson: env.FIRESTORE_CREDENTIALS_JSON,
    });
    return createFirestoreStores(db, close);
  }
  const file = path.join(env.DATA_DIR, "store.sqlite");
  preparePrivateFile(file);
  return createSqliteStores(file);
}

async function createNotifier(env: Env): Promise<Notifier> {
  if (env.SMTP_URL || env.SMS_WEBHOOK_URL) {
    const { createSmtpNotifier } = await import("./notify/smtp-notifier.server");
    return createSmtpNotifier({
      smtpUrl: env.SMTP_URL,
      from: env.MAIL_FROM,
      smsWebhookUrl: env.SMS_WEBHOOK_URL,
      timeoutMs: env.SPA_TIMEOUT_MS,
    });
  }
  return createOutboxNotifier(path.join(env.DATA_DIR, "outbox.sqlite"));
}

async function createGeocoder(env: Env): Promise<Geocoder> {
  if (env.GOOGLE_MAPS_API_KEY) {
    const { createGoogleGeocoder } = await import("./geo/google-geocoder.server");
    return createGoogleGeocoder({ apiKey: env.GOOGLE_MAPS_API_KEY, timeoutMs: env.SPA_TIMEOUT_MS });
  }
  return createZipTableGeocoder();
}

/** Redis when REDIS_URL is set (its client is loaded only then), else this process's memory. */
export async function createRateLimiter(env: Pick<Env, "REDIS_URL">): Promise<RateLimiter> {
  if (!env.REDIS_URL) return createMemoryRateLimiter();
  const { createRedisRateLimiter } = await import("./accounts/redis-rate-limit.server");
  return createRedisRateLimiter({ url: env.REDIS_URL });
}

/** Nothing with ANALYTICS=off; the collector when ANALYTICS_URL is set; otherwise JSON lines under `<dataDir>/analytics`. */
export function createAnalytics(
  env: Pick<Env, "ANALYTICS" | "ANALYTICS_URL" | "ANALYTICS_WRITE_KEY" | "ANALYTICS_CONTACT_FIELDS">,
  dataDir: string,
): Analytics {
  if (env.ANALYTICS === "off") return createNoAnalytics();
  const includeContact = env.ANALYTICS_CONTACT_FIELDS;
  if (env.ANALYTICS_URL)
    return createThreadedHttpAnalytics({ url: env.ANALYTICS_URL, writeKey: env.ANALYTICS_WRITE_KEY, includeContact });
  return createFileAnalytics(path.join(dataDir, "analytics"), { includeContact });
}

/**
 * Sentry when a DSN is set, the log otherwise. Sentry's SDK is imported only then: with no DSN
 * none of it loads.
 */
export async function createErrorReporter(
  env: ErrorReportingSettings,
  options: ErrorReporterOptions = {},
): Promise<ErrorReporter> {
  if (!env.SENTRY_DSN) return createLogReporter();
  const { createSentryReporter } = await import("./observability/error-reporter-sentry.server");
  return createSentryReporter(
    {
      dsn: env.SENTRY_DSN,
      environment: env.SENTRY_ENVIRONMENT ?? env.NODE_ENV,
      tracesSampleRate: env.SENTRY_TRACES_SAMPLE_RATE,
    },
    options,
  );
}

/** Redis when REDIS_URL is set (its client is loaded only then), else none. */
export async function createSharedCatalogStore(env: Pick<Env, "REDIS_URL">): Promise<SharedCatalogStore> {
  if (!env.REDIS_URL) return noSharedCatalog;
  const { createRedisSharedCatalog } = await import("./spa/redis-shared-catalog.server");
  return createRedisSharedCatalog({ url: env.REDIS_URL });
}

/**
 * The governor every instance shares through Redis when REDIS_URL is set (its client is loaded only
 * then), else one in this process's memory; null when SPA_CALL_GOVERNOR is off (calls go out as they come).
 */
export async function createCallGovernorFromEnv(env: CallGovernorEnv): Promise<CallGovernor | null> {
  if (!env.SPA_CALL_GOVERNOR) return null;
  let bucket: CallBucket;
  if (env.REDIS_URL) {
    const { createRedisCallBucket } = await import("./spa/redis-call-governor.server");
    bucket = await createRedisCallBucket({ url: env.REDIS_URL });
  } else {
    bucket = createMemoryCallBucket();
  }
  return createCallGovernor({
    bucket,
    callsPerBooking: env.SPA_CALLS_PER_BOOKING,
    callsAfterHold: env.SPA_CALLS_AFTER_HOLD,
    readReserve: env.SPA_READ_RESERVE,
  });
}

/** Each event carries the id of the request it was recorded in, as the log lines do. */
function withRequestIds(analytics: Analytics): Analytics {
  return {
    kind: analytics.kind,
    record: (event) => analytics.record(event.requestId ? event : { ...event, requestId: currentRequestId() }),
    flush: () => analytics.flush(),
    close: (timeoutMs) => analytics.close(timeoutMs),
    stats: () => analytics.stats(),
  };
}

export async function createServices(env: Env, options: { sandboxBaseUrl: string }): Promise<Services> {
  const callGovernor = await createCallGovernorFromEnv(env);
  const spa = createSpaClient({
    baseUrl: env.SPA_BASE_URL ?? options.sandboxBaseUrl,
    auth: spaAuth(env),
    timeoutMs: env.SPA_TIMEOUT_MS,
    governor: callGovernor,
    timeZones: {
      byCenter: env.SPA_CENTER_TIME_ZONES,
      byZoneId: new Map([...env.SPA_TIME_ZONE_IDS].map(([id, zone]) => [Number(id), zone])),
    },
    guestSearch: {
      scope: env.SPA_GUEST_SEARCH,
      // The guest open times are read through is the organisation's own: no visitor may be matched to it.
      hiddenGuestIds: [env.SPA_AVAILABILITY_GUEST_ID],
      centerIds: async () => (await services.catalog.listCenters()).map((center) => center.id),
    },
  });
  const [storesRead, geocoder] = await Promise.all([createStores(env), createGeocoder(env)]);
  // Prices, tiers and promo codes are read on every booking step: kept a minute (decision 033).
  const stores = withCachedConfiguration(storesRead);
  if (!env.SPA_BASE_URL && stores.kind === "sqlite") {
    // Sandbox code, loaded only when the sandbox is the back end.
    const { seedEmbeddedStores } = await import("./spa-sandbox/seed-store");
    await seedEmbeddedStores(stores, passwordCost(env.PASSWORD_HASH_COST));
  }
  const spaBaseUrl = env.SPA_BASE_URL ?? options.sandboxBaseUrl;
  // The embedded sandbox is this server: its catalog pictures are asked for by path, on the visitor's origin.
  const imagePolicy = {
    allowedOrigins: env.IMAGE_ORIGINS,
    sameServerOrigin: env.SPA_BASE_URL ? null : new URL(spaBaseUrl).origin,
  };
  const secrets = sessionSecrets(env);
  const services: Services = {
    env,
    spa,
    catalog: createCachedCatalog(spa, {
      ttlMs: env.CATALOG_TTL_SECONDS * 1000,
      staleMs: env.CATALOG_STALE_SECONDS * 1000,
      // With REDIS_URL, the instances share their copies: one Zenoti call per key and TTL for the chain (decision 029).
      shared: await createSharedCatalogStore(env),
    }),
    stores,
    geocoder,
    notifier: await createNotifier(env),
    // The embedded sandbox's pages are on the guest's own origin, not at the address the app calls it on.
    hostedPaymentOrigins: env.SPA_BASE_URL
      ? hostedPageOrigins(spaBaseUrl, env.HOSTED_PAYMENT_ORIGINS)
      : env.HOSTED_PAYMENT_ORIGINS,
    embeddedHostedPath: env.SPA_BASE_URL ? null : `${new URL(spaBaseUrl).pathname.replace(/\/$/, "")}/hosted/`,
    images: createImagePicker(readChainImages(env.CATALOG_IMAGES_FILE, imagePolicy), imagePolicy),
    linkSigner: createLinkSigner(secrets),
    manageLinks: createManageLinks(secrets),
    recoveryLinks: createRecoveryLinks(secrets),
    waitlistLinks: createWaitlistLinks(secrets),
    sessions: createSessionCookies({
      secrets,
      secure: env.COOKIE_SECURE ?? env.NODE_ENV === "production",
    }),
    rateLimiter: await createRateLimiter(env),
    spamTrap: createSpamTrap(secrets),
    callGovernor,
    leads: createLeadWebhooks(env),
    analytics: withRequestIds(createAnalytics(env, env.DATA_DIR)),
    // Set just below: the account service works through the other services.
    accounts: undefined as unknown as AccountService,
  };
  services.accounts = createAccountService(services);
  return services;
}
