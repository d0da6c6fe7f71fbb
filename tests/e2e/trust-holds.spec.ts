import type { APIRequestContext, Page, PlaywrightWorkerArgs } from "@playwright/test";
import type { BookingDay } from "./booking-days";
import { expect, ONCE, test } from "./fixtures";
import { buttonTarget, otherClientAddress, sandboxGuestCount, uniqueEmail, uniquePhone } from "./helpers";

// The tests count one clinic's guest records: each takes its clinic from bookingDay, so no test
// running at the same time books there, and its dates, so no test before it left holds on them.

const ATTEMPTS = 40;
const LIVE_HOLDS_PER_ADDRESS = 3;
const HOUR = 60 * 60_000;

/** `timeStep`: the time step a booking link lands on, with the link's choices in its address until its POST keeps them. */
type Day = { centerId: string; date: string; slots: string[]; bookingLink: string; timeStep: string };

/**
 * Picks the new-client facial at the test's clinic and reads the open times of its dates. Only
 * times an hour apart are kept, so that any of them can be held together (the clinic has few
 * nurses), and no time is tried twice.
 */
async function openDay(page: Page, { clinic, dates }: BookingDay): Promise<Day> {
  const centerId = clinic.centerId;
  await page.goto(`/appointment/service?id=${centerId}`);
  const select = await buttonTarget(page.getByRole("button", { name: "Select Signature Laser Facial - New Client" }));
  const serviceId = new URL(select, "http://x").searchParams.get("choose")!;
  const bookingLink = `/appointment/service?id=${centerId}&service=${serviceId}&date=${dates[0]}`;
  await page.goto(bookingLink);
  await expect(page.getByRole("heading", { level: 1, name: "Choose a date and time" })).toBeVisible();
  const landed = new URL(page.url());
  const timeStep = `${landed.pathname}${landed.search}`;
  const slots: string[] = [];
  for (const date of dates) {
    landed.searchParams.set("date", date);
    await page.goto(`${landed.pathname}${landed.search}`);
    const buttons = page.getByRole("form", { name: "Open times" }).getByRole("button");
    await expect(buttons.first()).toBeVisible();
    const times = await buttons.evaluateAll((list) => list.map((b) => (b as HTMLButtonElement).value));
    for (const time of times) {
      const last = slots.at(-1);
      if (!last || last.slice(0, 10) !== time.slice(0, 10) || Date.parse(`${time}Z`) - Date.parse(`${last}Z`) >= HOUR)
        slots.push(time);
    }
  }
  return { centerId, date: dates[0], slots, bookingLink, timeStep };
}

/** A client with no cookies at the given address. */
function newClient(
  playwright: PlaywrightWorkerArgs["playwright"],
  address: string,
  headers: Record<string, string> = {},
): Promise<APIRequestContext> {
  return playwright.request.newContext({
    baseURL: test.info().project.use.baseURL,
    extraHTTPHeaders: { "x-forwarded-for": address, ...headers },
  });
}

/** Chooses a time, as the time page's form does (to the page's own address), without following the redirect. */
function chooseTime(client: APIRequestContext, day: Day, slot: string) {
  return client.post(day.timeStep, { form: { slot }, maxRedirects: 0 });
}

/** Sends a new client's details, as the details form does: the chosen time is held then. */
function sendDetails(client: APIRequestContext) {
  const form = { firstName: "Ana", lastName: "Lopez", email: uniqueEmail("capped"), phone: uniquePhone() };
  return client.post("/appointment/details", { form, maxRedirects: 0 });
}

/** Chooses a time and holds it with new details, as a visitor not yet known does. */
async function holdTime(client: APIRequestContext, day: Day, slot: string) {
  const chosen = await chooseTime(client, day, slot);
  expect(chosen.status()).toBe(302);
  expect(chosen.headers().location).toBe("/appointment/details");
  return sendDetails(client);
}

function tally(statuses: number[]) {
  return {
    held: statuses.filter((s) => s === 302).length,
    refused: statuses.filter((s) => s === 429).length,
    other: statuses.filter((s) => s !== 302 && s !== 429),
  };
}

/** Every try either held (302) or was refused (429), and between one and the cap held; returns how many held. */
function expectCapped(statuses: number[]): number {
  const { held, refused, other } = tally(statuses);
  expect(other).toEqual([]);
  expect(held).toBeGreaterThanOrEqual(1);
  expect(held).toBeLessThanOrEqual(LIVE_HOLDS_PER_ADDRESS);
  expect(refused).toBe(ATTEMPTS - held);
  return held;
}

test(
  "a client that drops its cookie each time holds at most three times, and refused tries leave no guest behind",
  ONCE,
  async ({ page, playwright, bookingDay }) => {
    const day = await openDay(page, bookingDay({ days: 5 }));
    expect(day.slots.length).toBeGreaterThanOrEqual(ATTEMPTS);
    const address = otherClientAddress();
    // Forty new visitors at one address, each with a booking in progress and no hold yet.
    const clients = await Promise.all(Array.from({ length: ATTEMPTS }, () => newClient(playwright, address)));
    try {
      for (const client of clients) expect((await client.get(day.bookingLink)).ok()).toBe(true);
      const guestsBefore = sandboxGuestCount(day.centerId);

      // Choosing a time holds nothing: every one of them is kept for the details step.
      for (const [i, client] of clients.entries())
        expect((await chooseTime(client, day, day.slots[i])).headers().location).toBe("/appointment/details");
      expect(sandboxGuestCount(day.centerId)).toBe(guestsBefore);

      const responses = await Promise.all(clients.map((client) => sendDetails(client)));
      const held = expectCapped(responses.map((r) => r.status()));
      for (const r of responses.filter((r) => r.status() === 302))
        expect(r.headers().location).toBe("/appointment/payment");
      const refusal = responses.find((r) => r.status() === 429)!;
      expect(Number(refusal.headers()["retry-after"])).toBeGreaterThan(0);

      expect(sandboxGuestCount(day.centerId) - guestsBefore).toBeLessThanOrEqual(held);
    } finally {
      await Promise.all(clients.map((client) => client.dispose()));
    }
  },
);

