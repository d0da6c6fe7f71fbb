import { HOME_CLINIC } from "./booking-days";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { fillRegistration, uniqueEmail, uniquePhone } from "./helpers";

/**
 * How every form answers a failed submit, with JavaScript and without: focus on the first invalid
 * field, one announcement for the whole form, each message tied to its field, what was typed kept
 * (never a password).
 */

const noJs = () => test.info().project.name === "no-js";

async function submitRegistration(page: Page) {
  await page.getByRole("button", { name: "Create account" }).click();
}

test("a failed registration focuses the first invalid field and announces the errors once", async ({ page }) => {
  await page.goto("/register");
  await page.getByLabel("First name").fill("Mia");
  await page.getByLabel("Email", { exact: true }).fill("not-an-email");
  await page.getByLabel("Password", { exact: true }).fill("short");
  await submitRegistration(page);

  await expect(page.getByRole("alert")).toHaveCount(1);
  await expect(page.getByRole("alert")).toHaveText("Please correct the errors below.");
  await expect(page.getByLabel("Last name")).toBeFocused();
  // Each message is read with its field, not announced on its own.
  await expect(page.getByLabel("Last name")).toHaveAccessibleDescription("Please enter your last name");
  await expect(page.getByLabel("Email", { exact: true })).toHaveAccessibleDescription(
    "The email address you entered is not valid. Please check the email and try again",
  );
  await expect(page.getByLabel("Last name")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("First name")).not.toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("First name")).toHaveValue("Mia");
  await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");

  // Fixing the first field moves the focus to the next invalid one on the next submit.
  await page.getByLabel("Last name").fill("Rivera");
  await submitRegistration(page);
  await expect(page.getByLabel("Email", { exact: true })).toBeFocused();
  await expect(page.getByRole("alert")).toHaveCount(1);
});

test("an error only the server can find (a registered email) focuses that field, once announced", async ({
  page,
  request,
}) => {
  const email = uniqueEmail("focus.dup");
  const centerId = HOME_CLINIC.centerId;
  const registration = {
    firstName: "Mia",
    lastName: "Rivera",
    email,
    phone: uniquePhone(),
    centerId,
    address: "12 Oak St",
    city: "Austin",
    zip: "78701",
    password: "Glow!Skin2026",
    ageConfirmed: true,
  };
  expect((await request.post("/api/users", { data: registration })).status()).toBe(201);

  await fillRegistration(page, email);
  const answer = page.waitForResponse(
    (r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/register"),
  );
  await submitRegistration(page);
  expect((await answer).status()).toBe(409);
  await expect(page.getByRole("alert")).toHaveCount(1);
  await expect(page.getByLabel("Email", { exact: true })).toBeFocused();
  await expect(page.getByLabel("Email", { exact: true })).toHaveAccessibleDescription(
    "It looks like you have an account with us. Please click login to continue",
  );
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue(email);
  await expect(page.getByLabel("Last name")).toHaveValue("Rivera");
  await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");
});

test("required fields say so, and inputs carry the schema's lengths", async ({ page }) => {
  await page.goto("/register");
  for (const label of ["First name", "Last name", "Address", "City", "ZIP code"]) {
    await expect(page.getByLabel(label, { exact: true })).toHaveAttribute("required", "");
  }
  await expect(page.getByLabel("Email", { exact: true })).toHaveAttribute("required", "");
  await expect(page.getByLabel(/Mobile phone/)).toHaveAttribute("required", "");
  await expect(page.getByLabel("Home clinic")).toHaveAttribute("required", "");
  await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("required", "");
  await expect(page.getByRole("checkbox", { name: /age of majority/ })).toHaveAttribute("required", "");
  await expect(page.getByLabel("Referral code (optional)")).not.toHaveAttribute("required", "");
  await expect(page.getByLabel("First name")).toHaveAttribute("maxlength", "50");
  await expect(page.getByLabel("ZIP code")).toHaveAttribute("pattern", "\\d{5}");

  await page.goto("/login");
  await expect(page.getByLabel("Email", { exact: true })).toHaveAttribute("required", "");
  await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("required", "");
});

test("the profile says a too-long name in plain words", async ({ page }) => {
  await fillRegistration(page, uniqueEmail("focus.profile"));
  await submitRegistration(page);
  await expect(page.getByRole("heading", { level: 1, name: "Your profile" })).toBeVisible();
  const firstName = page.getByLabel("First name");
  // The input stops typing at its length; a crafted post (or an old page) still sends more.
  await firstName.evaluate((input) => input.removeAttribute("maxlength"));
  await firstName.fill("M".repeat(60));
  await page.getByRole("button", { name: "Save details" }).click();
  await expect(firstName).toHaveAccessibleDescription("Please use at most 50 characters");
  await expect(page.getByText(/Too big|expected string/)).toHaveCount(0);
  await expect(firstName).toBeFocused();
  await expect(page.getByRole("alert")).toHaveCount(1);
});

test("after following a link, focus is on the new page's heading", async ({ page }) => {
  test.skip(noJs(), "Without JavaScript every link loads a whole page, and the browser starts at the top.");
  await page.goto("/login");
  // Not on the first load: the page starts where the browser starts it.
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).not.toBeFocused();
  await page.getByRole("link", { name: "Create an account" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Create your account" })).toBeFocused();
  expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("H1");
});

test("pages with forms break no rule of the Content Security Policy while their forms check input", async ({
  page,
}) => {
  test.skip(noJs(), "the checks in the browser run with JavaScript");
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (event) =>
      seen.push(`${event.violatedDirective} ${event.sourceFile}`),
    );
  });
  for (const path of [`/memberships?clinic=${HOME_CLINIC.slug}`, "/register", "/login"]) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    await expect(page.locator("form").first()).toBeVisible();
  }
  // A check run in the browser: the registration's schema parses what was typed.
  await page.goto("/register");
  await submitRegistration(page);
  await expect(page.getByRole("alert")).toHaveText("Please correct the errors below.");
  expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
});
