import { siteOrigin } from "#server/site.server";
import type { Route } from "./+types/robots";

export function loader({ request, context }: Route.LoaderArgs) {
  const body = [
    "User-agent: *",
    "Disallow: /appointment/",
    "Disallow: /account/",
    "Disallow: /error",
    "Disallow: /spa-sandbox/",
    "Allow: /",
    "",
    `Sitemap: ${siteOrigin(request, context)}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "public, max-age=3600" },
  });
}
