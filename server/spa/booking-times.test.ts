import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEFAULT_HOLD_MS } from "./booking.server";
import { createSpaClient, type SpaClient } from "./client.server";

/**
 * The client against answers shaped as Zenoti may send them, beyond what the sandbox sends:
 * fractional seconds, offsets, a duration in either place, another day's slots.
 */

let answers: Record<string, unknown> = {};
let server: http.Server;
let client: SpaClient;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const answer = answers[`${req.method} ${path}`];
    res.writeHead(answer ? 200 : 404, { "content-type": "application/json" });
    res.end(JSON.stringify(answer ?? { Message: "No HTTP resource" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  client = createSpaClient({
    baseUrl: `http://127.0.0.1:${port}`,
    auth: { type: "apikey", apiKey: "k" },
    retryDelayMs: 1,
  });
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const reserveAnswer = (expiry_time: string | null) => ({
  "POST /v1/bookings/b1/slots/reserve": { is_reserved: true, reservation_id: "r1", expiry_time, error: null },
});

describe("reserveSlot", () => {
  it("reads an offset-less expiry in the clinic's zone, as an instant", async () => {
    answers = reserveAnswer("2026-12-07T10:10:00");
    expect((await client.reserveSlot("b1", "2026-12-07T10:00:00", "America/Chicago"))?.expiresAt).toBe(
      "2026-12-07T16:10:00.000Z",
    );
    expect((await client.reserveSlot("b1", "2026-12-07T10:00:00", "America/New_York"))?.expiresAt).toBe(
      "2026-12-07T15:10:00.000Z",
    );
  });

  it("honours an offset or Z, and fractional seconds", async () => {
    answers = reserveAnswer("2026-12-07T16:10:00.1234567Z");
    expect((await client.reserveSlot("b1", "2026-12-07T10:00:00", "America/Chicago"))?.expiresAt).toBe(
      "2026-12-07T16:10:00.000Z",
    );
    answers = reserveAnswer("2026-12-07T10:10:00-06:00");
    expect((await client.reserveSlot("b1", "2026-12-07T10:00:00", "America/Los_Angeles"))?.expiresAt).toBe(
      "2026-12-07T16:10:00.000Z",
    );
  });

  it("falls back to a few minutes when Zenoti names no expiry, or one that cannot be read", async () => {
    // The clock stands still (only Date is faked: the call still goes over HTTP), so the hold's end is exact however long the call takes.
    const now = Date.parse("2026-12-07T15:58:00.000Z");
    vi.useFakeTimers({ toFake: ["Date"], now });
    try {
      for (const expiry of [null, "in ten minutes"]) {
        answers = reserveAnswer(expiry);
        const at = Date.parse((await client.reserveSlot("b1", "2026-12-07T10:00:00", "America/Chicago"))!.expiresAt);
        expect(at).toBe(now + DEFAULT_HOLD_MS);
      }
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("confirmBooking", () => {
  const confirmAnswer = (start: string, end: string) => ({
    "POST /v1/bookings/b1/slots/confirm": {
      is_confirmed: true,
      invoice: {
        invoice_id: "INV-1",
        items: [
          {
            appointment_id: "A-1",
            invoice_item_id: "II-1",
            item: { id: "S-1", name: "Facial" },
            therapist: { id: "T-1", full_name: "Ana B" },
            start_time: start,
            end_time: end,
          },
        ],
      },
      error: null,
    },
  });

  it("a fractional second never turns a confirmed booking into an error", async () => {
    answers = confirmAnswer("2026-12-07T10:00:00.000", "2026-12-07T10:45:00.0000000");
    expect((await client.confirmBooking("b1"))?.items[0]).toMatchObject({
      start: "2026-12-07T10:00:00",
      end: "2026-12-07T10:45:00",
    });
  });

  it("places times with an offset on the clinic's clock", async () => {
    answers = confirmAnswer("2026-12-07T16:00:00Z", "2026-12-07T10:45-06:00");
    expect((await client.confirmBooking("b1", "America/Chicago"))?.items[0]).toMatchObject({
      start: "2026-12-07T10:00:00",
      end: "2026-12-07T10:45:00",
    });
  });
});

describe("listGuestAppointments", () => {
  const visit = (service: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    "GET /v1/guests/g1/appointments": {
      appointments: [
        {
          invoice_id: "INV-1",
          center_id: "C-1",
          appointment_services: [
            {
              appointment_id: "A-1",
              appointment_status: 0,
              start_time: "2026-12-07T10:00:00.000",
              service,
              item_actions: "",
              ...extra,
            },
          ],
        },
      ],
    },
  });

  it("reads the duration where Zenoti puts it, on the service", async () => {
    answers = visit({ name: "Facial", display_name: null, duration: 45 });
    expect((await client.listGuestAppointments("g1"))[0].services[0]).toMatchObject({
      start: "2026-12-07T10:00:00",
      durationMinutes: 45,
      name: "Facial",
    });
  });

  it("falls back to a duration on the appointment service", async () => {
    answers = visit({ name: "Facial" }, { duration: 30 });
    expect((await client.listGuestAppointments("g1"))[0].services[0].durationMinutes).toBe(30);
  });
});

describe("listSlots", () => {
  const slots = (times: string[], next: string | null) => ({
    "GET /v1/bookings/b1/slots": {
      slots: times.map((Time) => ({ Time, Available: true })),
      future_days: [],
      next_available_day: next,
      Error: null,
    },
  });

  it("lists the asked day's times only; another day's name the next day with openings", async () => {
    answers = slots(["2026-12-08T09:00:00", "2026-12-08T09:15:00"], null);
    expect(await client.listSlots("b1", "2026-12-07")).toEqual({
      times: [],
      nextAvailableDay: "2026-12-08",
      weekDays: [],
    });
  });

  it("keeps the asked day's times, normalised, and Zenoti's next_available_day", async () => {
    answers = slots(["2026-12-07T09:00", "2026-12-07T09:15:00.000"], "2026-12-09T00:00:00");
    expect(await client.listSlots("b1", "2026-12-07")).toEqual({
      times: ["2026-12-07T09:00:00", "2026-12-07T09:15:00"],
      nextAvailableDay: "2026-12-09",
      weekDays: [],
    });
  });

  it("never offers an earlier day as the next one", async () => {
    answers = slots(["2026-12-05T09:00:00"], "2026-12-05");
    expect(await client.listSlots("b1", "2026-12-07")).toEqual({ times: [], nextAvailableDay: null, weekDays: [] });
  });

  it("says which other days of the week have openings, from future_days, by date", async () => {
    answers = {
      "GET /v1/bookings/b1/slots": {
        slots: [{ Time: "2026-12-07T09:00:00", Available: true }],
        future_days: [
          { Day: "2026-12-07T00:00:00", IsAvailable: true, HolidayType: null },
          { Day: "2026-12-08T00:00:00", IsAvailable: false, HolidayType: null },
          { Day: "2026-12-09", IsAvailable: true, HolidayType: null },
          { Day: "not a day", IsAvailable: false, HolidayType: null },
        ],
        next_available_day: "2026-12-09",
        Error: null,
      },
    };
    // The day asked for is told by its own times; a day that cannot be read is left out.
    expect((await client.listSlots("b1", "2026-12-07")).weekDays).toEqual([
      { date: "2026-12-08", open: false },
      { date: "2026-12-09", open: true },
    ]);
  });
});
