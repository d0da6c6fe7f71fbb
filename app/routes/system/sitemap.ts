import { href } from "react-router";
import { orUnavailable } from "#server/unavailable.server";
import { siteOrigin } from "#server/site.server";
import type { Route } from "./+types/sitemap";

function escapeXml(value: string): string {
  return value.replace(
    /[<>&'"]/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c] ?? c,
  );
}

/** Every public page: home, locations (list and map), each clinic, the legal pages. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const origin = siteOrigin(request, context);
  const centers = await orUnavailable(() => context.services.catalog.listCenters());
  const paths = [
    href("/"),
    href("/locations"),
    `${href("/locations")}?view=map`,
    ...centers.map((c) => href("/locations/:slug", { slug: c.slug })),
    href("/terms"),
    href("/privacy"),
  ];
  const body = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...paths.map((p) => `  <url><loc>${escapeXml(origin + p)}</loc></url>`),
    "</urlset>",
    "",
  ].join("\n");
  return new Response(body, {
    headers: { "content-type": "application/xml; charset=utf-8", "cache-control": "public, max-age=3600" },
  });
}
