import { describe, expect, it } from "vitest";
import { clientOnJsonBackend } from "../../tests/helpers/json-backend";
import { captureWarnings } from "../../tests/helpers/log-lines";
import { refusal } from "../../tests/helpers/sandbox-server";
import { readClockTime } from "./catalog.server";
import { readVendorError } from "./http.server";

/**
 * The variants of Zenoti's answers that its documentation or public code shows (decision 035), each
 * read by the client: on canned answers, since the usual sandbox gives only one of each.
 */

describe("a guest's saved cards", () => {
  const visa = { account_id: "A1", card_logo: "visa", last_four: "1234", expiry_on: "12/25" };

  it("are read from a bare array, as docs.zenoti.com's reference answers", async () => {
    const { client } = await clientOnJsonBackend({
      "/v1/guests/G1/accounts": { body: [visa, { ...visa, account_id: "A2", card_logo: null }] },
    });
    expect(await client.listCards("G1", "C1")).toEqual([
      { accountId: "A1", brand: "visa", lastFour: "1234", expiry: "12/25", createdAt: null },
      { accountId: "A2", brand: "Card", lastFour: "1234", expiry: "12/25", createdAt: null },
    ]);
  });

  it("are read from the envelope public code reads, an empty one (null) as none", async () => {
    const { client } = await clientOnJsonBackend({
      "/v1/guests/G1/accounts": {
        body: {
          accounts: [{ ...visa, created_date_iso: "2026-11-30T15:00:00Z" }],
          has_expired_cards: false,
          error: null,
        },
      },
      "/v1/guests/G2/accounts": { body: { accounts: null, has_expired_cards: false, error: null } },
    });
    expect(await client.listCards("G1", "C1")).toEqual([
      { accountId: "A1", brand: "visa", lastFour: "1234", expiry: "12/25", createdAt: "2026-11-30T15:00:00Z" },
    ]);
    expect(await client.listCards("G2", "C1")).toEqual([]);
  });

  it("are read card by card in either shape: a card without its account id is dropped and logged, an odd detail reads as absent", async () => {
    const warnings = captureWarnings();
    const cards = [
      visa,
      { card_logo: "visa", last_four: "9999" },
      "junk",
      { ...visa, account_id: "A3", last_four: 4321 },
    ];
    const { client } = await clientOnJsonBackend({
      "/v1/guests/G1/accounts": { body: cards },
      "/v1/guests/G2/accounts": { body: { accounts: cards, has_expired_cards: false, error: null } },
    });
    for (const guest of ["G1", "G2"]) {
      expect((await client.listCards(guest, "C1")).map((c) => [c.accountId, c.lastFour])).toEqual([
        ["A1", "1234"],
        ["A3", ""],
      ]);
    }
    expect(warnings.filter((w) => w.kind === "card").map((w) => [w.guest, w.reason])).toEqual([
      ["G1", "account_id: invalid_type"],
      ["G1", "(element): invalid_type"],
      ["G2", "account_id: invalid_type"],
      ["G2", "(element): invalid_type"],
    ]);
  });
});

describe("a card listed more than once", () => {
  const visa = { account_id: "A1", card_logo: "visa", last_four: "1234", expiry_on: "12/25" };
  const mastercard = { account_id: "M1", card_logo: "mastercard", last_four: "5678", expiry_on: "08/26" };
  const shapes = (cards: unknown[]) => ({
    "/v1/guests/G1/accounts": { body: cards },
    "/v1/guests/G2/accounts": { body: { accounts: cards, has_expired_cards: false, error: null } },
  });
  const idsOf = async (cards: unknown[]) => {
    const { client } = await clientOnJsonBackend(shapes(cards));
    const [bare, envelope] = [await client.listCards("G1", "C1"), await client.listCards("G2", "C1")];
    expect(bare).toEqual(envelope);
    return bare.map((card) => card.accountId);
  };

  it("is one card when the same account is listed twice (ids compared as Zenoti's GUIDs, case aside)", async () => {
    expect(await idsOf([visa, mastercard, { ...visa, account_id: "a1" }])).toEqual(["M1", "a1"]);
  });

  it("is one card when saved again under a new account: the newest account is kept, in its place", async () => {
    // Three saves of one card, as the hosted card page makes them, with another card between.
    expect(await idsOf([visa, mastercard, { ...visa, account_id: "A2" }, { ...visa, account_id: "A3" }])).toEqual([
      "M1",
      "A3",
    ]);
    // Newest by created_date_iso when the list gives it, whatever the order.
    const dated = [
      { ...visa, account_id: "A9", created_date_iso: "2026-11-30T15:00:00Z" },
      { ...visa, account_id: "A8", created_date_iso: "2026-11-01T09:00:00Z" },
      mastercard,
    ];
    expect(await idsOf(dated)).toEqual(["A9", "M1"]);
  });

  it("keeps cards that differ in brand, last four or expiry, and never merges cards it cannot tell apart", async () => {
    const others = [
      visa,
      { ...visa, account_id: "A2", expiry_on: "12/27" },
      { ...visa, account_id: "A3", last_four: "4321" },
      { ...visa, account_id: "A4", card_logo: "amex" },
    ];
    expect(await idsOf(others)).toEqual(["A1", "A2", "A3", "A4"]);
    expect(
      await idsOf([
        { ...visa, last_four: null },
        { ...visa, account_id: "A2", last_four: null },
      ]),
    ).toEqual(["A1", "A2"]);
  });
});

