import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ATTRIBUTION_WINDOW_MS } from "~/domain/attribution";
import { startSandbox, TEST_API_KEY } from "../../tests/helpers/sandbox-server";
import type { Services } from "../services";
import { parseEnv } from "../env.server";
import { setErrorReporter, type ErrorReporter, type ReportContext } from "../observability/error-reporter.server";
import { seedGuid } from "../spa-sandbox/db";
import { createSpaClient, type SpaClient } from "../spa/client.server";
import { createSqliteStores } from "../store/sqlite-store.server";
import type { AffiliateDetails, Stores } from "../store/stores.server";
import { reconcileAffiliates, recordAffiliateClick, settleAffiliate } from "./affiliates.server";

/**
 * Affiliate (Impact) attribution against the sandbox and the SQLite stores (decision 032): a
 * click recorded for the user, a failure reported and rethrown, and each open click followed to
 * its end: the first treatment completed, or the 30-day window over.
 */

const AUSTIN = seedGuid("center:ATX");
const ZONE = "America/Chicago";
// 09:00 in Austin on Monday 30 November 2026.
const NOW = Date.parse("2026-11-30T15:00:00Z");
const DAY = 24 * 60 * 60 * 1000;

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let spa: SpaClient;
let stores: Stores;
let services: Services;
let people = 0;
/** What the error reporter was given. */
const reports: { error: unknown; context?: ReportContext }[] = [];
let previousReporter: ErrorReporter;

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => NOW, holdSeconds: 600 });
  spa = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY }, clock: () => NOW });
  stores = createSqliteStores(":memory:");
  services = { env: parseEnv({ NODE_ENV: "test" }), spa, stores } as unknown as Services;
});
afterAll(async () => {
  await sandbox.stop();
  await stores.close();
});
beforeEach(() => {
  reports.length = 0;
  previousReporter = setErrorReporter({
    kind: "log",
    captureException: (error, context) => reports.push({ error, context }),
    captureMessage: () => {},
    flush: async () => true,
  });
});
afterEach(() => {
  setErrorReporter(previousReporter);
});

const api = (method: string, path: string, body?: unknown) =>
  fetch(`${sandbox.baseUrl}${path}`, {
    method,
    headers: { authorization: `apikey ${TEST_API_KEY}`, "content-type": "application/json" },
    body: body ? JSON.stringify(body) : undefined,
  }).then((r) => r.json() as Promise<Record<string, unknown>>);

async function newGuest(): Promise<{ guestId: string; email: string }> {
  people += 1;
  const email = `click.${people}.${randomUUID().slice(0, 8)}@example.com`;
  const guest = await spa.createGuest({
    centerId: AUSTIN,
    firstName: "Ivy",
    lastName: "Clicker",
    email,
    phone: `512557${String(people).padStart(4, "0")}`,
    consents: { marketingEmail: false, marketingSms: false, transactionalEmail: true, transactionalSms: true },
    tags: [],
  });
  return { guestId: guest.id, email };
}

/** Books the seed's service for the guest on a day to come; with `closed`, moved into the past and closed by the front desk. */
async function visit(guestId: string, serviceCode: string, closed: boolean): Promise<void> {
  const date = "2026-12-01";
  const bookingId = await spa.createBooking({
    centerId: AUSTIN,
    date,
    guestId,
    serviceId: seedGuid(`service:${serviceCode}`),
    therapistId: null,
    addOnIds: [],
  });
  const { times } = await spa.listSlots(bookingId, date);
  expect(await spa.reserveSlot(bookingId, times[0], ZONE)).not.toBeNull();
  const { invoiceId } = (await spa.confirmBooking(bookingId, ZONE))!;
  if (!closed) return;
  expect(
    (await api("POST", `/v1/sandbox/appointments/${invoiceId}/move`, { start: "2026-11-25T10:00:00" })).success,
  ).toBe(true);
  expect((await api("POST", `/v1/invoices/${invoiceId}/close`)).success).toBe(true);
}

/** A user whose ad click was recorded `ago` milliseconds before now. */
async function clicked(ago: number, via: Services = services): Promise<AffiliateDetails & { guestId: string }> {
  const guest = await newGuest();
  await recordAffiliateClick(via, {
    guestId: guest.guestId,
    email: guest.email,
    click: { id: `click-${randomUUID()}`, at: NOW - ago },
  });
  return { ...(await via.stores.affiliates.get(guest.guestId))!, guestId: guest.guestId };
}

