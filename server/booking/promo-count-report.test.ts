import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Center } from "~/domain/catalog";
import type { Services } from "../services";
import { createNoAnalytics } from "../analytics/analytics.server";
import { parseEnv } from "../env.server";
import { setErrorReporter, type ErrorReporter, type ReportContext } from "../observability/error-reporter.server";
import { createSqliteStores } from "../store/sqlite-store.server";
import type { Stores } from "../store/stores.server";
import { checkout, type Quote } from "./checkout.server";
import type { Draft } from "./draft.server";

/** The spec: a failure to update a guest's promo-code count is reported to the error service. */

let stores: Stores;
let reports: { error: unknown; context?: ReportContext }[];
let previous: ErrorReporter;

beforeEach(() => {
  stores = createSqliteStores(":memory:");
  reports = [];
  previous = setErrorReporter({
    kind: "log",
    captureException: (error, context) => reports.push({ error, context }),
    captureMessage() {},
    flush: async () => true,
  });
});
afterEach(async () => {
  setErrorReporter(previous);
  vi.restoreAllMocks();
  await stores.close();
});

/** A back end where the held time is gone by the time the guest confirms. */
const holdGone = { confirmBooking: async () => null, listGuestAppointments: async () => [] };

function pay() {
  const services = {
    env: parseEnv({ NODE_ENV: "test" }),
    stores,
    spa: holdGone,
    analytics: createNoAnalytics(),
  } as unknown as Services;
  const draft = {
    centerId: "c-1",
    serviceId: "s-1",
    addOnIds: [],
    therapistId: null,
    date: "2026-12-01",
    guestId: "g-1",
    details: { firstName: "Ana", lastName: "Lopez", email: "ana@example.com", phone: "5125550199" },
    hold: { bookingId: "b-1", slot: "2026-12-01T09:30:00", reservationId: "r-1", expiresAt: "2026-12-01T09:40:00Z" },
  } as Draft;
  const quote: Quote = {
    lines: [{ name: "Signature Laser Facial - New Client", price: 27500, discount: 13750 }],
    subtotal: 27500,
    discount: 13750,
    total: 13750,
    prepaid: false,
    dueNow: 0,
    dueInClinic: 13750,
    promo: { code: "GLOW50", kind: "promo", applied: true, message: null, maxUsesPerGuest: 1 },
    member: null,
    package: null,
  };
  return checkout(
    services,
    {
      payKey: randomUUID(),
      draft,
      center: { id: "c-1" } as Center,
      quote,
      accountId: "a-1",
      returnTo: "http://shop.example/appointment/payment",
    },
    { timing: { leaseMs: 5_000, settleMs: 10_000 } },
  );
}

describe("a promo-code count that cannot be updated", () => {
  it("is reported when the use cannot be counted, and the confirm fails as before", async () => {
    const failure = new Error("store unavailable");
    vi.spyOn(stores.guestDetails, "claimPromoUse").mockRejectedValue(failure);
    await expect(pay()).rejects.toBe(failure);
    expect(reports).toEqual([{ error: failure, context: { where: "promo-count", change: "claim" } }]);
  });

  it("is reported when the use cannot be given back, and the guest still hears the time is gone", async () => {
    const failure = new Error("store unavailable");
    vi.spyOn(stores.guestDetails, "releasePromoUse").mockRejectedValue(failure);
    expect(await pay()).toEqual({ kind: "hold-lost" });
    expect(reports).toEqual([{ error: failure, context: { where: "promo-count", change: "release" } }]);
  });

  it("reports nothing when the count is updated", async () => {
    expect(await pay()).toEqual({ kind: "hold-lost" });
    expect((await stores.guestDetails.get("ana@example.com"))?.promo_codes.GLOW50).toBe(0);
    expect(reports).toEqual([]);
  });
});
