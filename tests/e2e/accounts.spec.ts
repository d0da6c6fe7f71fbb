import type { Page } from "@playwright/test";
import { expect, ONCE, registerAccount, test } from "./fixtures";
import {
  addCard,
  chooseFacialWithAddOn,
  fillBillingAndAgree,
  fillRegistration,
  latestCode,
  showDate,
  startBooking,
  TEST_PASSWORD,
  uniqueEmail,
  uniquePhone,
} from "./helpers";
import { BOOKING_COOKIE, looksSealed, openSessionCookie, revealed, sessionCookie, tampered } from "./session-cookie";

const PASSWORD = TEST_PASSWORD;

async function register(page: Page, email: string, options: { expectSuccess?: boolean } = {}) {
  await fillRegistration(page, email);
  await page.getByRole("button", { name: "Create account" }).click();
  if (options.expectSuccess !== false)
    await expect(page.getByRole("heading", { level: 1, name: "Your profile" })).toBeVisible();
}

async function login(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

async function signOut(page: Page) {
  await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();
}

test("register, sign out, sign in, change the password and the consents", async ({ page }) => {
  const email = uniqueEmail("account");
  await register(page, email);
  await expect(page.getByRole("heading", { level: 1, name: "Your profile" })).toBeVisible();
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  await signOut(page);

  await login(page, email, PASSWORD);
  await expect(page.getByRole("heading", { level: 1, name: "Your profile" })).toBeVisible();

  await page.getByRole("checkbox", { name: "Send me offers by email" }).check();
  await page.getByRole("button", { name: "Save message choices" }).click();
  await expect(page.getByText("Your message choices are saved.")).toBeVisible();
  await page.reload();
  await expect(page.getByRole("checkbox", { name: "Send me offers by email" })).toBeChecked();

  await page.getByLabel("Current password").fill("wrong-Password1!");
  await page.getByLabel("New password").fill("Brand!New2027");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Please enter the old password correctly")).toBeVisible();
  await page.getByLabel("Current password").fill(PASSWORD);
  await page.getByLabel("New password").fill("Brand!New2027");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText(/Your password has been changed/)).toBeVisible();
  await signOut(page);

  await login(page, email, PASSWORD);
  await expect(page.getByText("Invalid password. Reset your password")).toBeVisible();
  await expect(page.getByRole("link", { name: "Reset your password" })).toHaveAttribute("href", "/forgot-password");
  await login(page, email, "Brand!New2027");
  await expect(page.getByRole("heading", { level: 1, name: "Your profile" })).toBeVisible();
});

