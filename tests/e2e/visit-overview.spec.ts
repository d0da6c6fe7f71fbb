import { seedGuid } from "../../server/spa-sandbox/db";
import { expect, ONCE, test } from "./fixtures";
import { buttonTarget } from "./helpers";
import { bookVisitInBackEnd, cancelInBackEnd, closeVisitInBackEnd, guestIdOf, moveVisitInBackEnd } from "./visits";

/**
 * What the account says of a guest's visits at a glance: the booked one first (the spec's "has
 * upcoming appointment"), how many visits since when, and the error page's way back to them. Also
 * Zenoti's stand-in dates, which are no dates to a guest.
 */

/** A clinic-local start `days` before today, at 10:00 (the sandbox moves visits into the past). */
function daysAgo(days: number, time = "10:00:00"): string {
  return `${new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10)}T${time}`;
}

/** "2026-12-01T09:30:00" as the account pages write a visit's time: "December 1, 2026 9:30 AM". */
function pageTime(local: string): string {
  const [hour, minute] = local.slice(11, 16).split(":").map(Number);
  return `${pageDay(local)} ${hour % 12 || 12}:${String(minute).padStart(2, "0")} ${hour < 12 ? "AM" : "PM"}`;
}

/** "2026-12-01..." as a day in words: "December 1, 2026". */
function pageDay(local: string): string {
  const [year, month, day] = local.slice(0, 10).split("-").map(Number);
  const monthName = new Date(Date.UTC(year, month - 1, 1)).toLocaleString("en-US", { month: "long", timeZone: "UTC" });
  return `${monthName} ${day}, ${year}`;
}

test("a guest's booked visit is shown first, with how many visits they had since when", async ({
  page,
  signedIn,
  sandboxApi,
  bookingDay,
}) => {
  // Three visits made and moved in the back end, then three pages: over a minute on a busy machine.
  test.slow();
  const { clinic, dates } = bookingDay({ days: 3 });
  const guestId = await guestIdOf(sandboxApi, signedIn.email);
  const upcoming = await bookVisitInBackEnd(sandboxApi, { guestId, clinic, date: dates[0] });
  const had = await bookVisitInBackEnd(sandboxApi, { guestId, clinic, date: dates[1] });
  const cancelled = await bookVisitInBackEnd(sandboxApi, { guestId, clinic, date: dates[2] });
  await moveVisitInBackEnd(sandboxApi, had.invoiceId, daysAgo(40));
  await closeVisitInBackEnd(sandboxApi, had.invoiceId);
  await cancelInBackEnd(sandboxApi, cancelled.invoiceId);

  await page.goto("/account/appointments?tab=past");
  // Two visits had or booked: the cancelled one is not counted.
  await expect(
    page.getByText(`2 appointments: the first on ${pageDay(daysAgo(40))}, the latest on ${pageDay(upcoming.start)}.`),
  ).toBeVisible();
  await expect(page.getByText(`You have an appointment booked: ${pageTime(upcoming.start)}.`)).toBeVisible();
  await page.getByRole("link", { name: "See it under Upcoming" }).click();
  await expect(page).toHaveURL(/tab=upcoming/);
  await expect(
    page.getByRole("listitem").getByRole("heading", { name: new RegExp(`^${pageTime(upcoming.start)}`) }),
  ).toBeVisible();
  await expect(
    page.getByRole("button", { name: `Reschedule the appointment on ${pageTime(upcoming.start)}` }),
  ).toBeVisible();

  // The dashboard shows it first; booking more is offered as booking another, not as a first one.
  await page.goto("/account");
  const next = page.getByRole("region", { name: "Your next appointment" });
  await expect(next.getByRole("heading", { name: new RegExp(`^${pageTime(upcoming.start)}`) })).toBeVisible();
  await expect(next.getByRole("button", { name: "Book another treatment" })).toBeVisible();
});

