import type { ClientOnErrorFunction } from "react-router";
import { init, reactRouterTracingIntegration, sentryOnError } from "@sentry/react-router";
import { keepTransaction, scrubBreadcrumb, scrubEvent } from "./error-scrub";

/** What the page's `error-reporting` meta names (root.tsx), only when error reporting is configured. */
export type ReportingSettings = { dsn: string; environment: string; tracesSampleRate: number };

/**
 * Starts Sentry's browser SDK with the scrubbing rules, and gives back the function that reports a
 * route's error. Loaded by entry.client.tsx only on a page that names a DSN. Its imports are named,
 * so the bundle keeps only the parts of the SDK used here.
 */
export function startSentry({ dsn, environment, tracesSampleRate }: ReportingSettings): ClientOnErrorFunction {
  const tracing = tracesSampleRate > 0;
  init({
    dsn,
    environment,
    sendDefaultPii: false,
    // No tracing unless asked for; no session replay at all.
    tracesSampleRate: tracing ? tracesSampleRate : undefined,
    integrations: tracing ? [reactRouterTracingIntegration()] : [],
    beforeSend: (event) => scrubEvent(event),
    beforeSendTransaction: (event) => keepTransaction(event),
    beforeBreadcrumb: (breadcrumb) => scrubBreadcrumb(breadcrumb),
  });
  return (error, info) => sentryOnError(error, info);
}
