import * as Sentry from "@sentry/react-router";
import { keepTransaction, scrubBreadcrumb, scrubEvent } from "~/lib/error-scrub";
import {
  firstReport,
  logException,
  logMessage,
  type ErrorReporter,
  type ErrorReporterOptions,
  type ReportContext,
} from "./error-reporter.server";

/**
 * The Sentry adapter (decision 027), loaded only when SENTRY_DSN is set. Errors are still logged
 * once, as with the log reporter: the log stays the full record, Sentry the one that alerts.
 */
export function createSentryReporter(
  settings: { dsn: string; environment: string; tracesSampleRate: number },
  options: ErrorReporterOptions = {},
): ErrorReporter {
  Sentry.init({
    dsn: settings.dsn,
    environment: settings.environment,
    // 0 leaves tracing off altogether rather than making spans that are never sent.
    tracesSampleRate: settings.tracesSampleRate > 0 ? settings.tracesSampleRate : undefined,
    sendDefaultPii: false,
    beforeSend: (event) => scrubEvent(event),
    beforeSendTransaction: (event) => keepTransaction(event),
    beforeBreadcrumb: (breadcrumb) => scrubBreadcrumb(breadcrumb),
    ...(options.transport ? { transport: options.transport } : {}),
  });

  const tagsOf = (context?: ReportContext) =>
    context
      ? { tags: Object.fromEntries(Object.entries(context).filter(([, value]) => value !== undefined)) }
      : undefined;

  return {
    kind: "sentry",
    captureException(error, context) {
      if (!firstReport(error)) return;
      logException(error, context);
      Sentry.captureException(error, tagsOf(context));
    },
    captureMessage(message, context) {
      logMessage(message, context);
      Sentry.captureMessage(message, { level: "error", ...tagsOf(context) });
    },
    flush: (timeoutMs) => Sentry.flush(timeoutMs),
  };
}
