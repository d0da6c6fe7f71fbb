import { bookingCalls } from "./booking.server";
import { catalogCalls } from "./catalog.server";
import { createSpaHttp, type SpaHttpOptions } from "./http.server";
import { membershipCalls } from "./memberships.server";
import { salesCalls } from "./sales.server";

/**
 * The one client for the spa back end, used for the embedded sandbox and for Zenoti alike.
 * One method per use case; each module adds its calls.
 */
export function createSpaClient(options: SpaHttpOptions) {
  const http = createSpaHttp(options);
  return { ...catalogCalls(http), ...bookingCalls(http), ...membershipCalls(http), ...salesCalls(http) };
}

export type SpaClient = ReturnType<typeof createSpaClient>;
