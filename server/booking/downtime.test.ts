import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Service } from "~/domain/catalog";
import { downtimeMessage } from "~/domain/downtime";
import { createTestGuest, startSandbox, TEST_API_KEY } from "../../tests/helpers/sandbox-server";
import { createMemoryRateLimiter } from "../accounts/rate-limit.server";
import { createNoAnalytics } from "../analytics/analytics.server";
import type { Services } from "../services";
import { parseEnv } from "../env.server";
import { createNoLeadWebhooks } from "../leads/lead-webhooks.server";
import { seedGuid } from "../spa-sandbox/db";
import { createSpaClient, type SpaClient } from "../spa/client.server";
import { bookingGuestId, downtimeFor } from "./downtime.server";
import type { Draft } from "./draft.server";
import { holdSlot } from "./hold-slot.server";
import { notHeldMessage } from "./not-held.server";

/**
 * Medical downtime for a known guest: the days the time step offers and the hold's own check ask
 * the same rule of the same history, so a day the step offers is one the hold accepts.
 */

const AUSTIN = seedGuid("center:ATX");
const ZONE = "America/Chicago";
const PEEL = seedGuid("service:PEEL-GLOW");
const FACIAL = seedGuid("service:FT-RET");

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let spa: SpaClient;
let services: Services;
let facial: Service;

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => Date.parse("2026-11-30T15:00:00Z"), holdSeconds: 600 });
  spa = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
  services = {
    env: parseEnv({ NODE_ENV: "test" }),
    spa,
    leads: createNoLeadWebhooks(),
    analytics: createNoAnalytics(),
    rateLimiter: createMemoryRateLimiter(),
  } as unknown as Services;
  facial = (await spa.listServices(AUSTIN))!.find((s) => s.id === FACIAL)!;
});
afterAll(async () => {
  await sandbox.stop();
});

/** A confirmed visit for the guest: the first open time of the day. */
async function book(guestId: string, serviceId: string, date: string): Promise<string> {
  const bookingId = await spa.createBooking({
    centerId: AUSTIN,
    date,
    guestId,
    serviceId,
    therapistId: null,
    addOnIds: [],
  });
  const { times } = await spa.listSlots(bookingId, date);
  expect(await spa.reserveSlot(bookingId, times[0], ZONE)).not.toBeNull();
  const confirmed = await spa.confirmBooking(bookingId, ZONE);
  return confirmed!.invoiceId;
}

function knownDraft(guestId: string): Draft {
  return {
    centerId: AUSTIN,
    serviceId: FACIAL,
    addOnIds: [],
    therapistId: null,
    guestId,
    details: { firstName: "Lena", lastName: "Known", email: "lena@example.com", phone: "5125550100" },
  };
}

describe("the days a known guest may book after a peel", () => {
  it("are refused for the peel's 14 days, with the peel named and the first possible date; the hold refuses the same day and takes the first one left", async () => {
    const guestId = await createTestGuest(spa, AUSTIN, "Lena", "Peeled");
    await book(guestId, PEEL, "2026-12-01");
    const downtimeOf = await downtimeFor(services, guestId, facial.name);
    expect(downtimeOf("2026-12-10")).toEqual({
      treatment: "Glow Peel",
      treatmentDate: "2026-12-01",
      before: true,
      firstDate: "2026-12-15",
    });
    expect(downtimeOf("2026-12-15")).toBeNull();

    const refused = await holdSlot(services, {
      draft: knownDraft(guestId),
      centerId: AUSTIN,
      service: facial,
      slot: "2026-12-10T10:00:00",
      date: "2026-12-10",
      timeZone: ZONE,
      clientIp: "203.0.113.61",
      user: null,
    });
    expect(refused.kind).toBe("downtime");
    if (refused.kind !== "downtime") return;
    expect(refused.refusal).toEqual(downtimeOf("2026-12-10"));
    expect(notHeldMessage(refused)).toBe(downtimeMessage(refused.refusal));
    expect(notHeldMessage(refused)).toContain("the first possible date is Tuesday, December 15");

    const held = await holdSlot(services, {
      draft: refused.draft,
      centerId: AUSTIN,
      service: facial,
      slot: "2026-12-15T10:00:00",
      date: "2026-12-15",
      timeZone: ZONE,
      clientIp: "203.0.113.61",
      user: null,
    });
    expect(held.kind).toBe("held");
  });

  it("are all open again once the peel is cancelled", async () => {
    const guestId = await createTestGuest(spa, AUSTIN, "Rosa", "Cancelled");
    const invoiceId = await book(guestId, PEEL, "2026-12-02");
    expect((await downtimeFor(services, guestId, facial.name))("2026-12-03")).not.toBeNull();
    const [reason] = await spa.listCancelReasons();
    await spa.cancelInvoice(invoiceId, reason.id, "test");
    expect((await downtimeFor(services, guestId, facial.name))("2026-12-03")).toBeNull();
  });
});

describe("whose history is read", () => {
  it("is the signed-in account's guest, else the draft's known guest, else nobody's", async () => {
    const user = { id: "account-1", email: "lena@example.com", guestId: "guest-of-account", centerId: AUSTIN };
    expect(bookingGuestId(knownDraft("guest-of-link"), user)).toBe("guest-of-account");
    expect(bookingGuestId(knownDraft("guest-of-link"), null)).toBe("guest-of-link");
    // A guest record with no details given yet (an earlier attempt) is not a known visitor.
    expect(bookingGuestId({ ...knownDraft("guest-half-made"), details: undefined }, null)).toBeNull();
    expect((await downtimeFor(services, null, facial.name))("2026-12-01")).toBeNull();
  });
});
