import type { RequestContext } from "./request-context.server";

/** The public origin for canonical links, Open Graph tags and the sitemap. */
export function siteOrigin(request: Request, context: RequestContext): string {
  return (context.services.env.PUBLIC_URL ?? new URL(request.url).origin).replace(/\/+$/, "");
}
