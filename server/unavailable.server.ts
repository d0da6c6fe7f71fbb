import { data, type UNSAFE_DataWithResponseInit as DataWithResponseInit } from "react-router";
import { z } from "zod";
import { sameId } from "~/domain/catalog";
import { GeocoderError } from "./geo/geocoder.server";
import { logger } from "./observability/logger.server";
import type { CachedCatalog } from "./spa/catalog-cache.server";
import { isSpaError } from "./spa/errors.server";
import { parseSubmission, refuseForm } from "./forms.server";

/** A back end (the spa or the geocoder) failed; logged once here, by whoever answers it. */
function isOutage(error: unknown, during: string): boolean {
  if (!isSpaError(error) && !(error instanceof GeocoderError)) return false;
  logger.warn(`back end unavailable${during}`, {
    kind: isSpaError(error) ? error.kind : "geocoder",
    path: isSpaError(error) ? error.path : "",
  });
  return true;
}

const UNREACHABLE_MESSAGE = "We can't reach our booking system right now. Please try again in a moment.";

/** What the error page reads to tell "too busy" apart from "unreachable". */
export type BusyErrorData = { busy: true; retryAfterSeconds: number };

/**
 * Turns a back-end outage into the 503 page instead of a 500. Zenoti's call limit for the whole
 * organisation (a 429 the client could not wait out) is a 503 too, said as "busy", with the
 * seconds until the limit resets.
 */
export async function orUnavailable<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isSpaError(error) && error.kind === "rate-limited") {
      isOutage(error, "");
      const retryAfterSeconds = secondsUntilRetry(error.retryAfterMs);
      throw data({ busy: true, retryAfterSeconds } satisfies BusyErrorData, {
        status: 503,
        headers: { "Retry-After": String(retryAfterSeconds) },
      });
    }
    if (isOutage(error, "")) throw data(UNREACHABLE_MESSAGE, { status: 503 });
    throw error;
  }
}

/** What the error page reads for a clinic that cannot be booked online (decision 035). */
export type ClinicUnavailableData = { clinicUnavailable: true; name: string; phone: string };

/**
 * A clinic the back end lists but whose time zone no one has named is not booked online: its times
 * could not be told right. Its pages answer 503 saying so, with its phone number, instead of a 404.
 */
export async function refuseClinicWithoutTimeZone(
  catalog: Pick<CachedCatalog, "clinicsWithoutTimeZone">,
  idOrSlug: string,
): Promise<void> {
  const clinics = await orUnavailable(() => catalog.clinicsWithoutTimeZone());
  const clinic = clinics.find((c) => c.slug === idOrSlug || sameId(c.id, idOrSlug));
  if (!clinic) return;
  throw data({ clinicUnavailable: true, name: clinic.name, phone: clinic.phone } satisfies ClinicUnavailableData, {
    status: 503,
    headers: { "Retry-After": "3600" },
  });
}

/** The spec's words for a back end that failed while acting on a form. */
export const OUTAGE_MESSAGE = "Something went wrong, please try again";

/**
 * For actions: runs the back-end work, and answers an outage with `onOutage` (a 503 that keeps what
 * was typed) instead of a 500. Anything else is not an outage and goes on up.
 */
export async function unlessUnavailable<T, A>(work: () => Promise<T>, onOutage: () => A): Promise<T | A> {
  try {
    return await work();
  } catch (error) {
    if (isOutage(error, " during an action")) return onOutage();
    throw error;
  }
}

/** The seconds until a rate-limited back end takes calls again (at least one). */
function secondsUntilRetry(retryAfterMs: number | undefined): number {
  return Math.max(1, Math.ceil((retryAfterMs ?? 60_000) / 1000));
}

/**
 * A back-end outage as an action meets it: thrown by the spa client or the geocoder, or already
 * turned into the outage page by `orUnavailable` in a helper the action shares with its loader.
 * Null for anything else. `retryAfterSeconds` is set when the back end is busy (decision 015).
 */
function actionOutage(error: unknown): { retryAfterSeconds: number | null } | null {
  if (isSpaError(error) && error.kind === "rate-limited") {
    isOutage(error, " during an action");
    return { retryAfterSeconds: secondsUntilRetry(error.retryAfterMs) };
  }
  if (isOutage(error, " during an action")) return { retryAfterSeconds: null };
  if (!isOutagePage(error)) return null;
  const busy = error.data as Partial<BusyErrorData>;
  return { retryAfterSeconds: busy?.busy ? (busy.retryAfterSeconds ?? secondsUntilRetry(undefined)) : null };
}

function isOutagePage(error: unknown): error is DataWithResponseInit<unknown> {
  if (!error || typeof error !== "object" || (error as { type?: unknown }).type !== "DataWithResponseInit")
    return false;
  const { data: body, init } = error as DataWithResponseInit<unknown>;
  return (
    init?.status === 503 && (body === UNREACHABLE_MESSAGE || (body as Partial<BusyErrorData> | null)?.busy === true)
  );
}

/** Anything a form may hold: the outage answer keeps every field as typed (passwords aside). */
const AnyForm = z.looseObject({});

type ActionArgs = { request: Request };

/**
 * Every form action goes through this guard (the outage test walks app/routes.ts to hold them to
 * it): a back end that fails, cannot be reached or is rate-limited while the action runs is a 503
 * that keeps what was typed (never a password), with the spec's words above the form and, when the
 * back end is busy, `Retry-After`. An action may still answer an outage itself, closer to the form;
 * this is what none can forget.
 */
export function guardAction<Args extends ActionArgs, R>(
  action: (args: Args) => Promise<R>,
): (args: Args) => Promise<R> {
  return async (args) => {
    // The action reads the body; the copy is read only when there is an outage to answer.
    const copy = args.request.clone();
    try {
      return await action(args);
    } catch (error) {
      const outage = actionOutage(error);
      if (!outage) throw error;
      const formData = await copy.formData().catch(() => new FormData());
      const intent = formData.get("intent");
      const submission = parseSubmission(formData, AnyForm);
      // Typed as the action's own answer: every form reads `result` (and `intent`) from its refusals.
      return refuseForm(submission, {
        status: 503,
        formErrors: [OUTAGE_MESSAGE],
        intent: typeof intent === "string" ? intent : undefined,
        headers: outage.retryAfterSeconds ? { "Retry-After": String(outage.retryAfterSeconds) } : undefined,
      }) as R;
    }
  };
}

/** The JSON API's answer to an outage. */
export type JsonOutage = { error: string; busy?: true; retryAfterSeconds?: number };

/** `guardAction` for the JSON API (its loaders and actions): the outage is a JSON 503. */
export function guardJson<Args extends ActionArgs, R>(
  handler: (args: Args) => Promise<R>,
): (args: Args) => Promise<R | DataWithResponseInit<JsonOutage>> {
  return async (args) => {
    try {
      return await handler(args);
    } catch (error) {
      const outage = actionOutage(error);
      if (!outage) throw error;
      if (!outage.retryAfterSeconds) return data({ error: OUTAGE_MESSAGE }, { status: 503 });
      const { retryAfterSeconds } = outage;
      return data(
        { error: OUTAGE_MESSAGE, busy: true, retryAfterSeconds },
        { status: 503, headers: { "Retry-After": String(retryAfterSeconds) } },
      );
    }
  };
}
