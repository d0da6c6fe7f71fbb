import { describe, expect, it } from "vitest";
import type { PaymentAttempt } from "../store/stores.server";
import { visitSpan } from "./confirmation.server";
import { ConfirmedSchema, confirmedOf } from "./draft.server";

const CHICAGO = "America/Chicago";

describe("visitSpan", () => {
  it("ends when the service that ends last ends, each lasting its service's duration", () => {
    const services = [
      { start: "2026-12-07T10:00:00", durationMinutes: 45 },
      { start: "2026-12-07T10:45:00", durationMinutes: 15 },
    ];
    expect(visitSpan(services, CHICAGO)).toEqual({ start: "2026-12-07T10:00:00", end: "2026-12-07T11:00:00" });
  });

  it("starts at the earliest service whatever their order, and a long first service can end last", () => {
    const services = [
      { start: "2026-12-07T10:15:00", durationMinutes: 10 },
      { start: "2026-12-07T10:00:00", durationMinutes: 90 },
    ];
    expect(visitSpan(services, CHICAGO)).toEqual({ start: "2026-12-07T10:00:00", end: "2026-12-07T11:30:00" });
  });

  it("counts real minutes across a change of clocks", () => {
    // Chicago, 8 March 2026: at 02:00 the clocks go to 03:00, so 90 minutes from 01:00 end at 03:30.
    expect(visitSpan([{ start: "2026-03-08T01:00:00", durationMinutes: 90 }], CHICAGO).end).toBe("2026-03-08T03:30:00");
  });
});

describe("confirmedOf", () => {
  const attempt = {
    appointmentId: "a1",
    invoiceId: "i1",
    guestId: "g1",
    centerId: "c1",
    slot: "2026-12-07T10:00:00",
    serviceNames: ["Signature Laser Facial", "LED Light Therapy Enhancement (Addon)"],
  } as PaymentAttempt;

  it("keeps what the confirm's answer said was booked, so the confirmation page asks the back end nothing more", () => {
    expect(confirmedOf({ ...attempt, visitEnd: "2026-12-07T11:00:00" }).visit).toEqual({
      start: "2026-12-07T10:00:00",
      end: "2026-12-07T11:00:00",
      services: ["Signature Laser Facial", "LED Light Therapy Enhancement (Addon)"],
      nurse: null,
    });
  });

  it("keeps the nurse the confirm's answer named", () => {
    expect(confirmedOf({ ...attempt, visitEnd: "2026-12-07T11:00:00", nurseName: "Brianna Cole" }).visit?.nurse).toBe(
      "Brianna Cole",
    );
    expect(confirmedOf({ ...attempt, visitEnd: "2026-12-07T11:00:00" }).visit?.nurse).toBeNull();
  });

  it("keeps the back end's paid and due amounts and the invoice's number when the booking read them, and none otherwise", () => {
    const booked = { paid: 27_500, due: 0, reference: "HOU1042" };
    expect(confirmedOf({ ...attempt, bookedInvoice: booked }).invoice).toEqual(booked);
    expect(confirmedOf({ ...attempt, bookedInvoice: null }).invoice).toBeUndefined();
    expect(ConfirmedSchema.safeParse(confirmedOf({ ...attempt, bookedInvoice: booked })).success).toBe(true);
  });

  it("keeps no visit when the booking was found among the guest's appointments (the page reads them)", () => {
    expect(confirmedOf({ ...attempt, visitEnd: null }).visit).toBeUndefined();
    expect(confirmedOf(attempt).visit).toBeUndefined();
  });

  it("keeps a visit the session can always read back, however long the names", () => {
    const long = confirmedOf({
      ...attempt,
      visitEnd: "2026-12-07T11:00:00",
      serviceNames: Array.from({ length: 40 }, () => "x".repeat(500)),
    });
    expect(ConfirmedSchema.safeParse(long).success).toBe(true);
  });
});
