import type { Request as ExpressRequest } from "express";
import type { RequestContext } from "./request-context.server";

/** A host as a Host header may name one: a name or an IPv4 address, or a bracketed IPv6 address, and a port. */
const HOST = /^(?:[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?|\[[0-9a-f:.]{2,45}\])(?::\d{1,5})?$/i;

/**
 * The origin a request was sent to, as Express reads it: its Host header, or the X-Forwarded-Host
 * and X-Forwarded-Proto of a proxy that `TRUST_PROXY` names (never a header anyone else sent).
 * Not React Router's `request.url`, whose adapter takes the port from X-Forwarded-Host whoever sent
 * it. Null when the host is not one (a request no browser would send).
 */
export function requestOrigin(req: Pick<ExpressRequest, "protocol" | "host">): string | null {
  const protocol = req.protocol === "https" ? "https" : "http";
  const host = req.host;
  return host && HOST.test(host) ? `${protocol}://${host.toLowerCase()}` : null;
}

/**
 * The public origin: canonical links, Open Graph tags and the sitemap, and every address a back-end
 * page (the hosted card page, the bank's check) sends the guest back to. `PUBLIC_URL` when set;
 * otherwise the origin the request was sent to (`requestOrigin`), so a forged X-Forwarded-Host can
 * never choose where a guest is sent back (decision 041).
 */
export function siteOrigin(request: Request, context: RequestContext): string {
  return (context.services.env.PUBLIC_URL ?? context.origin ?? new URL(request.url).origin).replace(/\/+$/, "");
}
