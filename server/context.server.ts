import path from "node:path";
import { generatedSecret, preparePrivateFile, sandboxApiKey } from "./data-dir.server";
import type { Env } from "./env.server";
import type { Geocoder } from "./geo/geocoder.server";
import { createZipTableGeocoder } from "./geo/zip-table-geocoder.server";
import { createSessionCookies, type SessionCookies } from "./session.server";
import { createCachedCatalog, type CachedCatalog } from "./spa/catalog-cache.server";
import { createSpaClient, type SpaClient } from "./spa/client.server";
import { createSharedCatalogStore } from "./spa/shared-catalog.server";
import type { SpaAuth } from "./spa/http.server";
import { withCachedConfiguration } from "./store/cached-configuration.server";
import { createSqliteStores } from "./store/sqlite-store.server";
import type { Stores } from "./store/stores.server";
import { createOutboxNotifier, type Notifier } from "./notify/notifier.server";
import { createLeadWebhooks, type LeadWebhooks } from "./leads/lead-webhooks.server";
import { createAnalytics, type Analytics } from "./analytics/analytics.server";
import { currentRequestId } from "./observability/logger.server";
import { createManageLinks, type ManageLinks } from "./appointments/manage-link.server";
import { createLinkSigner, type LinkSigner } from "./booking/sms-link.server";
import { createAccountService, type AccountService } from "./accounts/account-service.server";
import { createRateLimiter, type RateLimiter } from "./accounts/rate-limit.server";
import { createCallGovernorFromEnv, type CallGovernor } from "./spa/call-governor.server";
import { hostedPageOrigins } from "./booking/payment-step.server";
import { createSpamTrap, type SpamTrap } from "./limits/spam-trap.server";

/** Everything a loader or action may reach, built once at start from the configuration. */
export type Services = {
  env: Env;
  spa: SpaClient;
  catalog: CachedCatalog;
  stores: Stores;
  geocoder: Geocoder;
  notifier: Notifier;
  /** Public origins the hosted payment pages may be on (the spa back end's). */
  hostedPaymentOrigins: string[];
  /**
   * With the embedded sandbox, the path its hosted pages are served under on the origin the guest
   * is using (the app's own, whatever its public name); null with a real back end.
   */
  embeddedHostedPath: string | null;
  /** Signs and checks the guest tokens of texted booking links. */
  linkSigner: LinkSigner;
  /** Signs and reads the links that open one visit for a guest without an account. */
  manageLinks: ManageLinks;
  accounts: AccountService;
  /** New leads (a registration, a new guest's booking) for the chain's marketing webhooks. */
  leads: LeadWebhooks;
  /** The funnel's events, recorded on the server so they exist without JavaScript (decision 026). */
  analytics: Analytics;
  rateLimiter: RateLimiter;
  /** The hidden field of the public sign-up forms (decision 052). */
  spamTrap: SpamTrap;
  /** Zenoti's calls a minute for the organisation, shared out by priority (decision 036); null when SPA_CALL_GOVERNOR is off. */
  callGovernor: CallGovernor | null;
  sessions: SessionCookies;
};

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
    const { db, close } = connectFirestore({ projectId: env.FIRESTORE_PROJECT_ID, credentialsJson: env.FIRESTORE_CREDENTIALS_JSON });
    return createFirestoreStores(db, close);
  }
  const file = path.join(env.DATA_DIR, "store.sqlite");
  preparePrivateFile(file);
  return createSqliteStores(file);
}

async function createNotifier(env: Env): Promise<Notifier> {
  if (env.SMTP_URL || env.SMS_WEBHOOK_URL) {
    const { createSmtpNotifier } = await import("./notify/smtp-notifier.server");
    return createSmtpNotifier({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, smsWebhookUrl: env.SMS_WEBHOOK_URL, timeoutMs: env.SPA_TIMEOUT_MS });
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
    timeZones: { byCenter: env.SPA_CENTER_TIME_ZONES, byZoneId: new Map([...env.SPA_TIME_ZONE_IDS].map(([id, zone]) => [Number(id), zone])) },
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
    await seedEmbeddedStores(stores);
  }
  const spaBaseUrl = env.SPA_BASE_URL ?? options.sandboxBaseUrl;
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
    hostedPaymentOrigins: env.SPA_BASE_URL ? hostedPageOrigins(spaBaseUrl, env.HOSTED_PAYMENT_ORIGINS) : env.HOSTED_PAYMENT_ORIGINS,
    embeddedHostedPath: env.SPA_BASE_URL ? null : `${new URL(spaBaseUrl).pathname.replace(/\/$/, "")}/hosted/`,
    linkSigner: createLinkSigner(secrets),
    manageLinks: createManageLinks(secrets),
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
