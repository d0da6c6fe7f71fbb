import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { isRouteErrorResponse, type ClientOnErrorFunction } from "react-router";
import { HydratedRouter } from "react-router/dom";
import type { ReportingSettings } from "./lib/error-reporting.client";

type RouteError = Parameters<ClientOnErrorFunction>;

/** The page names a DSN (root.tsx) only when error reporting is configured. */
function reportingSettings(): ReportingSettings | null {
  const content = document.querySelector<HTMLMetaElement>('meta[name="error-reporting"]')?.content;
  if (!content) return null;
  try {
    const settings = JSON.parse(content) as ReportingSettings;
    return typeof settings.dsn === "string" ? settings : null;
  } catch {
    return null;
  }
}

const settings = reportingSettings();

/** Errors of loaders, actions and rendering seen before Sentry has loaded wait for it, a few at most. */
let reportRouteError: ((...args: RouteError) => void) | null = null;
const waiting: RouteError[] = [];

const onRouteError: ClientOnErrorFunction = (error, info) => {
  // A thrown answer (a 404 page, a redirect) is not an error.
  if (isRouteErrorResponse(error) || error instanceof Response) return;
  if (reportRouteError) reportRouteError(error, info);
  else if (waiting.length < 10) waiting.push([error, info]);
};

/**
 * Sentry's browser SDK and the scrubbing rules are loaded only on a page that names a DSN: visitors
 * of a site without error reporting download none of it. Hydration does not wait for them.
 */
async function startErrorReporting(reporting: ReportingSettings) {
  const { startSentry } = await import("./lib/error-reporting.client");
  reportRouteError = startSentry(reporting);
  for (const [error, info] of waiting.splice(0)) reportRouteError(error, info);
}

if (settings) {
  startErrorReporting(settings).catch(() => {
    // Reporting is a help, never a reason for the page to fail: a chunk that did not load is let go.
  });
}

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter onError={settings ? onRouteError : undefined} />
    </StrictMode>,
  );
});
