import type { APIRequestContext, Page } from "@playwright/test";
import { seedCenters } from "../../server/spa-sandbox/seed-data";
import { toIanaTimeZone } from "../../server/spa/time-zones.server";
import { expect, ONCE, test } from "./fixtures";
import {
  addCard,
  buttonTarget,
  chooseFacialWithAddOn,
  fillBillingAndAgree,
  fillDetails,
  showDate,
  startBooking,
  uniqueEmail,
  uniquePhone,
} from "./helpers";
import {
  bookVisitInBackEnd,
  closeVisitInBackEnd,
  guestIdOf,
  moveVisitInBackEnd,
  noShowInBackEnd,
  cancelInBackEnd,
  otherGuestVisit,
  visitStatuses,
  type BookedVisit,
} from "./visits";

/**
 * The account area after booking: a signed-in guest's visits by tab and status, and what can be done
 * with them (reschedule, cancel with a reason, book again), from the account and from the manage
 * link a guest gets with their confirmation. Visits are made straight in the back end, and put in the
 * past with the sandbox's own control, except where the journey itself is what is tested.
 */

/** A clinic-local start `days` before today, at 10:00 (the sandbox moves visits into the past). */
function daysAgo(days: number, time = "10:00:00"): string {
  return `${new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10)}T${time}`;
}

