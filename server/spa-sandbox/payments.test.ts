import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, TEST_API_KEY } from "../../tests/helpers/sandbox-server";
import { createSpaClient, type SpaClient } from "../spa/client.server";
import { seedGuid } from "./db";
import { THREE_DS_TEST_CARD } from "./payments";

const AUSTIN = seedGuid("center:ATX");
const FACIAL = seedGuid("service:FT-NEW");
const DAY = "2026-12-08";
const ZONE = "America/Chicago";
const SHOP = "https://shop.example/appointment/payment";
let now = Date.parse("2026-11-30T15:00:00Z");

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let own: Sandbox;
let embedded: Sandbox;
let guests = 0;

beforeAll(async () => {
  own = await startSandbox({ now: () => now });
  embedded = await startSandbox({ now: () => now, hostedPagesOnCallerOrigin: true });
});
afterAll(async () => {
  await own.stop();
  await embedded.stop();
});

const clientOf = (sandbox: Sandbox) =>
  createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY }, clock: () => now });

/** A guest with one saved card (the number given) and a confirmed facial at `time`. */
async function confirmedWithCard(client: SpaClient, number: string, time: string, shop = SHOP) {
  guests += 1;
  const guest = await client.createGuest({
    centerId: AUSTIN,
    firstName: "Ana",
    lastName: `Pay${guests}`,
    email: `pay${guests}@example.com`,
    phone: `51255502${String(guests).padStart(2, "0")}`,
    consents: { marketingEmail: false, marketingSms: false, transactionalEmail: true, transactionalSms: true },
    tags: [],
  });
  const card = await client.startCardCapture(guest.id, AUSTIN, shop);
  await fetch(card, {
    method: "POST",
    body: new URLSearchParams({ name: "Ana", number, expiry: "12/30", cvc: "123" }),
    redirect: "manual",
  });
  const [saved] = await client.listCards(guest.id, AUSTIN);
  const bookingId = await client.createBooking({
    centerId: AUSTIN,
    date: DAY,
    guestId: guest.id,
    serviceId: FACIAL,
    therapistId: null,
    addOnIds: [],
  });
  await client.reserveSlot(bookingId, `${DAY}T${time}`, ZONE);
  const confirmed = (await client.confirmBooking(bookingId))!;
  return { accountId: saved.accountId, invoiceId: confirmed.invoiceId };
}

/** Answers the verification page as the guest would; returns where they are sent. */
async function answerCheck(uri: string, result: string) {
  const answer = await fetch(uri, { method: "POST", body: new URLSearchParams({ result }), redirect: "manual" });
  return { status: answer.status, location: answer.headers.get("location") };
}

