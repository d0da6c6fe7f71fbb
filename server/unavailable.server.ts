import { data } from "react-router";
import { sameId } from "~/domain/catalog";
import { GeocoderError } from "./geo/geocoder.server";
import { logger } from "./observability/logger.server";
import type { CachedCatalog } from "./spa/catalog-cache.server";
import { isSpaError } from "./spa/errors.server";

/** A back end (the spa or the geocoder) failed; logged once here, by whoever answers it. */
function isOutage(error: unknown, during: string): boolean {
  if (!isSpaError(error) && !(error instanceof GeocoderError)) return false;
  logger.warn(`back end unavailable${during}`, { kind: isSpaError(error) ? error.kind : "geocoder", path: isSpaError(error) ? error.path : "" });
  return true;
}

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
      const retryAfterSeconds = Math.max(1, Math.ceil((error.retryAfterMs ?? 60_000) / 1000));
      throw data({ busy: true, retryAfterSeconds } satisfies BusyErrorData, { status: 503, headers: { "Retry-After": String(retryAfterSeconds) } });
    }
    if (isOutage(error, "")) throw data("We can't reach our booking system right now. Please try again in a moment.", { status: 503 });
    throw error;
  }
}

/** What the error page reads for a clinic that cannot be booked online (decision 035). */
export type ClinicUnavailableData = { clinicUnavailable: true; name: string; phone: string };

/**
 * A clinic the back end lists but whose time zone no one has named is not booked online: its times
 * could not be told right. Its pages answer 503 saying so, with its phone number, instead of a 404.
 */
export async function refuseClinicWithoutTimeZone(catalog: Pick<CachedCatalog, "clinicsWithoutTimeZone">, idOrSlug: string): Promise<void> {
  const clinics = await orUnavailable(() => catalog.clinicsWithoutTimeZone());
  const clinic = clinics.find((c) => c.slug === idOrSlug || sameId(c.id, idOrSlug));
  if (!clinic) return;
  throw data({ clinicUnavailable: true, name: clinic.name, phone: clinic.phone } satisfies ClinicUnavailableData, { status: 503, headers: { "Retry-After": "3600" } });
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
