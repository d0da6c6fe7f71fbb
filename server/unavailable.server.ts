import { data } from "react-router";
import { GeocoderError } from "./geo/geocoder.server";
import { logger } from "./observability/logger.server";
import { isSpaError } from "./spa/errors.server";

/** Turns a back-end outage into the 503 page instead of a 500. */
export async function orUnavailable<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isSpaError(error) || error instanceof GeocoderError) {
      logger.warn("back end unavailable", { kind: isSpaError(error) ? error.kind : "geocoder", path: isSpaError(error) ? error.path : "" });
      throw data("We can't reach our booking system right now. Please try again in a moment.", { status: 503 });
    }
    throw error;
  }
}
