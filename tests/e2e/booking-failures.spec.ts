import { expect, ONCE, test } from "./fixtures";
import { nurseWorkingOn } from "./booking-days";
import {
  chooseFacialWithNurse,
  addCard,
  buttonTarget,
  chooseFacialWithAddOn,
  enterDetails,
  fillBillingAndAgree,
  fillDetails,
  otherClientAddress,
  showDate,
  startBooking,
  uniqueEmail,
  uniquePhone,
} from "./helpers";

test("a declined card says Payment failed, keeps the hold, and another card can be used", async ({
  page,
  bookingDay,
}) => {
  const { clinic, date } = bookingDay();
  await startBooking(page, clinic);
  await chooseFacialWithAddOn(page);
  await (await showDate(page, date)).nth(1).click();
  await fillDetails(page, uniqueEmail("declined"));
  await addCard(page, "4000 0000 0000 0002");
  await expect(page.getByRole("alert").filter({ hasText: "Payment failed" })).toBeVisible();
  await expect(page.getByText(/is on hold for the next/)).toBeVisible();
  await expect(page.getByRole("radio")).toHaveCount(0);
  await addCard(page, "4242424242424242");
  await fillBillingAndAgree(page);
  await page.getByRole("button", { name: "Book appointment" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "You're booked!" })).toBeVisible();
});

test("a slot taken by someone else between viewing and choosing gets a clear message and fresh times", async ({
  page,
  browser,
  bookingDay,
}) => {
  // A day of this test's own, so no other test competes for this nurse.
  const { clinic, date } = bookingDay();
  const nurse = nurseWorkingOn(clinic, date);
  const chooseWithNurse = async (p: typeof page) => {
    await startBooking(p, clinic);
    await chooseFacialWithNurse(p, nurse);
    return showDate(p, date);
  };
  const other = await browser.newContext({
    javaScriptEnabled: test.info().project.name !== "no-js",
    // A visitor elsewhere: without an address of its own it would share loopback's hold limits with other tests.
    extraHTTPHeaders: { "x-forwarded-for": otherClientAddress() },
  });
  const rival = await other.newPage();
  try {
    const mine = await chooseWithNurse(page);
    const theirs = await chooseWithNurse(rival);
    const slot = (await mine.nth(3).textContent())!.trim();
    // A time far from the taken one, which its hold does not overlap.
    const other = (await mine.last().textContent())!.trim();
    // Both choose the same time; neither holds it yet, as neither is known.
    await theirs.filter({ hasText: new RegExp(`^${slot}$`) }).click();
    await mine.filter({ hasText: new RegExp(`^${slot}$`) }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Your details" })).toBeVisible();
    // The rival gives their details first and gets the hold.
    await fillDetails(rival, uniqueEmail("rival"));

    await enterDetails(page, uniqueEmail("late"));
    await expect(page).toHaveURL(/\/appointment\/time/);
    await expect(page.getByText("That time was just taken. Please choose another time.")).toBeVisible();
    const fresh = page.getByRole("form", { name: "Open times" });
    await expect(fresh.getByRole("button", { name: slot, exact: true })).toHaveCount(0);
    // Known now (a guest record with their details): the next time chosen is held at once.
    await fresh.getByRole("button", { name: other, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeVisible();
    await expect(page.getByText(/is on hold for the next/)).toBeVisible();
  } finally {
    await other.close();
  }
});

test("an unknown clinic in a booking link says Invalid Clinic Location", ONCE, async ({ page }) => {
  const response = await page.goto("/appointment/service?id=00000000-0000-0000-0000-000000000000");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Invalid Clinic Location");
});

test("a staff deep link fills in the choices and lands on the first open step", ONCE, async ({ page, bookingDay }) => {
  const { clinic, date } = bookingDay();
  await page.goto(`/locations/${clinic.slug}`);
  const book = await buttonTarget(page.getByRole("button", { name: "Book here" }));
  const centerId = new URL(book, "http://x").searchParams.get("id");
  await page.goto(
    `/appointment/service?id=${centerId}&service=${await facialId(page, centerId!)}&date=${date}&promo=glow50`,
  );
  await expect(page).toHaveURL(new RegExp(`/appointment/time\\?date=${date}`));
  await expect(page.getByText(`Signature Laser Facial - New Client at ${clinic.name}`)).toBeVisible();
});

test("leaving the booking releases the hold after a confirmation step", async ({ page, bookingDay }) => {
  const { clinic, date } = bookingDay();
  await startBooking(page, clinic);
  await chooseFacialWithAddOn(page);
  await (await showDate(page, date)).first().click();
  await fillDetails(page, uniqueEmail("leaving"));
  await page.getByRole("link", { name: "Cancel this booking" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Leave this booking?" })).toBeVisible();
  await page.getByRole("button", { name: "Yes, cancel my booking" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText("Your booking was cancelled")).toBeVisible();
  await page.goto("/appointment/payment");
  await expect(page).toHaveURL(/\/locations$/);
});

/** The new-client facial's id, read from the service page's "Select" button. */
async function facialId(page: import("@playwright/test").Page, centerId: string) {
  await page.goto(`/appointment/service?id=${centerId}`);
  const target = await buttonTarget(page.getByRole("button", { name: "Select Signature Laser Facial - New Client" }));
  return new URL(target, "http://x").searchParams.get("choose");
}

test(
  "an email with an account here leads to the duplicate-email page, which offers sign-in; bad details stay in the form",
  ONCE,
  async ({ page, account, bookingDay }) => {
    const { clinic, date } = bookingDay();
    await startBooking(page, clinic);
    await chooseFacialWithAddOn(page);
    await (await showDate(page, date)).first().click();
    await expect(page.getByRole("heading", { level: 1, name: "Your details" })).toBeVisible();
    await page.getByLabel("First name").fill("Ana");
    await page.getByLabel("Email").fill("not-an-email");
    await page.getByLabel(/Mobile phone/).fill("512-555");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page.getByText("Please correct the errors below.")).toBeVisible();
    await expect(page.getByText("Please enter your last name")).toBeVisible();
    await expect(
      page.getByText("The email address you entered is not valid. Please check the email and try again"),
    ).toBeVisible();
    await expect(
      page.getByText("Mobile number you entered is not valid. Please check the number and try again"),
    ).toBeVisible();
    await expect(page.getByLabel("First name")).toHaveValue("Ana");

    // An email that has an account here: the visitor signs in, or sets a password.
    await page.getByLabel("Last name").fill("Lopez");
    await page.getByLabel("Email").fill(account.email);
    await page.getByLabel(/Mobile phone/).fill(uniquePhone());
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page).toHaveURL(/\/error\?error=duplicate-email&redirect=samesite/);
    await expect(page.getByRole("alert")).toHaveText(
      "It looks like you have an account with us. Please click login to continue",
    );
    expect(await buttonTarget(page.getByRole("button", { name: "Set or reset your password" }))).toBe(
      "/forgot-password",
    );
    await page.getByRole("main").getByRole("button", { name: "Sign in" }).click();
    await page.getByLabel("Email", { exact: true }).fill(account.email);
    await page.getByLabel("Password", { exact: true }).fill(account.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    // Signed in, the chosen time is held under the account's own guest.
    await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeVisible();
    await expect(page.getByText(/is on hold for the next/)).toBeVisible();
  },
);
