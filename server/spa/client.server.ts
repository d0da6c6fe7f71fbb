import { bookingCalls, type GuestSearchSettings } from "./booking.server";
import { catalogCalls } from "./catalog.server";
import { couponCalls } from "./coupons.server";
import { createSpaHttp, type SpaHttpOptions } from "./http.server";
import { membershipCalls } from "./memberships.server";
import { salesCalls } from "./sales.server";
import type { TimeZoneSettings } from "./time-zones.server";

export type SpaClientOptions = SpaHttpOptions & {
  /** What operations set for clinics whose zone Zenoti does not name (decision 035). */
  timeZones?: TimeZoneSettings;
  /** How guests are searched, and the internal guests a search must never find (decision 035). */
  guestSearch?: Partial<GuestSearchSettings>;
};

/**
 * The one client for the spa back end, used for the embedded sandbox and for Zenoti alike.
 * One method per use case; each module adds its calls.
 */
export function createSpaClient(options: SpaClientOptions) {
  const http = createSpaHttp(options);
  return {
    ...catalogCalls(http, { timeZones: options.timeZones }),
    ...bookingCalls(http, options.guestSearch),
    ...membershipCalls(http),
    ...salesCalls(http),
    ...couponCalls(http),
  };
}

export type SpaClient = ReturnType<typeof createSpaClient>;
