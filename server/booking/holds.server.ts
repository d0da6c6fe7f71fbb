import type { Services } from "../context.server";
import { createSwrCache } from "../spa/catalog-cache.server";
import type { Draft } from "./draft.server";
import { dropHoldClaim } from "./hold-limits.server";

/**
 * Lets go of the draft's hold on our side: its place among the address's live holds is free at
 * once. Zenoti has no call to drop a hold, so in the back end it runs out by itself.
 */
export function dropDraftHold(services: Services, draft: Draft | null): void {
  if (draft?.hold) dropHoldClaim(services.rateLimiter, draft.hold.claim);
}

/**
 * Availability is read through one shared guest per clinic, so a visitor who is only looking does
 * not create a guest record in the back end; their own guest is created when they hold a slot.
 */
const AVAILABILITY_GUEST_EMAIL = (centerId: string) => `availability+${centerId.replace(/-/g, "").slice(0, 12)}@webstore.invalid`;
const availabilityGuests = new Map<string, Promise<string>>();

function availabilityGuestId(services: Services, centerId: string): Promise<string> {
  let pending = availabilityGuests.get(centerId);
  if (!pending) {
    pending = (async () => {
      const email = AVAILABILITY_GUEST_EMAIL(centerId);
      const [found] = await services.spa.findGuestsByEmail(email);
      if (found) return found.id;
      const created = await services.spa.createGuest({
        centerId,
        firstName: "Webstore",
        lastName: "Availability",
        email,
        phone: null,
        consents: { marketingEmail: false, marketingSms: false, transactionalEmail: false, transactionalSms: false },
        tags: ["Webstore"],
      });
      return created.id;
    })();
    pending.catch(() => availabilityGuests.delete(centerId));
    availabilityGuests.set(centerId, pending);
  }
  return pending;
}

/**
 * Open times for a day are cached for a few seconds: Zenoti allows about 60 calls a minute, and
 * each look costs two. A slot taken in the meantime is caught when it is reserved.
 */
const slotCache = createSwrCache({ ttlMs: 15_000, staleMs: 0 });

export type SlotQuery = { centerId: string; serviceId: string; addOnIds: string[]; therapistId: string | null; date: string };

function slotKey(q: SlotQuery) {
  return `slots:${q.centerId}|${q.serviceId}|${[...q.addOnIds].sort().join(",")}|${q.therapistId ?? "any"}|${q.date}`;
}

export async function openTimes(services: Services, query: SlotQuery): Promise<{ times: string[]; nextAvailableDay: string | null }> {
  return slotCache.get(slotKey(query), async () => {
    const guestId = await availabilityGuestId(services, query.centerId);
    const bookingId = await services.spa.createBooking({ ...query, guestId });
    return services.spa.listSlots(bookingId, query.date);
  });
}

export function forgetOpenTimes(query: SlotQuery) {
  slotCache.delete(slotKey(query));
}
