import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import Database from "better-sqlite3";
import { HOME_CLINIC, type Clinic } from "./booking-days";
import { bookingDates } from "../../app/domain/booking";
import { clinicToday } from "../../app/lib/dates";

let counter = 0;

/** An email no other test uses, so the duplicate-email rule never trips by accident. */
export function uniqueEmail(prefix: string): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}${process.pid}${counter}@example.com`;
}

/**
 * Where a button that goes somewhere leads, as a link's href would say: the action of its GET form
 * (its own, or the one its `form` attribute names) with the form's fields as the query; a path on
 * this site, or the whole address when it leads elsewhere.
 */
export async function buttonTarget(button: Locator): Promise<string> {
  return button.evaluate((element) => {
    const form = (element as HTMLButtonElement).form!;
    const action = new URL(form.getAttribute("action") ?? "", document.baseURI);
    const query = new URLSearchParams([...new FormData(form)].map(([name, value]) => [name, String(value)])).toString();
    const origin = action.origin === location.origin ? "" : action.origin;
    return `${origin}${action.pathname}${query ? `?${query}` : ""}${action.hash}`;
  });
}

/** The clinic's booking button, straight from its clinic page (Austin's by default). */
export async function startBooking(page: Page, clinic: Pick<Clinic, "slug"> = HOME_CLINIC) {
  await page.goto(`/locations/${clinic.slug}`);
  await page.getByRole("button", { name: "Book here" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Choose your treatment" })).toBeVisible();
}

/** Picks the facial with the LED enhancement and moves to the time step. */
export async function chooseFacialWithAddOn(page: Page) {
  await page.getByRole("button", { name: "Select Signature Laser Facial - New Client" }).click();
  await page.getByRole("checkbox", { name: /LED Light Therapy Enhancement/ }).check();
  await page.getByRole("button", { name: "Continue to date and time" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Choose a date and time" })).toBeVisible();
}

/** Picks the facial with one nurse (her card in the nurse picker) and moves to the time step. */
export async function chooseFacialWithNurse(page: Page, nurse: string | RegExp) {
  await page.getByRole("button", { name: "Select Signature Laser Facial - New Client" }).click();
  await page.getByRole("radio", { name: nurse }).check();
  await page.getByRole("button", { name: "Continue to date and time" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Choose a date and time" })).toBeVisible();
}

/** Picks the Glow Peel with its face area (included in its price) and moves to the time step. */
export async function choosePeelWithFaceArea(page: Page) {
  await page.getByRole("button", { name: "Select Glow Peel" }).click();
  await page.getByRole("checkbox", { name: /Peel Area - Face/ }).check();
  await page.getByRole("button", { name: "Continue to date and time" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Choose a date and time" })).toBeVisible();
}

/** The days a clinic in this time zone takes bookings on, from its own today (the time step's weeks). */
export function bookableDates(timeZone: string): string[] {
  return [...bookingDates(clinicToday(timeZone))];
}

/** The days the time step's date strip shows now ("YYYY-MM-DD"). */
export function stripDays(page: Page): Promise<string[]> {
  return page
    .getByRole("navigation", { name: "Dates" })
    .locator("button[data-date]")
    .evaluateAll((buttons) => buttons.map((b) => (b as HTMLButtonElement).dataset.date!));
}

/** The day the time step shows ("YYYY-MM-DD"): the one marked in the date strip. */
export async function shownDate(page: Page): Promise<string> {
  return (await page
    .getByRole("navigation", { name: "Dates" })
    .locator("button[aria-current]")
    .getAttribute("data-date"))!;
}

/**
 * Shows the date ("YYYY-MM-DD", a bookable day) by pressing its day in the date strip, going to
 * later or earlier weeks first when it is not in the week shown; returns the open time buttons.
 */
export async function showDate(page: Page, date: string) {
  const strip = page.getByRole("navigation", { name: "Dates" });
  // The time step drawn first: with JavaScript a step can still be on its way, and an empty strip
  // read then would send the search the wrong way.
  await expect(strip.locator("button[aria-current]")).toHaveCount(1);
  for (let week = 0; week < 6; week++) {
    const days = await stripDays(page);
    if (days.includes(date)) break;
    const direction = days.length > 0 && date < days[0] ? "Earlier days" : "Later days";
    await strip.getByRole("button", { name: direction }).click();
    // The strip is drawn anew for the week moved to: its days change.
    await expect.poll(() => stripDays(page)).not.toEqual(days);
  }
  await strip.locator(`button[data-date="${date}"]`).click();
  await expect(page).toHaveURL(new RegExp(`date=${date}`));
  // The day's own heading: with JavaScript the address changes a moment before the list does.
  const day = new Date(`${date}T12:00:00Z`).toLocaleDateString("en-US", {
    weekday: "long",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
  });
  await expect(page.getByRole("heading", { level: 2, name: day, exact: true })).toBeVisible();
  return page.getByRole("form", { name: "Open times" }).getByRole("button");
}

/**
 * A mobile number no other test uses: a number already on a guest record belongs to an existing
 * client, who is asked for a code instead of booking straight on.
 */
export function uniquePhone(): string {
  counter += 1;
  const digits = `${Date.now() % 1_000_000}${process.pid % 100}${counter}`.padStart(9, "0").slice(-9);
  return `5${digits.slice(0, 2)}-${digits.slice(2, 5)}-${digits.slice(5, 9)}`;
}

/** Fills the details step and sends it; a new client's chosen time is held then. */
export async function enterDetails(page: Page, email: string, phone = uniquePhone()) {
  await expect(page.getByRole("heading", { level: 1, name: "Your details" })).toBeVisible();
  await page.getByLabel("First name").fill("Ana");
  await page.getByLabel("Last name").fill("Lopez");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel(/Mobile phone/).fill(phone);
  await page.getByRole("button", { name: "Continue to payment" }).click();
}

export async function fillDetails(page: Page, email: string, phone = uniquePhone()) {
  await enterDetails(page, email, phone);
  await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeVisible();
}

/**
 * A new guest books the new-client facial with its add-on on the date's first open time, with a new
 * card, and lands on the confirmation (either button: the clinic takes payment or holds the card).
 */
export async function bookAsNewGuest(page: Page, clinic: Pick<Clinic, "slug">, date: string, email: string) {
  await startBooking(page, clinic);
  await chooseFacialWithAddOn(page);
  await bookFirstTimeAsNewGuest(page, date, email);
}

/**
 * From the time step on: a new guest takes the date's first open time, gives their details, adds a
 * new card and lands on the confirmation (either button: the clinic takes payment or holds the card).
 */
export async function bookFirstTimeAsNewGuest(page: Page, date: string, email: string) {
  await (await showDate(page, date)).first().click();
  await fillDetails(page, email);
  await addCard(page, "4242 4242 4242 4242");
  await fillBillingAndAgree(page);
  await page.getByRole("button", { name: /^(Book appointment|Pay \$[\d,.]+ and book)$/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "You're booked!" })).toBeVisible();
}

/** On the sandbox's hosted card page: saves this card (a test number decides how its charges go). */
export async function saveCardOnCardPage(page: Page, number: string, name = "Ana Lopez") {
  await expect(page.getByRole("heading", { name: "Add a card" })).toBeVisible();
  await page.getByLabel("Name on card").fill(name);
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiry (MM/YY)").fill("12/30");
  await page.getByLabel("Security code").fill("123");
  await page.getByRole("button", { name: "Save card" }).click();
}

/** Adds a card on the hosted card page and comes back to payment. */
export async function addCard(page: Page, number: string) {
  await page.getByRole("button", { name: /Add (a|another) card/ }).click();
  await saveCardOnCardPage(page, number);
  await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeVisible();
}

/**
 * What the page the visitor is sent back to says when a booking ended without an appointment: a
 * notice at the top of the page itself (not a toast), named by its heading.
 */
export function notBookedNotice(page: Page, title: string) {
  return page
    .getByRole("main")
    .getByRole("alert")
    .filter({ has: page.getByRole("heading", { level: 2, name: title, exact: true }) });
}

/**
 * Opens the payment step's promo code, which sits closed after the pay button until wanted (it is
 * open already when it has something to say), and gives its field.
 */
export async function openPromoCode(page: Page): Promise<Locator> {
  const disclosure = page.locator("details.promo");
  if (!(await disclosure.evaluate((details) => (details as HTMLDetailsElement).open)))
    await disclosure.locator("summary").click();
  return page.getByRole("textbox", { name: "Promo code" });
}

export async function fillBillingAndAgree(page: Page) {
  await page.getByLabel("Street address").fill("100 Main St");
  await page.getByLabel("City").fill("Austin");
  await page.getByLabel("State").selectOption("TX");
  await page.getByLabel("ZIP code").fill("78701");
  await page.getByRole("checkbox", { name: "I agree to the cancellation policy" }).check();
}

/**
 * What the payment step's form sends when its pay button is pressed, as form fields: for tests that
 * send that submit themselves, twice or to two instances at once.
 */
export async function payFormFields(page: Page): Promise<Record<string, string>> {
  const form = page.locator("form", { has: page.getByRole("button", { name: /Pay .* and book/ }) });
  return form.evaluate(
    (el) => Object.fromEntries(new FormData(el as HTMLFormElement).entries()) as Record<string, string>,
  );
}

/**
 * A client address of its own, outside the range the fixtures give each test, to send as
 * X-Forwarded-For when a test plays a second visitor.
 */
export function otherClientAddress(): string {
  const part = (n: number) => Math.floor(Math.random() * n);
  return `10.${250 + part(5)}.${part(250)}.${1 + part(250)}`;
}

/**
 * How many guest records the e2e server's sandbox has at one clinic, read from the sandbox's own
 * database: the API searches by one email or number and cannot count them.
 */
export function sandboxGuestCount(centerId: string): number {
  const db = new Database(".e2e-data/spa-sandbox.sqlite", { readonly: true, fileMustExist: true });
  try {
    return (
      db.prepare("SELECT COUNT(*) AS n FROM guests WHERE lower(center_id) = lower(?)").get(centerId) as { n: number }
    ).n;
  } finally {
    db.close();
  }
}

/** The password every test account is registered with. */
export const TEST_PASSWORD = "Glow!Skin2026";

/** Fills the registration form at Austin, ready for "Create account". */
/** Fills the registration form; each registration has a mobile number of its own (a Mia with another's number is a duplicate, decision 039). */
export async function fillRegistration(page: Page, email: string, phone = uniquePhone()) {
  await page.goto("/register");
  await page.getByLabel("First name").fill("Mia");
  await page.getByLabel("Last name").fill("Rivera");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel(/Mobile phone/).fill(phone);
  await page.getByLabel("Home clinic").selectOption({ label: "Glow Clinic Austin Downtown" });
  await page.getByLabel("Address").fill("12 Oak St");
  await page.getByLabel("City").fill("Austin");
  await page.getByLabel("ZIP code").fill("78701");
  await page.getByLabel("Password", { exact: true }).fill(TEST_PASSWORD);
  await page.getByRole("checkbox", { name: /age of majority/ }).check();
}

/** The newest one-time code sent to this email, read from the outbox as the machine itself may. */
export async function latestCode(thisMachine: APIRequestContext, email: string): Promise<string> {
  const outbox = await thisMachine.get("/dev/outbox");
  expect(outbox.status()).toBe(200);
  const message = (await outbox.text())
    .split("<li")
    .find((item) => item.includes(email) && item.includes("one-time-code"));
  return /code is (\d{6})/.exec(message ?? "")![1];
}

/** A client the clinics already have: a guest record made straight in the back end, with no account here. */
export async function seedExistingClient(
  sandboxApi: APIRequestContext,
  centerId: string,
  email: string,
  phone: string,
) {
  const created = await sandboxApi.post("/spa-sandbox/v1/guests", {
    data: {
      center_id: centerId,
      personal_info: {
        first_name: "Known",
        last_name: "Client",
        email,
        mobile_phone: { country_code: 225, number: phone },
      },
    },
  });
  expect(created.status()).toBe(200);
  const body = (await created.json()) as { id?: string; error?: unknown };
  expect(body.error ?? null).toBeNull();
  return body.id!;
}

/** "1:15 PM" as minutes after midnight. */
export function clockMinutes(clock: string): number {
  const [, h, m, half] = /^(\d{1,2}):(\d{2}) ([AP]M)$/.exec(clock)!;
  return (Number(h) % 12) * 60 + Number(m) + (half === "PM" ? 720 : 0);
}

/** A UTC time of an iCalendar file ("DTSTART:20261207T160000Z") as milliseconds. */
export function icsInstant(calendar: string, name: string): number {
  const [, y, mo, d, h, mi, s] = new RegExp(`^${name}:(\\d{4})(\\d{2})(\\d{2})T(\\d{2})(\\d{2})(\\d{2})Z`, "m").exec(
    calendar,
  )!;
  return Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
}

/** The demo account the README names: a returning client and a member at Austin, with loyalty points (server/spa-sandbox/demo-guest.ts). */
export const DEMO = { email: "demo@glowclinic.example", password: "Glow!Demo2026" };

/** Signs in as the demo account through the sign-in form. */
export async function signInAsDemo(page: Page) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(DEMO.email);
  await page.getByLabel("Password", { exact: true }).fill(DEMO.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).not.toHaveURL(/\/login/);
}