describe("recording a click", () => {
  it("creates the user's record, replaces a different click (a new window), and leaves the same click as it is", async () => {
    const { guestId, email } = await newGuest();
    await recordAffiliateClick(services, { guestId, email, click: { id: "abc-1", at: NOW - DAY } });
    expect(await stores.affiliates.get(guestId)).toEqual({
      user_id: guestId,
      user_email: email,
      irclickid: "abc-1",
      timestamp: NOW - DAY,
      isFtTreatedTriggered: false,
      isExpired: false,
      checkedAt: null,
    });

    // The same click again (another booking of the same visit): nothing changes, its flags stay.
    await stores.affiliates.update(guestId, { isExpired: true, checkedAt: NOW - 1000 });
    await recordAffiliateClick(services, { guestId, email, click: { id: "abc-1", at: NOW } });
    expect(await stores.affiliates.get(guestId)).toMatchObject({
      irclickid: "abc-1",
      timestamp: NOW - DAY,
      isExpired: true,
    });

    // A new click: its id and time, both flags cleared.
    await stores.affiliates.update(guestId, { isFtTreatedTriggered: true });
    await recordAffiliateClick(services, { guestId, email, click: { id: "abc-2", at: NOW } });
    expect(await stores.affiliates.get(guestId)).toMatchObject({
      irclickid: "abc-2",
      timestamp: NOW,
      isFtTreatedTriggered: false,
      isExpired: false,
    });
    expect(reports).toEqual([]);
  });

  it("reports a failing store to the error reporter as affiliate-update, and rethrows", async () => {
    const failure = new Error("the store is down");
    const broken = {
      ...services,
      stores: { ...stores, affiliates: { ...stores.affiliates, record: async () => Promise.reject(failure) } },
    } as Services;
    const { guestId, email } = await newGuest();
    await expect(recordAffiliateClick(broken, { guestId, email, click: { id: "abc-3", at: NOW } })).rejects.toBe(
      failure,
    );
    expect(reports).toEqual([{ error: failure, context: { where: "affiliate-update" } }]);
    expect(await stores.affiliates.get(guestId)).toBeNull();
  });
});

describe("following a click to its end", () => {
  it("a closed new-client facial sets isFtTreatedTriggered", async () => {
    const record = await clicked(2 * DAY);
    await visit(record.guestId, "FT-NEW", true);
    expect(await settleAffiliate(services, record, NOW)).toBe(true);
    expect(await stores.affiliates.get(record.guestId)).toMatchObject({
      isFtTreatedTriggered: true,
      isExpired: false,
      checkedAt: NOW,
    });
  });

  it(`${ATTRIBUTION_WINDOW_MS / DAY} days without one sets isExpired`, async () => {
    const record = await clicked(30 * DAY + 60_000);
    await visit(record.guestId, "FT-NEW", false);
    expect(await settleAffiliate(services, record, NOW)).toBe(true);
    expect(await stores.affiliates.get(record.guestId)).toMatchObject({
      isFtTreatedTriggered: false,
      isExpired: true,
      checkedAt: NOW,
    });
  });

  it("inside the window without a completed treatment only the check time is written", async () => {
    const record = await clicked(29 * DAY);
    // Booked, not yet been; and a peel that was, which is not the first treatment.
    await visit(record.guestId, "FT-NEW", false);
    await visit(record.guestId, "PEEL-CLARIFY", true);
    expect(await settleAffiliate(services, record, NOW)).toBe(false);
    expect(await stores.affiliates.get(record.guestId)).toMatchObject({
      isFtTreatedTriggered: false,
      isExpired: false,
      checkedAt: NOW,
    });
    // The window's end, with no visit since: expired.
    expect(await settleAffiliate(services, record, NOW + 2 * DAY)).toBe(true);
    expect(await stores.affiliates.get(record.guestId)).toMatchObject({
      isFtTreatedTriggered: false,
      isExpired: true,
      checkedAt: NOW + 2 * DAY,
    });
    expect(reports).toEqual([]);
  });

  it("a back end that cannot be read is reported, and the record asked about again later, behind the others", async () => {
    const record = await clicked(40 * DAY);
    const failure = new Error("the back end is down");
    const down = {
      ...services,
      spa: { ...spa, listGuestAppointments: async () => Promise.reject(failure) },
    } as Services;
    expect(await settleAffiliate(down, record, NOW)).toBe(false);
    expect(reports).toEqual([{ error: failure, context: { where: "affiliate-update" } }]);
    expect(await stores.affiliates.get(record.guestId)).toMatchObject({
      isFtTreatedTriggered: false,
      isExpired: false,
      checkedAt: NOW,
    });
  });

  it("the reconciler follows the open clicks not checked for an hour", async () => {
    const own = createSqliteStores(":memory:");
    try {
      const via = { ...services, stores: own } as Services;
      const treated = await clicked(DAY, via);
      await visit(treated.guestId, "FT-NEW", true);
      const expired = await clicked(31 * DAY, via);
      const waiting = await clicked(DAY, via);
      const checkedJustNow = await clicked(31 * DAY, via);
      await own.affiliates.update(checkedJustNow.guestId, { checkedAt: NOW - 60_000 });

      expect(await reconcileAffiliates(via, NOW)).toBe(2);
      expect(await own.affiliates.get(treated.guestId)).toMatchObject({
        isFtTreatedTriggered: true,
        isExpired: false,
        checkedAt: NOW,
      });
      expect(await own.affiliates.get(expired.guestId)).toMatchObject({
        isFtTreatedTriggered: false,
        isExpired: true,
        checkedAt: NOW,
      });
      expect(await own.affiliates.get(waiting.guestId)).toMatchObject({
        isFtTreatedTriggered: false,
        isExpired: false,
        checkedAt: NOW,
      });
      expect(await own.affiliates.get(checkedJustNow.guestId)).toMatchObject({
        isExpired: false,
        checkedAt: NOW - 60_000,
      });
      // An hour on: the one checked a minute before now is due (and expired); the one checked now is not yet.
      expect(await reconcileAffiliates(via, NOW + 3_600_000)).toBe(1);
      expect(await own.affiliates.get(checkedJustNow.guestId)).toMatchObject({ isExpired: true });
      expect(await own.affiliates.listOpen(NOW + 10 * 3_600_000, 20)).toEqual([
        expect.objectContaining({ user_id: waiting.guestId }),
      ]);
    } finally {
      await own.close();
    }
  });
});