test(
  "one booking's cookie replayed many times at once holds at most three times, with no extra guests",
  ONCE,
  async ({ page, playwright, bookingDay }) => {
    const day = await openDay(page, bookingDay({ days: 5 }));
    expect(day.slots.length).toBeGreaterThanOrEqual(ATTEMPTS);
    // The booking in progress has a time chosen and no hold: what the details step holds.
    await page.goto(day.timeStep);
    await page.getByRole("form", { name: "Open times" }).getByRole("button").first().click();
    await expect(page.getByRole("heading", { level: 1, name: "Your details" })).toBeVisible();
    const cookie = (await page.context().cookies())
      .filter((c) => c.name === "__session" || c.name === "__booking")
      .map((c) => `${c.name}=${c.value}`)
      .join("; ");
    expect(cookie).not.toBe("");
    const address = otherClientAddress();
    // Each request its own client so that every one carries the same cookie, the one with no hold.
    const clients = await Promise.all(
      Array.from({ length: ATTEMPTS }, () => newClient(playwright, address, { cookie })),
    );
    try {
      const guestsBefore = sandboxGuestCount(day.centerId);
      const responses = await Promise.all(clients.map((client) => sendDetails(client)));
      const statuses = responses.map((r) => r.status());
      expect(statuses.filter((s) => s !== 302 && s !== 429)).toEqual([]);
      // The time is open with several nurses, so a few tries may hold it, never more than the
      // address's live holds; the others were refused or found it taken.
      const holds = responses.filter((r) => r.headers().location === "/appointment/payment").length;
      expect(holds).toBeGreaterThanOrEqual(1);
      expect(holds).toBeLessThanOrEqual(LIVE_HOLDS_PER_ADDRESS);
      // A try that lost its place frees it, so up to the booking's ten tries a minute get through;
      // the guest records they leave are capped at five per address.
      const passed = statuses.filter((s) => s === 302).length;
      expect(passed).toBeLessThanOrEqual(10);
      expect(sandboxGuestCount(day.centerId) - guestsBefore).toBeLessThanOrEqual(Math.min(passed, 5));
    } finally {
      await Promise.all(clients.map((client) => client.dispose()));
    }
  },
);

test(
  "over the cap the details step says why and keeps what was typed; a cancelled booking frees a place",
  ONCE,
  async ({ page, browser, playwright, bookingDay }) => {
    const day = await openDay(page, bookingDay());
    const address = otherClientAddress();
    // Three other bookings at the visitor's address already hold a time.
    const others = await Promise.all(
      Array.from({ length: LIVE_HOLDS_PER_ADDRESS }, () => newClient(playwright, address)),
    );
    const context = await browser.newContext({
      javaScriptEnabled: test.info().project.name !== "no-js",
      extraHTTPHeaders: { "x-forwarded-for": address },
    });
    const visitor = await context.newPage();
    try {
      for (const [i, client] of others.entries()) {
        await client.get(day.bookingLink);
        const held = await holdTime(client, day, day.slots[i]);
        expect(held.headers().location).toBe("/appointment/payment");
      }

      await visitor.goto(day.bookingLink);
      await expect(visitor).toHaveURL(new RegExp(`/appointment/time\\?date=${day.date}`));
      const times = visitor.getByRole("form", { name: "Open times" }).getByRole("button");
      await times.filter({ hasText: /./ }).last().click();
      await expect(visitor.getByRole("heading", { level: 1, name: "Your details" })).toBeVisible();
      const email = uniqueEmail("over.cap");
      await visitor.getByLabel("First name").fill("Ana");
      await visitor.getByLabel("Last name").fill("Lopez");
      await visitor.getByLabel("Email").fill(email);
      await visitor.getByLabel(/Mobile phone/).fill(uniquePhone());
      await visitor.getByRole("button", { name: "Continue to payment" }).click();
      await expect(visitor.getByRole("alert")).toHaveText(
        /^Too many times are on hold from your network right now\. Please finish or cancel a booking in progress, or try again in \d+ minutes?\.$/,
      );
      await expect(visitor.getByLabel("Email")).toHaveValue(email);

      // One of the others leaves its booking: its hold is released and the visitor gets the time.
      expect((await others[0].post("/appointment/cancel", { maxRedirects: 0 })).status()).toBe(302);
      await visitor.getByRole("button", { name: "Continue to payment" }).click();
      await expect(visitor.getByRole("heading", { level: 1, name: "Payment" })).toBeVisible();
    } finally {
      await context.close();
      await Promise.all(others.map((client) => client.dispose()));
    }
  },
);