/** The clinic's wall clock `hours` from now ("YYYY-MM-DDTHH:mm:00"): the sandbox moves visits to any time. */
function clinicClockIn(clinicName: string, hours: number): string {
  const timeZone = toIanaTimeZone(seedCenters.find((c) => `Glow Clinic ${c.name}` === clinicName)!.timeZone);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(new Date(Date.now() + hours * 3_600_000))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:00`;
}

/** "2026-12-01T09:30:00" as the account pages write it: "December 1, 2026 9:30 AM". */
function pageTime(local: string): string {
  const [date, time] = local.split("T");
  const [year, month, day] = date.split("-").map(Number);
  const [hour, minute] = time.split(":").map(Number);
  const monthName = new Date(Date.UTC(year, month - 1, 1)).toLocaleString("en-US", { month: "long", timeZone: "UTC" });
  return `${monthName} ${day}, ${year} ${hour % 12 || 12}:${String(minute).padStart(2, "0")} ${hour < 12 ? "AM" : "PM"}`;
}

/** One visit's card in a list, found by its heading (its date and time). */
function visitCard(page: Page, local: string) {
  return page
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: new RegExp(`^${pageTime(local)}`) }) });
}

/** The emails sent to this address, as the outbox shows them to this machine. */
async function outboxFor(thisMachine: APIRequestContext, email: string): Promise<string[]> {
  const outbox = await thisMachine.get("/dev/outbox");
  expect(outbox.status()).toBe(200);
  return (await outbox.text()).split("<li").filter((item) => item.includes(`class="recipient">${email}<`));
}

/** Reads a calendar file with its folded lines unfolded (RFC 5545). */
async function calendarOf(page: Page, link: string): Promise<string> {
  const answer = await page.request.get(link);
  expect(answer.headers()["content-type"]).toContain("text/calendar");
  const text = await answer.text();
  // Every line ends with CRLF, the last one too (RFC 5545, section 3.1).
  expect(text.endsWith("END:VCALENDAR\r\n")).toBe(true);
  expect(text.replace(/\r\n/g, "")).not.toContain("\n");
  return text.replace(/\r\n[ \t]/g, "");
}

/** Chooses a date on a time step and holds its first open time; returns the time held ("YYYY-MM-DDTHH:mm:ss"). */
async function holdFirstTime(page: Page, date: string): Promise<string> {
  await (await showDate(page, date)).first().click();
  // The time held is read from the page's own words ("New time: Thu Nov 26 @ 9:15 AM").
  const heading = page.getByRole("heading", { level: 2, name: /^New time: / });
  await expect(heading).toBeVisible();
  const [, hm, ampm] = /@ (\d{1,2}:\d{2}) ([AP]M)/.exec((await heading.textContent())!)!;
  const [h, m] = hm.split(":").map(Number);
  return `${date}T${String((h % 12) + (ampm === "PM" ? 12 : 0)).padStart(2, "0")}:${String(m).padStart(2, "0")}:00`;
}

test("a signed-in guest sees upcoming and past visits with their statuses, and the next one on the dashboard", async ({
  page,
  signedIn,
  sandboxApi,
  bookingDay,
}) => {
  const { clinic, dates } = bookingDay({ days: 4 });
  const guestId = await guestIdOf(sandboxApi, signedIn.email);
  const upcoming = await bookVisitInBackEnd(sandboxApi, {
    guestId,
    clinic,
    date: dates[0],
    serviceCode: "FT-RET",
    addOnCodes: ["ADD-LED"],
  });
  const completed = await bookVisitInBackEnd(sandboxApi, { guestId, clinic, date: dates[1] });
  const missed = await bookVisitInBackEnd(sandboxApi, { guestId, clinic, date: dates[2] });
  const cancelled = await bookVisitInBackEnd(sandboxApi, { guestId, clinic, date: dates[3] });
  await moveVisitInBackEnd(sandboxApi, completed.invoiceId, daysAgo(40));
  await closeVisitInBackEnd(sandboxApi, completed.invoiceId);
  await moveVisitInBackEnd(sandboxApi, missed.invoiceId, daysAgo(20));
  await noShowInBackEnd(sandboxApi, missed.invoiceId);
  await cancelInBackEnd(sandboxApi, cancelled.invoiceId);

  await page.goto("/account");
  await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
  const next = page.getByRole("region", { name: "Your next appointment" });
  await expect(next.getByRole("heading", { name: new RegExp(`^${pageTime(upcoming.start)}`) })).toBeVisible();
  await expect(next.getByText(clinic.name)).toBeVisible();
  await expect(next.getByText("LED Light Therapy Enhancement")).toBeVisible();
  await expect(next.getByRole("button", { name: /^Reschedule/ })).toBeVisible();
  // Every section of the account by the spec's keys; none leads nowhere.
  const sections = page.getByRole("navigation", { name: "Your account" });
  await expect(sections.getByRole("link", { name: "Dashboard" })).toHaveAttribute("aria-current", "page");
  for (const link of await page.getByRole("main").getByRole("link").all()) {
    const target = await link.getAttribute("href");
    if (!target || target.startsWith("tel:") || target.endsWith(".ics")) continue;
    expect((await page.request.get(target)).status(), `${await link.textContent()} (${target})`).toBeLessThan(400);
  }
  // And every button that goes somewhere: a GET form of its own.
  for (const button of await page.getByRole("main").locator('form[method="get"] button[type="submit"]').all()) {
    const target = await buttonTarget(button);
    if (target.endsWith(".ics")) continue;
    expect((await page.request.get(target)).status(), `${await button.textContent()} (${target})`).toBeLessThan(400);
  }

  await sections.getByRole("link", { name: "Appointments" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your appointments" })).toBeVisible();
  const tabs = page.getByRole("navigation", { name: "Appointments" });
  await expect(tabs.getByRole("button", { name: "Upcoming (1)" })).toHaveAttribute("aria-current", "page");
  await expect(visitCard(page, upcoming.start).getByText("Booked", { exact: true })).toBeVisible();
  await expect(visitCard(page, completed.start)).toHaveCount(0);

  await tabs.getByRole("button", { name: "Past (3)" }).click();
  await expect(page).toHaveURL(/tab=past/);
  await expect(visitCard(page, daysAgo(40)).getByText("Completed", { exact: true })).toBeVisible();
  await expect(visitCard(page, daysAgo(20)).getByText("No show", { exact: true })).toBeVisible();
  await expect(visitCard(page, cancelled.start).getByText("Cancelled", { exact: true })).toBeVisible();
  // A visit over or cancelled is booked again, never moved.
  await expect(visitCard(page, daysAgo(40)).getByRole("button", { name: /^Book again/ })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Reschedule/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Cancel the/ })).toHaveCount(0);
});

test("a signed-in guest moves a visit: the new time is booked on the same visit and the old one freed", async ({
  page,
  signedIn,
  sandboxApi,
  bookingDay,
  thisMachine,
}) => {
  const { clinic, dates } = bookingDay({ days: 2 });
  const guestId = await guestIdOf(sandboxApi, signedIn.email);
  const visit = await bookVisitInBackEnd(sandboxApi, { guestId, clinic, date: dates[0] });
  const calendarBefore = await calendarOf(page, `/account/appointments/${visit.invoiceId}/calendar.ics`);
  expect(calendarBefore).toContain("SEQUENCE:0");

  await page.goto("/account/appointments?tab=upcoming");
  await visitCard(page, visit.start)
    .getByRole("button", { name: /^Reschedule/ })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Reschedule your appointment" })).toBeVisible();
  await expect(page.getByText("Your current time stays booked until you confirm the new one.")).toBeVisible();
  const newStart = await holdFirstTime(page, dates[1]);
  await expect(page.getByRole("status").filter({ hasText: /on hold for the next \d+ minutes?/ })).toBeVisible();
  // Held, not moved: the visit keeps its time until the new one is confirmed.
  expect(await visitStatuses(sandboxApi, guestId, visit.invoiceId)).toEqual([{ start: visit.start, status: 0 }]);

  await page.getByRole("button", { name: "Confirm new time" }).click();
  await expect(page).toHaveURL(/\/account\/appointments\?tab=upcoming$/);
  await expect(page.getByText(/Your appointment is moved to/)).toBeVisible();
  await expect(visitCard(page, newStart)).toBeVisible();
  await expect(visitCard(page, visit.start)).toHaveCount(0);
  // One visit, on the same invoice, at the new time.
  expect(await visitStatuses(sandboxApi, guestId, visit.invoiceId)).toEqual([{ start: newStart, status: 0 }]);
  // The old appointment is gone from the books, not left beside the new one: the guest has one visit.
  const { appointments } = (await (
    await sandboxApi.get(`/spa-sandbox/v1/guests/${guestId}/appointments?include_no_show_cancel=true`)
  ).json()) as { appointments: unknown[] };
  expect(appointments).toHaveLength(1);

  // The calendar event is replaced (same UID, higher SEQUENCE), and the guest is told.
  const calendarAfter = await calendarOf(page, `/account/appointments/${visit.invoiceId}/calendar.ics`);
  expect(calendarAfter).toContain("SEQUENCE:1");
  expect(/^UID:.*$/m.exec(calendarAfter)![0]).toBe(/^UID:.*$/m.exec(calendarBefore)![0]);
  const messages = await outboxFor(thisMachine, signedIn.email);
  expect(messages.filter((m) => m.includes("has moved"))).toHaveLength(1);
});

test("a signed-in guest cancels a visit with a reason and a comment", async ({
  page,
  signedIn,
  sandboxApi,
  bookingDay,
  thisMachine,
}) => {
  const { clinic, date } = bookingDay();
  const guestId = await guestIdOf(sandboxApi, signedIn.email);
  const visit = await bookVisitInBackEnd(sandboxApi, { guestId, clinic, date });

  await page.goto("/account/appointments?tab=upcoming");
  await visitCard(page, visit.start)
    .getByRole("button", { name: /^Cancel the appointment/ })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Cancel your appointment" })).toBeVisible();
  await expect(
    page.getByText(/Cancelling is free until 12 hours before your appointment; after that it costs \$25/),
  ).toBeVisible();
  const reason = page.getByLabel("Why are you cancelling?");
  // Only the reasons a guest may give online: no front-desk, retired or other kinds of reason.
  const offered = (await reason.getByRole("option").allTextContents()).sort();
  expect(offered).toEqual([
    "Choose a reason",
    "Health issues",
    "Moved out of city",
    "Personal",
    "Rescheduled",
    "Stuck at work",
    "Taking service at another location",
  ]);

  // No comment: the spec's message, next to the field, with the reason kept.
  await reason.selectOption({ label: "Stuck at work" });
  await page.getByRole("button", { name: "Cancel appointment" }).click();
  await expect(page.getByText("Please add a comment").first()).toBeVisible();
  await expect(reason).toHaveValue(/.+/);
  expect(await visitStatuses(sandboxApi, guestId, visit.invoiceId)).toEqual([{ start: visit.start, status: 0 }]);

  await page.getByLabel("Comment").fill("A meeting came up, sorry.");
  await page.getByRole("button", { name: "Cancel appointment" }).click();
  await expect(page).toHaveURL(/\/account\/appointments\?tab=upcoming$/);
  await expect(page.getByText("Your appointment is cancelled.")).toBeVisible();
  expect(await visitStatuses(sandboxApi, guestId, visit.invoiceId)).toEqual([{ start: visit.start, status: -1 }]);
  await page.getByRole("navigation", { name: "Appointments" }).getByRole("button", { name: /^Past/ }).click();
  await expect(visitCard(page, visit.start).getByText("Cancelled", { exact: true })).toBeVisible();
  expect((await outboxFor(thisMachine, signedIn.email)).filter((m) => m.includes("is cancelled"))).not.toHaveLength(0);
  const calendar = await calendarOf(page, `/account/appointments/${visit.invoiceId}/calendar.ics`);
  expect(calendar).toContain("STATUS:CANCELLED");
  expect(calendar).toContain("SEQUENCE:1");

  // A second cancel of the same visit changes nothing: a clear page and a 4xx.
  const again = await page.goto(`/account/appointments/${visit.invoiceId}/cancel`);
  expect(again!.status()).toBe(409);
  await expect(page.getByText("This appointment is already cancelled.")).toBeVisible();
});

test(
  "inside 12 hours the $25 fee is stated before moving or cancelling, and applied; a cancelled visit can't be moved",
  ONCE,
  async ({ page, signedIn, sandboxApi, bookingDay }) => {
    const { clinic, date } = bookingDay();
    const guestId = await guestIdOf(sandboxApi, signedIn.email);
    const visit = await bookVisitInBackEnd(sandboxApi, { guestId, clinic, date });
    const soon = clinicClockIn(clinic.name, 6);
    await moveVisitInBackEnd(sandboxApi, visit.invoiceId, soon);

    await page.goto(`/account/appointments/${visit.invoiceId}/reschedule`);
    await expect(page.getByText(/less than 12 hours away: moving it now costs the \$25 late-change fee/)).toBeVisible();
    await page.goto(`/account/appointments/${visit.invoiceId}/cancel`);
    await expect(
      page.getByText(/less than 12 hours away: cancelling now costs the \$25 late-cancellation fee/),
    ).toBeVisible();
    await page.getByLabel("Why are you cancelling?").selectOption({ label: "Health issues" });
    await page.getByLabel("Comment").fill("Running a fever.");
    await page.getByRole("button", { name: "Cancel and pay the $25 fee" }).click();
    await expect(page.getByText(/the \$25 late-cancellation fee applies/)).toBeVisible();
    expect(await visitStatuses(sandboxApi, guestId, visit.invoiceId)).toEqual([{ start: soon, status: -1 }]);

    const moved = await page.goto(`/account/appointments/${visit.invoiceId}/reschedule`);
    expect(moved!.status()).toBe(409);
    await expect(
      page.getByText("This appointment is cancelled, so it can't be moved. You can book a new one."),
    ).toBeVisible();
  },
);

test("a signed-in guest books a past visit again: the journey opens at the time step with it chosen", async ({
  page,
  signedIn,
  sandboxApi,
  bookingDay,
}) => {
  const { clinic, date } = bookingDay();
  const guestId = await guestIdOf(sandboxApi, signedIn.email);
  const visit = await bookVisitInBackEnd(sandboxApi, {
    guestId,
    clinic,
    date,
    serviceCode: "PEEL-GLOW",
    addOnCodes: ["PEEL-AREA-FACE"],
  });
  await moveVisitInBackEnd(sandboxApi, visit.invoiceId, daysAgo(30));
  await closeVisitInBackEnd(sandboxApi, visit.invoiceId);

  await page.goto("/account/appointments?tab=past");
  await visitCard(page, daysAgo(30))
    .getByRole("button", { name: /^Book again/ })
    .click();
  await expect(page).toHaveURL(/\/appointment\/time/);
  await expect(page.getByRole("heading", { level: 1, name: "Choose a date and time" })).toBeVisible();
  await expect(page.getByText(`Glow Peel at ${clinic.name}.`)).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Dates" })).toBeVisible();
});

test(
  "another guest's visit cannot be read or changed by its id",
  ONCE,
  async ({ page, signedIn, sandboxApi, bookingDay }) => {
    const { clinic, date } = bookingDay();
    const { guestId: otherGuest, visit: theirs } = await otherGuestVisit(
      sandboxApi,
      clinic,
      date,
      uniqueEmail("someone"),
      uniquePhone().replace(/-/g, ""),
    );
    expect(signedIn.email).toBeTruthy();

    for (const path of ["cancel", "reschedule", "calendar.ics", "rebook"]) {
      for (const id of [theirs.invoiceId, theirs.appointmentId]) {
        const answer = await page.request.get(`/account/appointments/${id}/${path}`, { maxRedirects: 0 });
        expect(answer.status(), `${path} of another guest's visit`).toBe(404);
      }
    }
    await page.goto(`/account/appointments/${theirs.invoiceId}/cancel`);
    await expect(page.getByRole("heading", { level: 1, name: "We can't find that appointment." })).toBeVisible();

    // A cancel posted for it is refused, and their visit stands.
    const reasons = (await (await sandboxApi.get("/spa-sandbox/v1/reasons")).json()) as { reasons: { id: string }[] };
    const posted = await page.request.post(`/account/appointments/${theirs.invoiceId}/cancel`, {
      form: { reasonId: reasons.reasons[0].id, comment: "not mine" },
      headers: { origin: new URL(page.url()).origin, "sec-fetch-site": "same-origin" },
      maxRedirects: 0,
    });
    expect(posted.status()).toBe(404);
    expect(await visitStatuses(sandboxApi, otherGuest, theirs.invoiceId)).toEqual([{ start: theirs.start, status: 0 }]);
  },
);

