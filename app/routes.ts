import { index, layout, prefix, route, type RouteConfig } from "@react-router/dev/routes";

/** Every URL of the product. */
export default [
  index("routes/home.tsx"),

  ...prefix("locations", [index("routes/locations/list.tsx"), route(":slug", "routes/locations/detail.tsx")]),

  ...prefix("appointment", [
    layout("routes/appointment/layout.tsx", [
      route("service", "routes/appointment/service.tsx"),
      route("time", "routes/appointment/time.tsx"),
      route("details", "routes/appointment/details.tsx"),
      route("verify", "routes/appointment/verify.tsx"),
      route("payment", "routes/appointment/payment.tsx"),
      route("cancel", "routes/appointment/cancel.tsx"),
      route("waitlist", "routes/appointment/waitlist.tsx"),
    ]),
    route("confirmation/:appointmentId", "routes/appointment/confirmation.tsx"),
    // The link of the one message a guest who left a booking unfinished asked for (decision 059).
    route("resume/:token", "routes/appointment/resume.tsx"),
    route("confirmation/:appointmentId/calendar.ics", "routes/appointment/calendar.ts"),
    // One visit, opened by the signed link a guest gets with their confirmation (no sign-in).
    route("manage/:token", "routes/visits/manage.tsx"),
    route("manage/:token/reschedule", "routes/visits/reschedule.tsx", { id: "manage-reschedule" }),
    route("manage/:token/cancel", "routes/visits/cancel.tsx", { id: "manage-cancel" }),
    route("manage/:token/rebook", "routes/visits/rebook.ts", { id: "manage-rebook" }),
    route("manage/:token/calendar.ics", "routes/visits/calendar.ts", { id: "manage-calendar" }),
  ]),

  // The links of the waitlist's messages (decision 058).
  route("waitlist/offer/:token", "routes/waitlist/offer.tsx"),
  route("waitlist/leave/:token", "routes/waitlist/leave.tsx"),

  route("login", "routes/account/login.tsx"),
  route("logout", "routes/account/logout.tsx"),
  route("register", "routes/account/register.tsx"),
  route("forgot-password", "routes/account/forgot-password.tsx"),
  route("reset-password", "routes/account/reset-password.tsx"),
  route("password-changed", "routes/account/password-changed.tsx"),
  route("account", "routes/account/dashboard.tsx"),
  route("account/profile", "routes/account/profile.tsx"),
  route("account/appointments", "routes/account/appointments.tsx"),
  route("account/memberships", "routes/account/memberships.tsx"),
  route("account/waitlist", "routes/account/waitlist.tsx"),
  // The same visit pages as under a manage link, for a signed-in guest's own visits.
  route("account/appointments/:id/reschedule", "routes/visits/reschedule.tsx", { id: "account-reschedule" }),
  route("account/appointments/:id/cancel", "routes/visits/cancel.tsx", { id: "account-cancel" }),
  route("account/appointments/:id/rebook", "routes/visits/rebook.ts", { id: "account-rebook" }),
  route("account/appointments/:id/calendar.ics", "routes/visits/calendar.ts", { id: "account-calendar" }),
  route("dev/outbox", "routes/dev/outbox.tsx"),
  route("dev/recovery-messages", "routes/dev/recovery-messages.ts"),
  route("api/users/*", "routes/api/users.ts"),

  route("memberships", "routes/memberships/plans.tsx"),
  route("packages", "routes/packages/list.tsx"),
  route("gift-cards", "routes/gift-cards/buy.tsx"),
  route("purchases/:id", "routes/purchases/status.tsx"),
  route("purchases/:id/card", "routes/purchases/card-return.ts"),
  route("purchases/:id/verified", "routes/purchases/verify-return.ts"),
  route("account/packages", "routes/account/packages.tsx"),
  route("account/gift-cards", "routes/account/gift-cards.tsx"),
  route("account/share-the-glow", "routes/account/share-the-glow.tsx"),
  route("refer/:code", "routes/referrals/landing.tsx"),

  route("terms", "routes/legal/terms.tsx"),
  route("privacy", "routes/legal/privacy.tsx"),

  route("error", "routes/system/error-page.tsx"),
  route("robots.txt", "routes/system/robots.ts"),
  route("sitemap.xml", "routes/system/sitemap.ts"),
  route("404", "routes/system/not-found.tsx", { id: "not-found" }),
  route("*", "routes/system/not-found.tsx", { id: "catch-all" }),
] satisfies RouteConfig;
