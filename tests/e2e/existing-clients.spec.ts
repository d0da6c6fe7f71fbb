import { HOME_CLINIC } from "./booking-days";
import { expect, ONCE, test } from "./fixtures";
import {
  addCard,
  chooseFacialWithAddOn,
  enterDetails,
  fillBillingAndAgree,
  fillRegistration,
  latestCode,
  sandboxGuestCount,
  seedExistingClient,
  showDate,
  startBooking,
  TEST_PASSWORD,
  uniqueEmail,
  uniquePhone,
} from "./helpers";

test.describe("clients the clinics already have, with no account here", () => {
  test("book under their own record after a code, then set a password and sign in; no second record", async ({
    page,
    thisMachine,
    sandboxApi,
    bookingDay,
  }) => {
    const { clinic, date } = bookingDay();
    const email = uniqueEmail("existing");
    const phone = uniquePhone().replace(/\D/g, "");
    await seedExistingClient(sandboxApi, clinic.centerId, email, phone);
    const guestsBefore = sandboxGuestCount(clinic.centerId);

    await startBooking(page, clinic);
    await chooseFacialWithAddOn(page);
    await (await showDate(page, date)).first().click();
    await enterDetails(page, email);

    // The code went to the contact on file, shown masked; the time is not held before it is checked.
    await expect(page.getByRole("heading", { level: 1, name: "Welcome back" })).toBeVisible();
    await expect(
      page.getByText(new RegExp(`sent to ${email[0]}•••@example\\.com and •••-•••-${phone.slice(-4)}`)),
    ).toBeVisible();
    await expect(page.getByText(email)).toHaveCount(0);
    await expect(page.getByText(/is on hold for the next/)).toHaveCount(0);

    const code = await latestCode(thisMachine, email);
    await page.getByLabel("6-digit code").fill(code === "000000" ? "111111" : "000000");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page.getByText("That code is not valid. Please check it or request a new one.")).toBeVisible();
    await page.getByLabel("6-digit code").fill(code);
    await page.getByRole("button", { name: "Continue to payment" }).click();

    await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeVisible();
    await expect(page.getByText(/is on hold for the next/)).toBeVisible();
    await addCard(page, "4242 4242 4242 4242");
    await fillBillingAndAgree(page);
    await page.getByRole("button", { name: "Book appointment" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "You're booked!" })).toBeVisible();
    expect(sandboxGuestCount(clinic.centerId)).toBe(guestsBefore);

    // Signing in offers the code; setting the password links the account to the same record.
    await page.goto("/login");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText("Invalid credentials. Please try resetting your password")).toBeVisible();
    await page.getByRole("button", { name: "Send me a code to set my password" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Set a new password" })).toBeVisible();
    await page.getByLabel("6-digit code").fill(await latestCode(thisMachine, email));
    await page.getByLabel("New password").fill(TEST_PASSWORD);
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Your password has been changed" })).toBeVisible();

    await page.goto("/login");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Your profile" })).toBeVisible();
    await expect(page.getByLabel("First name")).toHaveValue("Known");
    expect(sandboxGuestCount(clinic.centerId)).toBe(guestsBefore);
  });

  test(
    "registering with their email sends a code to set the password instead of a second record",
    ONCE,
    async ({ page, thisMachine, sandboxApi }) => {
      const email = uniqueEmail("existing.register");
      await seedExistingClient(sandboxApi, HOME_CLINIC.centerId, email, uniquePhone().replace(/\D/g, ""));
      const guestsBefore = sandboxGuestCount(HOME_CLINIC.centerId);

      await fillRegistration(page, email);
      await page.getByRole("button", { name: "Create account" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Set a new password" })).toBeVisible();
      await expect(page.getByText("We found your record with us", { exact: true })).toBeVisible();
      await page.getByLabel("6-digit code").fill(await latestCode(thisMachine, email));
      await page.getByLabel("New password").fill(TEST_PASSWORD);
      await page.getByRole("button", { name: "Set new password" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Your password has been changed" })).toBeVisible();
      expect(sandboxGuestCount(HOME_CLINIC.centerId)).toBe(guestsBefore);
    },
  );

  test(
    "a mobile number on file is matched too: the code goes to that record's contact",
    ONCE,
    async ({ page, sandboxApi, bookingDay }) => {
      const { clinic, date } = bookingDay();
      const onFile = uniqueEmail("existing.phone");
      const phone = uniquePhone();
      await seedExistingClient(sandboxApi, clinic.centerId, onFile, phone.replace(/\D/g, ""));
      await startBooking(page, clinic);
      await chooseFacialWithAddOn(page);
      await (await showDate(page, date)).first().click();
      await enterDetails(page, uniqueEmail("typed.other"), phone);
      await expect(page.getByRole("heading", { level: 1, name: "Welcome back" })).toBeVisible();
      await expect(page.getByText(new RegExp(`sent to ${onFile[0]}•••@example\\.com`))).toBeVisible();
    },
  );
});
