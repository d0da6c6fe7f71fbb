import { appCache } from "../cache/cache.server";
import type { Services } from "../services";
import { withDefaultCallPriority } from "../spa/call-governor.server";
import { isSpaError } from "../spa/errors.server";
import type { Draft } from "./draft.server";
import { dropHoldClaim } from "./hold-limits.server";

/**
 * Lets go of the draft's hold on our side: its place among the address's live holds is free at
 * once. Zenoti has no call to drop a hold, so in the back end it runs out by itself.
 */
export async function dropDraftHold(services: Services, draft: Draft | null): Promise<void> {
  if (draft?.hold) await dropHoldClaim(services.rateLimiter, draft.hold.claim);
}

/**
 * Open times for a day are cached for a few seconds: Zenoti allows about 60 calls a minute, and
 * each look costs two. A slot taken in the meantime is caught when it is reserved.
 */
export type SlotQuery = {
  centerId: string;
  serviceId: string;
  addOnIds: string[];
  therapistId: string | null;
  date: string;
};

/** The times a draft's choice (treatment, add-ons, nurse) asks for at a clinic on a date. */
export function draftSlotQuery(
  draft: Pick<Draft, "addOnIds" | "therapistId">,
  at: { centerId: string; serviceId: string; date: string },
): SlotQuery {
  return { ...at, addOnIds: draft.addOnIds, therapistId: draft.therapistId };
}

function slotKey(q: SlotQuery) {
  return `${q.centerId}|${q.serviceId}|${[...q.addOnIds].sort().join(",")}|${q.therapistId ?? "any"}|${q.date}`;
}

type OpenTimes = { times: string[]; nextAvailableDay: string | null };

const slotCache = appCache.define<OpenTimes, SlotQuery>({
  name: "open-times",
  key: slotKey,
  ttlMs: 15_000,
  staleMs: 0,
  maxEntries: 5_000,
});

/**
 * The availability booking of each query is made once and read again for later looks (a Zenoti
 * booking is a cart that is never confirmed here), so a look costs one call, not two. A booking
 * the back end no longer knows is made again.
 */
const availabilityBookings = appCache.define<string, SlotQuery>({
  name: "availability-booking",
  key: slotKey,
  ttlMs: 30 * 60_000,
  staleMs: 0,
  maxEntries: 2_000,
});

export async function openTimes(services: Services, query: SlotQuery): Promise<OpenTimes> {
  // A look at open times is a read, its availability booking included, unless a booking under way makes it (decision 036).
  return slotCache.get(query, () =>
    withDefaultCallPriority("browse", async () => {
      // Read through the one guest operations keep for this (SPA_AVAILABILITY_GUEST_ID): a visitor
      // who is only looking leaves no guest record behind, and no junk guest is ever made for it.
      const booking = () =>
        availabilityBookings.get(query, () =>
          services.spa.createBooking({ ...query, guestId: services.env.SPA_AVAILABILITY_GUEST_ID }),
        );
      try {
        return await services.spa.listSlots(await booking(), query.date);
      } catch (error) {
        if (!(isSpaError(error) && error.kind === "rejected")) throw error;
        availabilityBookings.delete(query);
        return services.spa.listSlots(await booking(), query.date);
      }
    }),
  );
}

/**
 * The list is read again on the next look; until then it is kept as the copy shown when that read
 * cannot be made (the back end down, or reads held back at the call limit, decision 036).
 */
export function forgetOpenTimes(query: SlotQuery) {
  slotCache.expire(query);
}
