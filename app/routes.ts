import { index, layout, prefix, route, type RouteConfig } from "@react-router/dev/routes";

/** Every URL of the product. */
export default [
  index("routes/home.tsx"),

  ...prefix("locations", [
    index("routes/locations/list.tsx"),
    route(":slug", "routes/locations/detail.tsx"),
  ]),

  ...prefix("appointment", [
    layout("routes/appointment/layout.tsx", [
      route("service", "routes/appointment/service.tsx"),
      route("time", "routes/appointment/time.tsx"),
      route("details", "routes/appointment/details.tsx"),
      route("payment", "routes/appointment/payment.tsx"),
      route("cancel", "routes/appointment/cancel.tsx"),
    ]),
    route("confirmation/:appointmentId", "routes/appointment/confirmation.tsx"),
    route("confirmation/:appointmentId/calendar.ics", "routes/appointment/calendar.ts"),
  ]),

  route("terms", "routes/legal/terms.tsx"),
  route("privacy", "routes/legal/privacy.tsx"),

  route("error", "routes/system/error-page.tsx"),
  route("robots.txt", "routes/system/robots.ts"),
  route("sitemap.xml", "routes/system/sitemap.ts"),
  route("404", "routes/system/not-found.tsx", { id: "not-found" }),
  route("*", "routes/system/not-found.tsx", { id: "catch-all" }),
] satisfies RouteConfig;