test("reset the password with the one-time code from the outbox; a used code fails", async ({
  page,
  thisMachine,
  account,
}) => {
  const { email } = account;
  await page.goto("/login");
  await page.getByRole("link", { name: /Forgot your password/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Forgot your password?" })).toBeVisible();
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByRole("button", { name: "Send me a code" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Set a new password" })).toBeVisible();
  const code = await latestCode(thisMachine, email);

  await page.goto("/reset-password");
  await page.getByLabel("6-digit code").fill(code);
  await page.getByLabel("New password").fill("Reset!Pass99");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your password has been changed" })).toBeVisible();
  await page.getByRole("button", { name: "Back to login" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill("Reset!Pass99");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your profile" })).toBeVisible();
  await signOut(page);

  // The same code again: it was single-use.
  await page.goto("/forgot-password");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByRole("button", { name: "Send me a code" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Set a new password" })).toBeVisible();
  const fresh = await latestCode(thisMachine, email);
  await page.goto("/reset-password");
  await page.getByLabel("6-digit code").fill(code === fresh ? "000000" : code);
  await page.getByLabel("New password").fill("Another!Pass1");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByText("That code is not valid. Please check it or request a new one.")).toBeVisible();
});

test("the fifth wrong code burns it", ONCE, async ({ page, thisMachine, account }) => {
  const { email } = account;
  await page.goto("/forgot-password");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByRole("button", { name: "Send me a code" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Set a new password" })).toBeVisible();
  const code = await latestCode(thisMachine, email);
  const wrong = code === "111111" ? "222222" : "111111";
  await page.goto("/reset-password");
  for (let i = 0; i < 5; i++) {
    await page.getByLabel("6-digit code").fill(wrong);
    await page.getByLabel("New password").fill("Reset!Pass99");
    await page.getByRole("button", { name: "Set new password" }).click();
    // The answer empties the password field: the next try starts only once this one is answered.
    await expect(page.getByLabel("New password")).toHaveValue("");
    await expect(page.getByRole("alert").first()).toBeVisible();
  }
  await expect(page.getByText("Too many wrong codes. Please request a new one.")).toBeVisible();
  await page.getByLabel("6-digit code").fill(code);
  await page.getByLabel("New password").fill("Reset!Pass99");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByText("That code is not valid. Please check it or request a new one.")).toBeVisible();
});

test("register says what is wrong next to each field, keeps the input but not the password", async ({ page }) => {
  await page.goto("/register");
  await page.getByLabel("First name").fill("Mia");
  await page.getByLabel("Email", { exact: true }).fill("not-an-email");
  await page.getByLabel("Password", { exact: true }).fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Please correct the errors below.")).toBeVisible();
  await expect(page.getByText("Please enter your last name")).toBeVisible();
  await expect(
    page.getByText("The email address you entered is not valid. Please check the email and try again"),
  ).toBeVisible();
  await expect(page.getByText(/Your password needs: At least 8 characters/)).toBeVisible();
  await expect(page.getByText("Please confirm you have reached the age of majority")).toBeVisible();
  await expect(page.getByLabel("First name")).toHaveValue("Mia");
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue("not-an-email");
  await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");
});

test("an email already registered, or used for a booking, is told to log in", ONCE, async ({ page, account }) => {
  await register(page, account.email.toUpperCase(), { expectSuccess: false });
  await expect(
    page.getByText("It looks like you have an account with us. Please click login to continue"),
  ).toBeVisible();
  await login(page, uniqueEmail("nobody"), PASSWORD);
  await expect(page.getByText("Account does not exist. Please create account")).toBeVisible();
});

test(
  "the session cookie reveals nothing, changes at login, and is anonymous after logout or tampering",
  ONCE,
  async ({ page, context, baseURL, signedIn, bookingDay }) => {
    // Signed in and at the payment step: the cookie holds the user's session id and a draft with the
    // account's email, the clinic, the treatment, the guest and the hold.
    const { clinic, date } = bookingDay();
    await startBooking(page, clinic);
    await chooseFacialWithAddOn(page);
    await (await showDate(page, date)).first().click();
    await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeVisible();
    const first = await sessionCookie(context);
    const booking = await sessionCookie(context, BOOKING_COOKIE);

    // What the server put in them, opened with its secret, to know what must not show.
    const opened = { ...openSessionCookie(first), ...openSessionCookie(booking, BOOKING_COOKIE) };
    const draft = (opened?.draft ?? {}) as {
      id?: string;
      serviceId?: string;
      addOnIds?: string[];
      guestId?: string;
      hold?: { bookingId?: string; reservationId?: string };
    };
    const plaintext = [
      signedIn.email,
      signedIn.email.split("@")[0],
      clinic.centerId,
      "draft",
      "userSessionId",
      "details",
    ];
    const fromTheCookie = [
      opened?.userSessionId,
      draft.id,
      draft.serviceId,
      ...(draft.addOnIds ?? []),
      draft.guestId,
      draft.hold?.bookingId,
      draft.hold?.reservationId,
    ];
    // However they are decoded (URI, base64, base64url, each part, nested), none of it shows.
    for (const value of [first, booking]) {
      expect(revealed(value, [...plaintext, ...fromTheCookie.filter((t): t is string => Boolean(t))])).toEqual([]);
      // And each is sealed: "v1." and more bytes than IV and tag, opened only with the server's key.
      expect(looksSealed(value), value).toBe(true);
    }
    expect(opened).toMatchObject({
      userSessionId: expect.any(String),
      draft: { centerId: clinic.centerId, details: { email: signedIn.email }, hold: expect.anything() },
    });

    await signOut(page);
    await login(page, signedIn.email, PASSWORD);
    await expect(page.getByRole("heading", { level: 1, name: "Your profile" })).toBeVisible();
    const second = await sessionCookie(context);
    expect(second).not.toBe(first);

    // One bit of it changed, and it is anonymous; unchanged, it is signed in again.
    await context.addCookies([{ name: "__session", value: tampered(second, "tag"), url: baseURL! }]);
    const response = await page.goto("/account/profile");
    expect(response?.status()).toBeLessThan(500);
    await expect(page).toHaveURL(/\/login\?redirectTo=/);
    await context.addCookies([{ name: "__session", value: second, url: baseURL! }]);
    await page.goto("/account/profile");
    await expect(page.getByRole("heading", { level: 1, name: "Your profile" })).toBeVisible();

    // Replaying the signed-in cookie after logout is anonymous.
    await signOut(page);
    await context.addCookies([{ name: "__session", value: second, url: baseURL! }]);
    await page.goto("/account/profile");
    await expect(page).toHaveURL(/\/login\?redirectTo=/);
  },
);

test("the sixth login attempt in a minute gets 429 and a friendly page", async ({ page }) => {
  const email = uniqueEmail("limit");
  for (let i = 0; i < 5; i++) {
    await login(page, email, PASSWORD);
    await expect(page.getByText("Account does not exist. Please create account")).toBeVisible();
  }
  const responsePromise = page.waitForResponse((r) => r.url().includes("/login") && r.request().method() === "POST");
  await login(page, email, PASSWORD);
  const response = await responsePromise;
  expect(response.status()).toBe(429);
  expect(Number(response.headers()["retry-after"])).toBeGreaterThan(0);
  await expect(page.getByText(/Too many attempts\. Please wait \d+ seconds/)).toBeVisible();
});

test("a signed-in user books without the guest form", async ({ page, signedIn, bookingDay }) => {
  const { email } = signedIn;
  const { clinic, date } = bookingDay();
  await page.goto("/account/profile");
  await expect(page.getByRole("heading", { level: 1, name: "Your profile" })).toBeVisible();
  await startBooking(page, clinic);
  await chooseFacialWithAddOn(page);
  await (await showDate(page, date)).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeVisible();
  await addCard(page, "4242 4242 4242 4242");
  await fillBillingAndAgree(page);
  await page.getByRole("button", { name: "Book appointment" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "You're booked!" })).toBeVisible();
  await page.getByRole("button", { name: "View dashboard" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  await page.getByRole("link", { name: "Your profile" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your profile" })).toBeVisible();
});

test("the dashboard asks a guest to sign in and comes back after", ONCE, async ({ page }) => {
  const response = await page.goto("/account");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
  expect(new URL(page.url()).searchParams.get("redirectTo")).toBe("/account");
});

test("a POST from another site is refused with 403", ONCE, async ({ request }) => {
  const response = await request.post("/login", {
    form: { email: "a@example.com", password: "x" },
    headers: { origin: "https://evil.example" },
  });
  expect(response.status()).toBe(403);
});

/** Age in whole years today, as the profile says it. */
function ageToday(birthDate: string): number {
  const now = new Date();
  const today = `${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;
  const years = now.getFullYear() - Number(birthDate.slice(0, 4));
  return today < birthDate.slice(5) ? years - 1 : years;
}

test(
  "a birth date and gender given at registration are on the profile with the age, and can be changed there",
  ONCE,
  async ({ page }) => {
    const email = uniqueEmail("birthday");
    await fillRegistration(page, email);
    await page.getByLabel("Birth date (optional)").fill("1991-04-18");
    await page.getByLabel("Gender").selectOption({ label: "Female" });
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Your profile" })).toBeVisible();
    await expect(page.getByLabel("Birth date (optional)")).toHaveValue("1991-04-18");
    await expect(page.getByLabel("Gender")).toHaveValue("0");
    await expect(page.getByText(`Age: ${ageToday("1991-04-18")}`)).toBeVisible();

    // Before the spec's earliest birth date: refused next to the field, the rest kept.
    await page.getByLabel("City").fill("Round Rock");
    await page.getByLabel("Birth date (optional)").fill("1939-12-31");
    await page.getByRole("button", { name: "Save details" }).click();
    await expect(page.getByLabel("Birth date (optional)")).toHaveAccessibleDescription(
      /Please enter a birth date on or after January 1, 1940/,
    );
    await expect(page.getByLabel("City")).toHaveValue("Round Rock");

    await page.getByLabel("Birth date (optional)").fill("1985-07-01");
    await page.getByLabel("Gender").selectOption({ label: "Not specified" });
    await page.getByRole("button", { name: "Save details" }).click();
    await expect(page.getByText("Your details are saved.")).toBeVisible();
    await page.reload();
    await expect(page.getByLabel("Birth date (optional)")).toHaveValue("1985-07-01");
    await expect(page.getByLabel("Gender")).toHaveValue("-1");
    await expect(page.getByText(`Age: ${ageToday("1985-07-01")}`)).toBeVisible();
  },
);

test(
  "a language chosen at registration is on the profile when it is opened again; one the list does not offer is refused",
  ONCE,
  async ({ page }) => {
    await fillRegistration(page, uniqueEmail("language"));
    await expect(page.getByLabel("Language")).toHaveValue("0");
    await page.getByLabel("Language").selectOption({ label: "English (US)" });
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Your profile" })).toBeVisible();
    await expect(page.getByLabel("Language")).toHaveValue("1");
    await page.reload();
    await expect(page.getByLabel("Language")).toHaveValue("1");
    await expect(page.getByLabel("Language").locator("option:checked")).toHaveText("English (US)");

    // A value the list does not offer, as a hand-made form would send it: a 400 that says why and keeps the rest.
    const refused = await page.request.post("/account/profile", {
      form: {
        intent: "details",
        firstName: "Mia",
        lastName: "Rivera",
        phone: "512-555-0100",
        address: "12 Oak St",
        city: "Round Rock",
        zip: "78701",
        gender: "-1",
        language: "7",
      },
      maxRedirects: 0,
    });
    expect(refused.status()).toBe(400);
    const answer = await refused.text();
    expect(answer).toContain("Please choose a language from the list");
    expect(answer).toContain('value="Round Rock"');
    await page.reload();
    await expect(page.getByLabel("Language")).toHaveValue("1");
    await expect(page.getByLabel("City")).toHaveValue("Austin");
  },
);

test(
  "a new email with the mobile number and first name of a client we know is told how to get into that account",
  ONCE,
  async ({ page, request }) => {
    const phone = uniquePhone();
    await registerAccount(request, uniqueEmail("first.record"), phone);
    await fillRegistration(page, uniqueEmail("second.record"), phone);
    const answer = page.waitForResponse(
      (r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/register"),
    );
    await page.getByRole("button", { name: "Create account" }).click();
    expect((await answer).status()).toBe(409);
    await expect(page.getByLabel(/Mobile phone/)).toHaveAccessibleDescription(
      /It looks like you already have an account with us: this mobile number is on your record/,
    );
    await expect(page.getByRole("button", { name: "Log in" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Forgot your password?" })).toBeVisible();
  },
);