describe("3-D Secure", () => {
  it("answers a charge to the 3-D Secure card with a page, and records the payment when the check is passed", async () => {
    const client = clientOf(own);
    const { accountId, invoiceId } = await confirmedWithCard(client, THREE_DS_TEST_CARD, "10:00:00");
    const result = await client.payInvoice(invoiceId, AUSTIN, accountId, SHOP);
    expect(result.kind).toBe("verify");
    const uri = (result as { uri: string }).uri;
    expect(new URL(uri).origin).toBe(new URL(own.baseUrl).origin);
    expect((await client.getInvoice(invoiceId)).paid).toBe(0);

    const page = await fetch(uri);
    expect(await page.text()).toContain("$275.00");
    expect(await answerCheck(uri, "maybe")).toMatchObject({ status: 400 });
    expect(await answerCheck(uri, "approve")).toEqual({ status: 303, location: `${SHOP}?status=successful` });
    expect(await client.getInvoice(invoiceId)).toMatchObject({ paid: 27500, balance: 0 });
    // A page is used once.
    expect((await fetch(uri)).status).toBe(410);
    expect(await answerCheck(uri, "approve")).toMatchObject({ status: 410 });
  });

  it("records nothing when the check is refused, and refuses a 3-D Secure charge without a redirect_uri", async () => {
    const client = clientOf(own);
    const { accountId, invoiceId } = await confirmedWithCard(client, THREE_DS_TEST_CARD, "11:00:00");
    const result = (await client.payInvoice(invoiceId, AUSTIN, accountId, SHOP)) as { uri: string };
    expect(await answerCheck(result.uri, "refuse")).toEqual({ status: 303, location: `${SHOP}?status=failed` });
    expect((await client.getInvoice(invoiceId)).paid).toBe(0);

    const raw = await fetch(`${own.baseUrl}/v1/invoices/${invoiceId}/online_payments`, {
      method: "POST",
      headers: { authorization: `apikey ${TEST_API_KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ account_id: accountId, center_id: AUSTIN, source: 1 }),
    });
    expect(await raw.json()).toMatchObject({ error: { message: expect.stringContaining("redirect_uri") } });
  });

  it("charges nothing when the lines were removed before the check was passed", async () => {
    const client = clientOf(own);
    const { accountId, invoiceId } = await confirmedWithCard(client, THREE_DS_TEST_CARD, "12:00:00");
    const result = (await client.payInvoice(invoiceId, AUSTIN, accountId, SHOP)) as { uri: string };
    for (const item of (await client.getInvoice(invoiceId)).items)
      await client.removeInvoiceItem(invoiceId, item.invoiceItemId, "gone");
    expect(await answerCheck(result.uri, "approve")).toEqual({ status: 303, location: `${SHOP}?status=failed` });
    expect((await client.getInvoice(invoiceId)).paid).toBe(0);
  });

  it("times the check out after ten minutes", async () => {
    const client = clientOf(own);
    const { accountId, invoiceId } = await confirmedWithCard(client, THREE_DS_TEST_CARD, "13:00:00");
    const result = (await client.payInvoice(invoiceId, AUSTIN, accountId, SHOP)) as { uri: string };
    now += 10 * 60_000 + 1_000;
    expect((await fetch(result.uri)).status).toBe(410);
  });
});

describe("hosted pages' origin", () => {
  it("embedded in the app, addresses the card page and the check on the origin of the redirect_uri", async () => {
    const client = clientOf(embedded);
    // The test's own "shop" is the sandbox's address, so that its card page can be reached here.
    const { accountId, invoiceId } = await confirmedWithCard(
      client,
      THREE_DS_TEST_CARD,
      "14:00:00",
      `${new URL(embedded.baseUrl).origin}/appointment/payment`,
    );
    const result = (await client.payInvoice(
      invoiceId,
      AUSTIN,
      accountId,
      "http://localhost:7000/appointment/payment",
    )) as { uri: string };
    expect(result.uri).toMatch(/^http:\/\/localhost:7000\/api\/hosted\/verify\/[\w-]+$/);
    const guest = await client.createGuest({
      centerId: AUSTIN,
      firstName: "Ana",
      lastName: "Embedded",
      email: "embedded@example.com",
      phone: "5125550400",
      consents: { marketingEmail: false, marketingSms: false, transactionalEmail: true, transactionalSms: true },
      tags: [],
    });
    expect(await client.startCardCapture(guest.id, AUSTIN, "https://demo.example/appointment/payment")).toMatch(
      /^https:\/\/demo\.example\/api\/hosted\/card\/[\w-]+$/,
    );
  });

  it("on its own, addresses them at the host its API was called on", async () => {
    const client = clientOf(own);
    guests += 1;
    const guest = await client.createGuest({
      centerId: AUSTIN,
      firstName: "Ana",
      lastName: `Own${guests}`,
      email: `own${guests}@example.com`,
      phone: `51255503${String(guests).padStart(2, "0")}`,
      consents: { marketingEmail: false, marketingSms: false, transactionalEmail: true, transactionalSms: true },
      tags: [],
    });
    const uri = await client.startCardCapture(guest.id, AUSTIN, SHOP);
    expect(uri.startsWith(`${own.baseUrl}/hosted/card/`)).toBe(true);
  });
});
