import type { Services } from "../services";
import { logger } from "../observability/logger.server";

/**
 * Zenoti serves its hosted card page on the organisation's own host, `https://<org>.zenoti.com`,
 * not on the API's (decision 035). With the API on a host of `zenoti.com`, any HTTPS host one label
 * under it is the organisation's: allowed without configuration, as the origin pattern
 * `https://*.zenoti.com` (which the CSP's form-action takes as it is).
 */
export function derivedHostedPageOrigins(spaBaseUrl: string): string[] {
  const api = new URL(spaBaseUrl);
  return api.protocol === "https:" && /(^|\.)zenoti\.com$/i.test(api.hostname) ? ["https://*.zenoti.com"] : [];
}

/** Where a real back end's hosted pages may be: the API's origin, the organisation's host, and the configured origins. */
export function hostedPageOrigins(spaBaseUrl: string, configured: string[]): string[] {
  return [new URL(spaBaseUrl).origin, ...derivedHostedPageOrigins(spaBaseUrl), ...configured];
}

/** An origin, or a `https://*.domain` pattern that stands for one HTTPS label under the domain on the default port. */
function originMatches(allowed: string, page: URL): boolean {
  const wildcard = /^https:\/\/\*\.([a-z0-9.-]+)$/i.exec(allowed);
  if (!wildcard) return allowed === page.origin;
  const domain = wildcard[1].toLowerCase();
  const host = page.hostname.toLowerCase();
  return (
    page.protocol === "https:" &&
    page.port === "" &&
    host.endsWith(`.${domain}`) &&
    /^[a-z0-9-]+$/.test(host.slice(0, -domain.length - 1))
  );
}

/**
 * A hosted payment page a guest may be sent to: on the back end's payment origins (the API's, the
 * organisation's host, the configured ones) or, with the embedded sandbox, under its hosted path on
 * the origin the guest is using (`returnTo`'s). A guest is never sent anywhere else.
 */
export function isHostedPageAllowed(
  services: Pick<Services, "hostedPaymentOrigins" | "embeddedHostedPath">,
  uri: string,
  returnTo: string,
): boolean {
  const page = new URL(uri);
  if (services.hostedPaymentOrigins.some((allowed) => originMatches(allowed, page))) return true;
  const embedded = services.embeddedHostedPath;
  if (embedded && page.origin === new URL(returnTo).origin && page.pathname.startsWith(embedded)) return true;
  logger.error("hosted payment page on an unexpected origin", { origin: page.origin });
  return false;
}