test("the account pages ask a signed-out visitor to sign in", ONCE, async ({ page }) => {
  await page.goto("/account/appointments?tab=past");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Faccount%2Fappointments/);
});

/** Books a facial as a guest through the pages (no account) and opens its manage link from the confirmation. */
async function bookAsGuestAndOpenManageLink(
  page: Page,
  clinicSlug: string,
  date: string,
  email: string,
): Promise<string> {
  await startBooking(page, { slug: clinicSlug });
  await chooseFacialWithAddOn(page);
  await (await showDate(page, date)).first().click();
  await fillDetails(page, email);
  await addCard(page, "4242 4242 4242 4242");
  await fillBillingAndAgree(page);
  await page.getByRole("button", { name: "Book appointment" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "You're booked!" })).toBeVisible();
  const manage = await buttonTarget(page.getByRole("button", { name: "Manage this appointment" }));
  expect(manage).toMatch(/^\/appointment\/manage\/[\w-]+\.[\w-]+$/);
  return manage;
}

test("a guest without an account moves, cancels and books again through the link in their confirmation", async ({
  page,
  sandboxApi,
  bookingDay,
  thisMachine,
}) => {
  const { clinic, dates } = bookingDay({ days: 2 });
  const email = uniqueEmail("manage");
  const manage = await bookAsGuestAndOpenManageLink(page, clinic.slug, dates[0], email);
  const guestId = await guestIdOf(sandboxApi, email);
  const invoiceOf = async () => {
    const { appointments } = (await (
      await sandboxApi.get(`/spa-sandbox/v1/guests/${guestId}/appointments?include_no_show_cancel=true`)
    ).json()) as { appointments: { invoice_id: string }[] };
    expect(appointments).toHaveLength(1);
    return appointments[0].invoice_id;
  };
  const invoiceId = await invoiceOf();
  // The confirmation email carries the same kind of link.
  expect((await outboxFor(thisMachine, email)).some((m) => m.includes("/appointment/manage/"))).toBe(true);

  await page.goto(manage);
  await expect(page.getByRole("heading", { level: 1, name: "Your appointment" })).toBeVisible();
  await expect(page.getByText("This page shows this appointment only.")).toBeVisible();
  await page.getByRole("button", { name: /^Reschedule/ }).click();
  const newStart = await holdFirstTime(page, dates[1]);
  await page.getByRole("button", { name: "Confirm new time" }).click();
  await expect(page).toHaveURL(manage);
  await expect(page.getByText(/Your appointment is moved to/)).toBeVisible();
  await expect(page.getByRole("heading", { name: new RegExp(`^${pageTime(newStart)}`) })).toBeVisible();
  const [first] = await visitStatuses(sandboxApi, guestId, invoiceId);
  expect(first).toEqual({ start: newStart, status: 0 });
  expect(await invoiceOf()).toBe(invoiceId);

  await page.getByRole("button", { name: /^Cancel the appointment/ }).click();
  await page.getByLabel("Why are you cancelling?").selectOption({ label: "Personal" });
  await page.getByLabel("Comment").fill("Plans changed.");
  await page.getByRole("button", { name: "Cancel appointment" }).click();
  await expect(page).toHaveURL(manage);
  await expect(page.getByText("Your appointment is cancelled.")).toBeVisible();
  await expect(page.getByText("Cancelled", { exact: true })).toBeVisible();
  expect((await visitStatuses(sandboxApi, guestId, invoiceId)).every((s) => s.status === -1)).toBe(true);

  await page.getByRole("button", { name: /^Book again/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Choose a date and time" })).toBeVisible();
  await expect(page.getByText(`Signature Laser Facial - New Client at ${clinic.name}.`)).toBeVisible();
});

test(
  "a manage link opens its one visit only: a tampered link or another visit's id is not found",
  ONCE,
  async ({ page, sandboxApi, bookingDay }) => {
    const { clinic, dates } = bookingDay({ days: 2 });
    const email = uniqueEmail("link");
    const manage = await bookAsGuestAndOpenManageLink(page, clinic.slug, dates[0], email);
    const guestId = await guestIdOf(sandboxApi, email);
    // The same guest has another visit: the link never shows it.
    const second: BookedVisit = await bookVisitInBackEnd(sandboxApi, { guestId, clinic, date: dates[1] });
    await page.goto(manage);
    await expect(page.getByRole("heading", { name: new RegExp(`^${pageTime(second.start)}`) })).toHaveCount(0);

    const token = manage.split("/").at(-1)!;
    const [payload, signature] = token.split(".");
    // The link's own signature on a payload naming the guest's other visit; a signature changed; junk.
    const named = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>;
    const otherVisit = `${Buffer.from(JSON.stringify({ ...named, v: second.invoiceId })).toString("base64url")}.${signature}`;
    const badSignature = `${payload}.${signature.split("").reverse().join("")}`;
    for (const bad of [otherVisit, badSignature, "not-a-token"]) {
      for (const suffix of ["", "/cancel", "/reschedule", "/calendar.ics", "/rebook"]) {
        const answer = await page.request.get(`/appointment/manage/${bad}${suffix}`, { maxRedirects: 0 });
        expect(answer.status(), `manage/${bad.slice(0, 12)}…${suffix}`).toBe(404);
      }
    }
    await page.goto(`/appointment/manage/${otherVisit}`);
    await expect(page.getByRole("heading", { level: 1, name: "This link has expired or is not valid." })).toBeVisible();
    const refused = await page.request.post(`/appointment/manage/${otherVisit}/cancel`, {
      form: { reasonId: "x", comment: "not this one" },
      headers: { origin: new URL(page.url()).origin, "sec-fetch-site": "same-origin" },
      maxRedirects: 0,
    });
    expect(refused.status()).toBe(404);

    // Cancelling through the genuine link cancels its own visit and nothing else.
    await page.goto(`${manage}/cancel`);
    await page.getByLabel("Why are you cancelling?").selectOption({ label: "Health issues" });
    await page.getByLabel("Comment").fill("Feeling unwell.");
    await page.getByRole("button", { name: "Cancel appointment" }).click();
    await expect(page.getByText("Your appointment is cancelled.")).toBeVisible();
    expect(await visitStatuses(sandboxApi, guestId, second.invoiceId)).toEqual([{ start: second.start, status: 0 }]);
  },
);
