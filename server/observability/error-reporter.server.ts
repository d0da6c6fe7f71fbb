import type { NodeOptions } from "@sentry/react-router";
import { scrubText } from "~/lib/error-scrub";
import type { Env } from "../env.server";
import { logger } from "./logger.server";

/**
 * Where unexpected errors go (decision 027): always to the log, once; to Sentry as well when
 * SENTRY_DSN is set. `where` names the place that failed ("request", "promo-count"); the other
 * tags are facts safe to send (a method, a path without its query), never personal data.
 */
export type ReportContext = { where: string } & Record<string, string | number | boolean | undefined>;

export interface ErrorReporter {
  readonly kind: "sentry" | "log";
  captureException(error: unknown, context?: ReportContext): void;
  captureMessage(message: string, context?: ReportContext): void;
  /** Waits until what was captured is sent, at most this long; false when it could not be. */
  flush(timeoutMs: number): Promise<boolean>;
}

export type ErrorReportingSettings = Pick<
  Env,
  "NODE_ENV" | "SENTRY_DSN" | "SENTRY_ENVIRONMENT" | "SENTRY_TRACES_SAMPLE_RATE"
>;

export type ErrorReporterOptions = {
  /** Where Sentry's envelopes go instead of its HTTP transport (the tests keep them in memory). */
  transport?: NodeOptions["transport"];
};

/**
 * An error is reported once however many layers see it: a use case that reports and rethrows is
 * not reported again by the request's handleError. Sentry keeps its own mark; this one covers the log.
 */
const reported = new WeakSet<object>();

export function firstReport(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return true;
  if (reported.has(error)) return false;
  reported.add(error);
  return true;
}

function describe(error: unknown): string {
  return scrubText(error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error));
}

/** The log lines every reporter writes, without personal data. */
export function logException(error: unknown, context?: ReportContext) {
  logger.error("unexpected error", { ...context, error: describe(error) });
}

export function logMessage(message: string, context?: ReportContext) {
  logger.error(scrubText(message), { ...context });
}

/** The embedded default: the log only, nothing sent anywhere. */
export function createLogReporter(): ErrorReporter {
  return {
    kind: "log",
    captureException(error, context) {
      if (firstReport(error)) logException(error, context);
    },
    captureMessage: logMessage,
    flush: async () => true,
  };
}

/**
 * The reporter of this process, set once at start. Module state rather than a service: handleError
 * and Express's last error handler have no services in reach, and work started outside a request
 * (the payment reconciler) reports too. Until it is set, the log reporter.
 */
let current: ErrorReporter = createLogReporter();

/** Sets the process's reporter; returns the one it replaces (tests put it back). */
export function setErrorReporter(reporter: ErrorReporter): ErrorReporter {
  const previous = current;
  current = reporter;
  return previous;
}

export function errorReporter(): ErrorReporter {
  return current;
}

/** What the browser needs to report its own errors: the DSN is public by design; nothing else goes. */
export type BrowserErrorReporting = { dsn: string; environment: string; tracesSampleRate: number };

export function browserErrorReporting(env: ErrorReportingSettings): BrowserErrorReporting | null {
  if (!env.SENTRY_DSN) return null;
  return {
    dsn: env.SENTRY_DSN,
    environment: env.SENTRY_ENVIRONMENT ?? env.NODE_ENV,
    tracesSampleRate: env.SENTRY_TRACES_SAMPLE_RATE,
  };
}

/** The origins the browser's reports are posted to, for the page's connect-src. */
export function browserReportingOrigins(env: ErrorReportingSettings): string[] {
  return env.SENTRY_DSN ? [new URL(env.SENTRY_DSN).origin] : [];
}