describe("working hours in Zenoti's published form", () => {
  it.each([
    ["800", "08:00"],
    ["0800", "08:00"],
    ["2200", "22:00"],
    ["930", "09:30"],
    ["2400", "24:00"],
    [800, "08:00"],
    [1730, "17:30"],
    ["0", "00:00"],
    ["960", null],
    ["2500", null],
    ["12345", null],
    [-800, null],
    [8.5, null],
  ])("clock %j is %j", (value, clock) => {
    expect(readClockTime(value)).toBe(clock);
  });

  it("open the clinic on those days, and leave the others closed", async () => {
    const { client } = await clientOnJsonBackend({
      "/v1/centers": {
        body: {
          centers: [
            {
              id: "C1",
              name: "Tribeca",
              location: {
                time_zone: {
                  id: 15,
                  name: "(UTC-05:00) Eastern Time (US & Canada)",
                  standard_name: "Eastern Standard Time",
                },
              },
              working_hours: [
                { day_of_week: "Monday", start_time: "800", end_time: "2200" },
                { day_of_week: "Tuesday", start_time: "0930", end_time: "1900" },
                { day_of_week: "Saturday", start_time: 1000, end_time: 1600 },
              ],
            },
          ],
        },
      },
    });
    const [center] = (await client.listCenters()).centers;
    expect(center.workingHours.filter((d) => d.opens)).toEqual([
      { dayOfWeek: 1, opens: "08:00", closes: "22:00" },
      { dayOfWeek: 2, opens: "09:30", closes: "19:00" },
      { dayOfWeek: 6, opens: "10:00", closes: "16:00" },
    ]);
  });
});

describe("errors with code and message at the top level", () => {
  it("are read as Zenoti's pagination error gives them, empty results beside them allowed", () => {
    expect(readVendorError({ code: 422, message: "You cannot request more than 100 items." })).toEqual({
      code: 422,
      message: "You cannot request more than 100 items.",
    });
    expect(
      readVendorError({ therapists: null, page_info: null, success: false, code: "502", message: "Invalid center_id" }),
    ).toEqual({ code: "502", message: "Invalid center_id" });
    expect(readVendorError({ guests: [], code: 414, message: "" })).toEqual({
      code: 414,
      message: "Unknown Error! Contact Admin",
    });
  });

  it("are never read into an answer: a record with a code of its own, a success code, no message", () => {
    expect(readVendorError({ id: "C1", code: "Z001", name: "Zenoti Inc.", message: "Welcome" })).toBeNull();
    expect(readVendorError({ code: 0, message: "OK" })).toBeNull();
    expect(readVendorError({ code: 200, message: "Success" })).toBeNull();
    expect(readVendorError({ code: "200", message: "Success" })).toBeNull();
    expect(readVendorError({ code: "", message: "x" })).toBeNull();
    expect(readVendorError({ code: 414 })).toBeNull();
    expect(readVendorError({ success: true, code: 414, message: "x" })).toBeNull();
    expect(readVendorError([{ code: 414, message: "x" }])).toBeNull();
  });

  it("keep their meaning for the client: guest not found, hold lost, duplicate email, unknown center, invoice already closed", async () => {
    const refused = (code: number | string, message: string, extra: object = {}) => ({
      body: { ...extra, code, message },
    });
    const { client } = await clientOnJsonBackend({
      "/v1/guests/G1": refused(414, "Guest not found"),
      "/v1/bookings/B1/slots/confirm": refused(4072, "Please try selecting your desired date & time again", {
        is_confirmed: false,
      }),
      "/v1/guests": refused(442, "Email already exists. A guest with this email is a duplicate"),
      "/v1/centers/C9/therapists": refused("502", "Invalid center_id", { therapists: null }),
      "/v1/invoices/I1/close": refused(1114, "Invoice is already closed", { is_invoice_closed: false, success: false }),
      "/v1/centers": { status: 400, body: { code: 422, message: "You cannot request more than 100 items." } },
    });
    expect(await client.getGuest("G1")).toBeNull();
    expect(await client.confirmBooking("B1")).toBeNull();
    const guest = {
      centerId: "C1",
      firstName: "Mia",
      lastName: "Rivera",
      email: "mia@example.com",
      phone: "5125550177",
      consents: { marketingEmail: false, marketingSms: false, transactionalEmail: true, transactionalSms: true },
      tags: [],
    };
    await expect(client.createGuest(guest)).rejects.toMatchObject({
      kind: "rejected",
      status: 200,
      code: 442,
      message: "Email already exists. A guest with this email is a duplicate",
    });
    expect(await client.listTherapists("C9")).toBeNull();
    expect(await client.closeInvoice("I1")).toBe("already-closed");
    expect(await refusal(client.listCenters())).toBe(422);
  });
});

describe("a guest read", () => {
  it("asks Zenoti for the parts it sends only on request, so the guest's consents and address are known", async () => {
    const { client, backend } = await clientOnJsonBackend({
      "/v1/guests/G1": (url) => {
        const asked = url.searchParams.getAll("expand");
        return {
          body: {
            id: "G1",
            center_id: "C1",
            personal_info: {
              first_name: "Ana",
              last_name: "Diaz",
              email: "ana@example.com",
              mobile_phone: { number: "5125550100" },
            },
            address_info: asked.includes("address_info")
              ? { address_1: "1 Main St", city: "Austin", zip_code: "78701" }
              : null,
            preferences: asked.includes("preferences")
              ? {
                  receive_marketing_email: true,
                  receive_marketing_sms: false,
                  receive_transactional_email: true,
                  receive_transactional_sms: true,
                }
              : null,
            error: null,
          },
        };
      },
    });
    expect(await client.getGuest("G1")).toMatchObject({
      address: { line1: "1 Main St", city: "Austin", zip: "78701" },
      consents: { marketingEmail: true, marketingSms: false, transactionalEmail: true, transactionalSms: true },
    });
    expect(backend.requests[0].url.searchParams.getAll("expand")).toEqual([
      "address_info",
      "preferences",
      "tags",
      "referral",
    ]);
  });
});
