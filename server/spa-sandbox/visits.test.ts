import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestGuest,
  refusal,
  startSandboxAndClient,
  TEST_API_KEY,
  type TestSandbox,
} from "../../tests/helpers/sandbox-server";
import type { SpaClient } from "../spa/client.server";
import { seedGuid } from "./db";
import { seedReasons } from "./seed-data";

/** After booking: cancel, reschedule in place, the front desk's no-show and close, the move control. */

const AUSTIN = seedGuid("center:ATX");
const FACIAL = seedGuid("service:FT-RET");
const LED = seedGuid("service:ADD-LED");
const ZONE = "America/Chicago";
const PERSONAL = seedGuid(`reason:${seedReasons[0]}`);
// 09:00 in Austin on Monday 30 November 2026.
const now = Date.parse("2026-11-30T15:00:00Z");

let sandbox: TestSandbox;
let client: SpaClient;

beforeAll(async () => ({ sandbox, client } = await startSandboxAndClient(() => now)));
afterAll(() => sandbox.stop());

const newGuestId = () => createTestGuest(client, AUSTIN, "Vi", "Sit");

async function book(guestId: string, date: string, time?: string) {
  const bookingId = await client.createBooking({
    centerId: AUSTIN,
    date,
    guestId,
    serviceId: FACIAL,
    therapistId: null,
    addOnIds: [LED],
  });
  const { times } = await client.listSlots(bookingId, date);
  const slot = time ? `${date}T${time}:00` : times[0];
  expect(await client.reserveSlot(bookingId, slot, ZONE)).not.toBeNull();
  return (await client.confirmBooking(bookingId, ZONE))!;
}

const api = (method: string, path: string, body?: unknown) =>
  fetch(`${sandbox.baseUrl}${path}`, {
    method,
    headers: { authorization: `apikey ${TEST_API_KEY}`, "content-type": "application/json" },
    body: body ? JSON.stringify(body) : undefined,
  }).then((r) => r.json() as Promise<Record<string, unknown>>);

describe("reasons", () => {
  it("answers every reason; the guest's picker keeps the active, online appointment cancels only", async () => {
    const all = (await api("GET", "/v1/reasons")).reasons as { name: string }[];
    const offered = await client.listCancelReasons();
    expect(all.length).toBeGreaterThan(offered.length);
    expect(offered.map((r) => r.name).sort()).toEqual([...seedReasons].sort());
  });
});

describe("cancel", () => {
  it("cancels every appointment of the visit, frees its time, and refuses a second cancel", async () => {
    const guestId = await newGuestId();
    const visit = await book(guestId, "2026-12-07", "10:00");
    expect(await client.cancelInvoice(visit.invoiceId, PERSONAL, "Out of town")).toEqual({ chargeApplied: false });
    expect(await client.listGuestAppointments(guestId)).toEqual([]);
    const withCancelled = await client.listGuestAppointments(guestId, { includeNoShowCancel: true });
    expect(withCancelled[0].services.map((s) => s.status)).toEqual([-1, -1]);
    expect(await refusal(client.cancelInvoice(visit.invoiceId, PERSONAL, "again"))).toBe(502);
    // The time is free again for someone else.
    expect((await book(await newGuestId(), "2026-12-07", "10:00")).invoiceId).toBeTruthy();
  });

  it("applies the late-cancellation fee inside 12 hours of the start", async () => {
    const visit = await book(await newGuestId(), "2026-11-30", "17:00");
    expect(await client.cancelInvoice(visit.invoiceId, PERSONAL, "Sick")).toEqual({ chargeApplied: true });
  });

  it("refuses an unknown invoice, a reason a guest may not give, and a paid invoice", async () => {
    const visit = await book(await newGuestId(), "2026-12-08");
    expect(await refusal(client.cancelInvoice(crypto.randomUUID(), PERSONAL, "x"))).toBe(428);
    expect(await refusal(client.cancelInvoice(visit.invoiceId, seedGuid("reason:Guest did not arrive"), "x"))).toBe(
      400,
    );
    expect(await refusal(client.cancelInvoice(visit.invoiceId, "", "x"))).toBe(400);
    sandbox.db
      .prepare("INSERT INTO transactions (id, invoice_id, account_id, amount, created_at) VALUES (?, ?, 'card', 10, 0)")
      .run(crypto.randomUUID(), visit.invoiceId);
    expect(await refusal(client.cancelInvoice(visit.invoiceId, PERSONAL, "x"))).toBe(502);
  });
});

