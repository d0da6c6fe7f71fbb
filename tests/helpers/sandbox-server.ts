import express from "express";
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { createSpaClient, type SpaClient } from "../../server/spa/client.server";
import { isSpaError, type SpaError } from "../../server/spa/errors.server";
import { seedGuid } from "../../server/spa-sandbox/db";
import { createSpaSandbox, type SandboxOptions, type SpaSandbox } from "../../server/spa-sandbox/index";
import { closeVisit, moveVisit } from "../../server/spa-sandbox/visits";

export const TEST_API_KEY = "test-api-key-123";
export const TEST_USER = { username: "frontdesk", password: "s3cret-pass", clientId: "webstore-client" };
/** The same user's organisation and app secret, which `/v1/tokens` checks. */
const TEST_USER_V1 = { ...TEST_USER, accountName: "glowclinic", appSecret: "app-secret-1" };

/** The spa sandbox on a real loopback port, with an in-memory database. */
export async function startSandbox(
  options: Partial<SandboxOptions> = {},
): Promise<SpaSandbox & { baseUrl: string; stop(): Promise<void> }> {
  const sandbox = createSpaSandbox({ file: ":memory:", apiKeys: [TEST_API_KEY], users: [TEST_USER_V1], ...options });
  const app = express();
  app.use("/api", sandbox.router);
  const server = await new Promise<import("node:http").Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return Object.assign(sandbox, {
    baseUrl: `http://127.0.0.1:${port}/api`,
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      sandbox.close();
    },
  });
}

export type TestSandbox = Awaited<ReturnType<typeof startSandbox>>;

/**
 * A sandbox on a port of its own and a client of it on the same clock, the set-up most sandbox and
 * client tests share (holds last 10 minutes).
 */
export async function startSandboxAndClient(now: () => number): Promise<{ sandbox: TestSandbox; client: SpaClient }> {
  const sandbox = await startSandbox({ now, holdSeconds: 600 });
  return {
    sandbox,
    client: createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY }, clock: now }),
  };
}

let testGuests = 0;

/** A new guest at a clinic, through the client, with an email and a mobile no other test guest has. */
export async function createTestGuest(
  client: Pick<SpaClient, "createGuest">,
  centerId: string,
  firstName: string,
  lastName: string,
): Promise<string> {
  testGuests += 1;
  const guest = await client.createGuest({
    centerId,
    firstName,
    lastName,
    email: `${firstName.toLowerCase()}.${testGuests}.${randomUUID().slice(0, 8)}@example.com`,
    phone: `512555${String(testGuests % 10_000).padStart(4, "0")}`,
    consents: { marketingEmail: false, marketingSms: false, transactionalEmail: true, transactionalSms: true },
    tags: [],
  });
  return guest.id;
}

/**
 * Saves a card for the guest through the sandbox's hosted card page, as the guest's browser would
 * (a number from the sandbox's test cards decides how its charges go); its account id.
 */
export async function saveTestCard(
  client: Pick<SpaClient, "startCardCapture" | "listCards">,
  guestId: string,
  centerId: string,
  number = "4242424242424242",
): Promise<string> {
  const page = await client.startCardCapture(guestId, centerId, "https://shop.example/card");
  await fetch(page, {
    method: "POST",
    body: new URLSearchParams({ name: "Test Guest", number, expiry: "12/30", cvc: "123" }),
    redirect: "manual",
  });
  const saved = (await client.listCards(guestId, centerId)).at(-1);
  if (!saved) throw new Error("the sandbox did not save the card");
  return saved.accountId;
}

/**
 * Gives the guest a visit the clinic closed (status 1) on a past day: booked through the client on
 * `date`, then moved to `pastStart` and closed with the sandbox's own controls. `serviceCode` is the
 * seed's code (server/spa-sandbox/seed-data.ts). The visit's invoice id.
 */
export async function completedVisit(
  sandbox: TestSandbox,
  client: Pick<SpaClient, "createBooking" | "listSlots" | "reserveSlot" | "confirmBooking">,
  visit: { guestId: string; centerId: string; serviceCode: string; date: string; pastStart: string },
): Promise<string> {
  const bookingId = await client.createBooking({
    centerId: visit.centerId,
    date: visit.date,
    guestId: visit.guestId,
    serviceId: seedGuid(`service:${visit.serviceCode}`),
    therapistId: null,
    addOnIds: [],
  });
  const [open] = (await client.listSlots(bookingId, visit.date)).times;
  if (!open || !(await client.reserveSlot(bookingId, open, "America/Chicago")))
    throw new Error(`no open time on ${visit.date}`);
  const confirmed = await client.confirmBooking(bookingId, "America/Chicago");
  if (
    !confirmed ||
    !moveVisit(sandbox.db, confirmed.invoiceId, visit.pastStart) ||
    !closeVisit(sandbox.db, confirmed.invoiceId)
  )
    throw new Error("the visit was not completed");
  return confirmed.invoiceId;
}

/** The client's error for a call that must fail (a call that succeeds, or another error, fails the test). */
export async function rejection(promise: Promise<unknown>): Promise<SpaError> {
  try {
    await promise;
  } catch (error) {
    if (isSpaError(error)) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

/** The back end's error code for a call that must be refused (a call that succeeds fails the test). */
export async function refusal(promise: Promise<unknown>): Promise<number | string | null> {
  try {
    await promise;
  } catch (error) {
    if (isSpaError(error)) return error.code;
    throw error;
  }
  throw new Error("expected a refusal");
}