test(
  "a booked visit whose time has passed but the clinic has not closed is still the guest's appointment",
  ONCE,
  async ({ page, signedIn, sandboxApi, bookingDay }) => {
    const { clinic, date } = bookingDay();
    const guestId = await guestIdOf(sandboxApi, signedIn.email);
    const visit = await bookVisitInBackEnd(sandboxApi, { guestId, clinic, date });
    await moveVisitInBackEnd(sandboxApi, visit.invoiceId, daysAgo(1));

    await page.goto("/account/appointments?tab=upcoming");
    await expect(page.getByText("You have no upcoming appointments.")).toBeVisible();
    const open = page.getByRole("region", { name: "Your appointment still open at the clinic" });
    await expect(open.getByRole("heading", { name: new RegExp(`^${pageTime(daysAgo(1))}`) })).toBeVisible();
    await expect(page.getByRole("button", { name: "Book another treatment" })).toBeVisible();
    await expect(page.getByText(`1 appointment, on ${pageDay(daysAgo(1))}.`)).toBeVisible();

    await page.goto("/account");
    await expect(
      page.getByText(`Your appointment on ${pageTime(daysAgo(1))} is still open at the clinic.`),
    ).toBeVisible();
    await expect(page.getByRole("button", { name: "Book another treatment" })).toBeVisible();
  },
);

test.describe("the error page's way back", () => {
  test("samesite takes a signed-in guest back to their visits, their booked one named", async ({
    page,
    signedIn,
    sandboxApi,
    bookingDay,
  }) => {
    const { clinic, date } = bookingDay();
    const visit = await bookVisitInBackEnd(sandboxApi, {
      guestId: await guestIdOf(sandboxApi, signedIn.email),
      clinic,
      date,
    });
    await page.goto("/locations");
    await page.goto("/error?error=invalid-mobile&redirect=samesite", {
      referer: new URL("/locations?zip=78701", page.url()).toString(),
    });
    await expect(page.getByRole("alert")).toHaveText(
      "Mobile number you entered is not valid. Please check the number and try again",
    );
    await expect(page.getByText(`Your booked appointment: ${pageTime(visit.start)} at ${clinic.name}.`)).toBeVisible();
    const back = page.getByRole("button", { name: "Back to your appointments" });
    expect(await buttonTarget(back)).toBe("/account/appointments?tab=upcoming");
    await back.click();
    await expect(page.getByRole("heading", { level: 1, name: "Your appointments" })).toBeVisible();

    // Starting the countdown back, and stopping it, keep the same way back.
    await page.goto("/error?error=invalid-mobile&redirect=samesite");
    await page.getByRole("link", { name: "Take me back in 10 seconds" }).click();
    await expect(page.locator('meta[http-equiv="refresh"]')).toHaveAttribute(
      "content",
      "10;url=/account/appointments?tab=upcoming",
    );
    await page.getByRole("link", { name: "Stop the countdown" }).click();
    expect(await buttonTarget(page.getByRole("button", { name: "Back to your appointments" }))).toBe(
      "/account/appointments?tab=upcoming",
    );
  });

  test(
    "webstore takes a signed-in guest to the storefront, and a way back given in the address is still checked",
    ONCE,
    async ({ page, signedIn }) => {
      expect(signedIn.email).toBeTruthy();
      await page.goto("/error?error=invalid-email&redirect=webstore");
      expect(await buttonTarget(page.getByRole("button", { name: "Go back" }))).toBe("/");
      await expect(page.getByText(/Your booked appointment/)).toHaveCount(0);
      await page.goto("/error?error=invalid-email&redirect=webstore&stay=1&back=//evil.example/");
      expect(await buttonTarget(page.getByRole("button", { name: "Go back" }))).toBe("/");
    },
  );
});

test(
  "a membership with Zenoti's no-start and no-end dates shows no start and No expiry",
  ONCE,
  async ({ page, signedIn, sandboxApi }) => {
    const guestId = await guestIdOf(sandboxApi, signedIn.email);
    const given = await sandboxApi.post(`/spa-sandbox/v1/sandbox/guests/${guestId}/memberships`, {
      data: {
        membership_id: seedGuid("membership:GLOW-ANNUAL"),
        member_since: "2000-01-01",
        expiry_date: "2100-01-01",
      },
    });
    expect(((await given.json()) as { error: unknown }).error).toBeNull();

    await page.goto("/account/memberships");
    const card = page.locator(".visit-card", { has: page.getByRole("heading", { name: "Glow Annual" }) });
    await expect(card.getByText("Ends", { exact: true })).toBeVisible();
    await expect(card.getByText("No expiry", { exact: true })).toBeVisible();
    await expect(card.getByText("Member since")).toHaveCount(0);
    await expect(card.getByText(/2100|2000/)).toHaveCount(0);
  },
);