describe("reschedule", () => {
  it("moves the visit's appointments on the same invoice, keeping their ids and lines, and frees the old time", async () => {
    const guestId = await newGuestId();
    const visit = await book(guestId, "2026-12-09", "11:00");
    const [before] = await client.listGuestAppointments(guestId);
    const treatment = before.services.find((s) => !s.isAddOn)!;
    const bookingId = await client.createBooking({
      centerId: AUSTIN,
      date: "2026-12-10",
      guestId,
      serviceId: FACIAL,
      therapistId: null,
      addOnIds: [LED],
      reschedule: { invoiceId: visit.invoiceId, invoiceItemId: treatment.invoiceItemId! },
    });
    expect(await client.reserveSlot(bookingId, "2026-12-10T14:00:00", ZONE)).not.toBeNull();
    const moved = await client.confirmBooking(bookingId, ZONE);
    expect(moved?.invoiceId).toBe(visit.invoiceId);
    const after = await client.listGuestAppointments(guestId);
    expect(after).toHaveLength(1);
    expect(after[0].services.map((s) => s.appointmentId)).toEqual(before.services.map((s) => s.appointmentId));
    expect(after[0].services.map((s) => s.start)).toEqual(["2026-12-10T14:00:00", "2026-12-10T14:30:00"]);
    expect((await client.getInvoice(visit.invoiceId)).items).toHaveLength(2);
    // A second confirm changes nothing.
    expect((await client.confirmBooking(bookingId, ZONE))?.invoiceId).toBe(visit.invoiceId);
    expect((await client.getInvoice(visit.invoiceId)).items).toHaveLength(2);
    expect((await book(await newGuestId(), "2026-12-09", "11:00")).invoiceId).toBeTruthy();
  });

  it("refuses another guest's invoice (438) and a cancelled visit (5001)", async () => {
    const guestId = await newGuestId();
    const visit = await book(guestId, "2026-12-11");
    const [group] = await client.listGuestAppointments(guestId);
    const reschedule = { invoiceId: visit.invoiceId, invoiceItemId: group.services[0].invoiceItemId! };
    const request = (who: string) =>
      client.createBooking({
        centerId: AUSTIN,
        date: "2026-12-12",
        guestId: who,
        serviceId: FACIAL,
        therapistId: null,
        addOnIds: [],
        reschedule,
      });
    expect(await refusal(request(await newGuestId()))).toBe(438);
    await client.cancelInvoice(visit.invoiceId, PERSONAL, "x");
    expect(await refusal(request(guestId))).toBe(5001);
  });
});

describe("the front desk and the move control", () => {
  it("moves a visit into the past, then closes it (status 1) or marks a no-show (-2)", async () => {
    const guestId = await newGuestId();
    const first = await book(guestId, "2026-12-14");
    const second = await book(guestId, "2026-12-15");
    expect(
      (await api("POST", `/v1/sandbox/appointments/${first.invoiceId}/move`, { start: "2026-10-05T10:00:00" })).success,
    ).toBe(true);
    expect(
      (await api("POST", `/v1/sandbox/appointments/${second.invoiceId}/move`, { start: "2026-10-06T10:00:00" }))
        .success,
    ).toBe(true);
    expect((await api("POST", `/v1/invoices/${first.invoiceId}/close`)).success).toBe(true);
    expect(
      (await api("PUT", `/v1/appointments/${second.invoiceId}/no_show`, { comments: "did not come" })).error,
    ).toBeNull();
    const visits = await client.listGuestAppointments(guestId, { includeNoShowCancel: true });
    expect(visits.map((v) => [v.services[0].start, v.services.map((s) => s.status)])).toEqual([
      ["2026-10-05T10:00:00", [1, 1]],
      ["2026-10-06T10:00:00", [-2, -2]],
    ]);
    // A closed visit is not cancelled or moved by the guest.
    expect(await refusal(client.cancelInvoice(first.invoiceId, PERSONAL, "x"))).toBe(502);
    expect(
      (await api("POST", `/v1/sandbox/appointments/${first.invoiceId}/move`, { start: "yesterday" })).error,
    ).toBeTruthy();
  });
});
