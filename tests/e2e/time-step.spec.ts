import type { Page } from "@playwright/test";
import { CLINICS } from "./booking-days";
import { expect, test } from "./fixtures";
import { startBooking } from "./helpers";

/**
 * Where the time step opens, and what the date list shows: a day nobody chose that has no time
 * (today's evening, a nurse's day off) never greets the visitor; "Next available" moves the list too.
 * Nothing is held here: a visitor without an account holds a time only after their details.
 */
const HOUSTON = CLINICS.find((c) => c.slug === "houston-heights")!;

/** The weekday (0 Sunday) of a "YYYY-MM-DD". */
const weekday = (date: string) => new Date(`${date}T12:00:00Z`).getUTCDay();

/** Opens the time step for the new-client facial with a nurse, and returns the dates it offers. */
async function openTimeStep(page: Page, nurse: string | null): Promise<string[]> {
  await startBooking(page, HOUSTON);
  await page.getByRole("link", { name: "Select Signature Laser Facial - New Client" }).click();
  if (nurse) await page.getByLabel("Nurse").selectOption({ label: nurse });
  await page.getByRole("button", { name: "Continue to date and time" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Choose a date and time" })).toBeVisible();
  return page.getByLabel("Date").locator("option").evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
}

test("the time step opens on a day with open times, even when the first date has none for the nurse chosen", async ({ page, browser }) => {
  // Which dates are offered: the clinic's own today first.
  const probe = await browser.newPage({ javaScriptEnabled: false });
  const dates = await openTimeStep(probe, null);
  await probe.close();
  // A nurse who is off on the first date, where the chain has one (nobody is off on Mondays).
  const off = HOUSTON.nurses.find((n) => n.dayOff === weekday(dates[0]));

  await openTimeStep(page, off?.name ?? null);
  const shown = await page.getByLabel("Date").inputValue();
  if (off) expect(shown).not.toBe(dates[0]);
  const day = new Date(`${shown}T12:00:00Z`).toLocaleDateString("en-US", { weekday: "long", month: "long", day: "numeric", timeZone: "UTC" });
  await expect(page.getByRole("heading", { level: 2, name: day, exact: true })).toBeVisible();
  await expect(page.getByRole("form", { name: "Open times" }).getByRole("button").first()).toBeVisible();
  await expect(page.getByText("No times are open on this day.")).toHaveCount(0);
});

test("a day asked for with no times offers the next available one, and the date list follows it", async ({ page }) => {
  const nurse = HOUSTON.nurses[0];
  const dates = await openTimeStep(page, nurse.name);
  const dayOff = dates.find((d, i) => i > 0 && weekday(d) === nurse.dayOff)!;
  await page.getByLabel("Date").selectOption(dayOff);
  await page.getByRole("button", { name: "Show times" }).click();
  await expect(page.getByText("No times are open on this day.")).toBeVisible();
  const next = page.getByRole("link", { name: /day, \w+ \d+$/ });
  const label = (await next.textContent())!.trim();
  await next.click();
  await expect(page.getByRole("heading", { level: 2, name: label, exact: true })).toBeVisible();
  const shown = await page.getByLabel("Date").inputValue();
  expect(shown > dayOff).toBe(true);
  expect(new Date(`${shown}T12:00:00Z`).toLocaleDateString("en-US", { weekday: "long", month: "long", day: "numeric", timeZone: "UTC" })).toBe(label);
  await expect(page.getByRole("form", { name: "Open times" }).getByRole("button").first()).toBeVisible();
});
