import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import type { Result } from "axe-core";
import { expect, ONCE, test } from "./fixtures";
import {
  enterDetails,
  fillBillingAndAgree,
  latestCode,
  seedExistingClient,
  showDate,
  startBooking,
  uniqueEmail,
  uniquePhone,
} from "./helpers";
import { bookVisitInBackEnd, closeVisitInBackEnd, guestIdOf, moveVisitInBackEnd } from "./visits";

/**
 * axe on every page, with JavaScript and without (the two projects), on each page as a visitor
 * reaches it and on the forms' error states, where the error summaries and field messages are. A
 * violation fails the test with what a reader needs to fix it without running it again: the rule,
 * its impact, the elements and the rule's help page. Every page of a test is checked before it
 * fails (soft assertions), so one run lists them all.
 */

/** WCAG 2.0, 2.1 and 2.2 at levels A and AA, and axe's best practices (landmarks, heading order, one h1). */
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa", "best-practice"];

/** One violation as a few lines of text: rule, impact, help URL, then each element and what fails. */
function describeViolation(violation: Result): string {
  const nodes = violation.nodes.map((node) => {
    const target = node.target.map((part) => (Array.isArray(part) ? part.join(" >>> ") : part)).join(" ");
    const why = (node.failureSummary ?? "").replace(/\s*\n\s*/g, " ");
    return `    ${target}\n      ${node.html.slice(0, 200)}\n      ${why}`;
  });
  return `${violation.id} (${violation.impact}): ${violation.help}\n  ${violation.helpUrl}\n${nodes.join("\n")}`;
}

const noJavaScript = () => test.info().project.use.javaScriptEnabled === false;

/**
 * Without JavaScript the browser runs no timer callbacks, and axe resolves each rule in a
 * `setTimeout(..., 0)`: it would never finish. The page then runs no script of its own, so the
 * timers are axe's alone: those due at once run as promise reactions (which still run), and later
 * ones, axe's guards against frames that never answer (there are none), are dropped.
 */
async function letAxeRunWithoutJavaScript(page: Page) {
  await page.evaluate(() => {
    window.setTimeout = ((handler: unknown, delay?: number, ...args: unknown[]) => {
      if (typeof handler === "function" && !(delay && delay > 1)) void Promise.resolve().then(() => handler(...args));
      return 0;
    }) as typeof window.setTimeout;
    window.clearTimeout = () => {};
  });
}

/**
 * Runs axe on the page as it is now. `disableRules` only with a reason next to the call, saying
 * what stands in for the rule there.
 */
async function expectAccessible(page: Page, what: string, options: { disableRules?: string[] } = {}) {
  await test.step(`axe: ${what}`, async () => {
    // In this page itself: by default axe finishes each check in a blank page it opens for the
    // purpose, which is there for frames of other origins. The app has no frames, and a page opened
    // per check cost the run about a third of this spec's time; without JavaScript the blank page
    // would also lack the timers below.
    const axe = new AxeBuilder({ page })
      .withTags(AXE_TAGS)
      .disableRules(options.disableRules ?? [])
      .setLegacyMode();
    if (noJavaScript()) await letAxeRunWithoutJavaScript(page);
    const results = await axe.analyze();
    expect.soft(results.violations.map(describeViolation), `axe violations on ${what} (${page.url()})`).toEqual([]);
  });
}

/** Opens a page and waits for its heading, so that axe sees it whole. */
async function visit(page: Page, path: string, heading: string | RegExp) {
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
}

/** The one announcement of a refused form. */
const correctErrors = (page: Page) => page.getByRole("alert").filter({ hasText: "Please correct the errors below." });

// Every page here is opened by its address, so it is checked as the server sent it; with JavaScript,
// hydration leaves the same document (a mismatch is a console error, which fails the test), so
// these run once. Pages reached by a form's answer, which the browser draws itself with
// JavaScript, are checked in both projects below.
test.describe("public pages", ONCE, () => {
  test("home and locations: the list, the map, a ZIP search and its errors, a clinic page", async ({ page }) => {
    // Seven pages under axe, often the first test of a run while the servers warm up: over a minute on a busy machine.
    test.slow();
    await visit(page, "/", "Glowing skin, booked in a minute");
    await expectAccessible(page, "home");
    await visit(page, "/locations", "Our locations");
    await expectAccessible(page, "locations, list");
    await visit(page, "/locations?view=map", "Our locations");
    await expect(page.getByRole("img", { name: "Map of our clinics in the United States" })).toBeVisible();
    await expectAccessible(page, "locations, map");
    await visit(page, "/locations?zip=78701", "Our locations");
    await expect(page.getByRole("heading", { name: /1 clinic within 50 km/ })).toBeVisible();
    await expectAccessible(page, "locations, ZIP search");
    await visit(page, "/locations?zip=12ab", "Our locations");
    await expect(page.getByRole("alert")).toBeVisible();
    await expectAccessible(page, "locations, malformed ZIP");
    await visit(page, "/locations/austin-downtown", "Glow Clinic Austin Downtown");
    await expectAccessible(page, "clinic page");
    await visit(page, "/locations/no-such-clinic", "We can't find that clinic");
    await expectAccessible(page, "clinic not found");
  });

  test("memberships, terms, privacy, the error page, the 404 page and a refused reminder link", async ({ page }) => {
    // Five pages, each checked whole: near the default limit on a loaded machine.
    test.slow();
    await visit(page, "/memberships?clinic=austin-downtown", "Memberships");
    await expect(page.getByRole("heading", { level: 2, name: /^At / })).toBeVisible();
    await expectAccessible(page, "memberships");
    await visit(page, "/packages?clinic=austin-downtown", "Packages");
    await expectAccessible(page, "packages");
    await visit(page, "/gift-cards?clinic=austin-downtown", "Gift cards");
    await expectAccessible(page, "gift cards");
    await visit(page, "/terms", "Terms of Use");
    await expectAccessible(page, "terms");
    await visit(page, "/privacy", "Privacy Policy");
    await expectAccessible(page, "privacy");

    // The error page stays until the visitor chooses, and is checked with every rule. The countdown
    // the visitor may start is a <meta http-equiv="refresh"> (decision 004), which axe's meta-refresh
    // rule refuses whatever the page offers: WCAG 2.2.1 is met there because the visitor turned the
    // time limit on and "Stop the countdown" turns it off.
    await page.goto("/error?error=duplicate-email&redirect=webstore");
    await expect(page.getByRole("alert")).toContainText("It looks like you have an account with us");
    await expect(page.getByText("Take your time: this page stays until you go back.")).toBeVisible();
    await expectAccessible(page, "error page");
    await page.getByRole("link", { name: "Take me back in 10 seconds" }).click();
    await expect(page.getByRole("link", { name: "Stop the countdown" })).toBeVisible();
    await expectAccessible(page, "error page, counting down", { disableRules: ["meta-refresh"] });

    await visit(page, "/no-such-page", "We can't find that page");
    await expectAccessible(page, "404 page");
    // A reminder's link that is not one we sent (decision 059).
    await visit(page, "/appointment/resume/not-a-link", "This link can't be used");
    await expectAccessible(page, "a reminder's link refused");
  });
});

test.describe("account forms", () => {
  test("sign in, registration and password reset, empty and refused", async ({ page }) => {
    // Three forms, each checked empty and refused: near the default limit on a loaded machine.
    test.slow();
    await visit(page, "/login", "Sign in");
    await expectAccessible(page, "sign in");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(correctErrors(page)).toBeVisible();
    await expectAccessible(page, "sign in, empty form refused");

    await visit(page, "/register", "Create your account");
    await expectAccessible(page, "registration");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(correctErrors(page)).toBeVisible();
    await expectAccessible(page, "registration, empty form refused");

    await visit(page, "/forgot-password", "Forgot your password?");
    await expectAccessible(page, "forgot password");
    await page.getByRole("button", { name: "Send me a code" }).click();
    await expect(correctErrors(page)).toBeVisible();
    await expectAccessible(page, "forgot password, empty form refused");
    await page.getByLabel("Email").fill(uniqueEmail("axe-reset"));
    await page.getByRole("button", { name: "Send me a code" }).click();

    await expect(page.getByRole("heading", { level: 1, name: "Set a new password" })).toBeVisible();
    await expectAccessible(page, "reset password");
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(correctErrors(page)).toBeVisible();
    await expectAccessible(page, "reset password, empty form refused");
  });
});

test("the booking journey, each step and its error states, the card page and the confirmation", async ({
  page,
  bookingDay,
  sandboxApi,
  thisMachine,
}) => {
  // A whole journey with an axe run at every step: longer than one test's minute on a busy machine.
  test.slow();
  // A client the clinic already has: the journey goes through the code step too.
  const { clinic, date } = bookingDay();
  const email = uniqueEmail("axe-booking");
  await seedExistingClient(sandboxApi, clinic.centerId, email, uniquePhone().replace(/\D/g, ""));

  await startBooking(page, clinic);
  await expectAccessible(page, "treatment step");
  await page.getByRole("button", { name: "Select Signature Laser Facial - New Client" }).click();
  const led = page.getByRole("checkbox", { name: /LED Light Therapy Enhancement/ });
  await expect(led).toBeVisible();
  await expectAccessible(page, "treatment step, a treatment's options");
  await led.check();
  await page.getByRole("button", { name: "Continue to date and time" }).click();

  await expect(page.getByRole("heading", { level: 1, name: "Choose a date and time" })).toBeVisible();
  // The waitlist's form (decision 058), as drawn and after an empty submit.
  await visit(page, `/appointment/waitlist?date=${date}&group=all`, "Tell me when a time opens");
  await expectAccessible(page, "waitlist form");
  await page.getByRole("button", { name: "Tell me when a time opens" }).click();
  await expect(correctErrors(page)).toBeVisible();
  await expectAccessible(page, "waitlist form, refused");
  await page.goto("/appointment/time");
  const times = await showDate(page, date);
  await expect(times.first()).toBeVisible();
  await expectAccessible(page, "time step");
  await times.first().click();

  await expect(page.getByRole("heading", { level: 1, name: "Your details" })).toBeVisible();
  await expectAccessible(page, "details step");
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(correctErrors(page)).toBeVisible();
  await expectAccessible(page, "details step, empty form refused");
  await page.getByLabel("First name").fill("Ana");
  await page.getByLabel("Last name").fill("Lopez");
  await page.getByLabel("Email").fill("ana.at.example.com");
  await page.getByLabel(/Mobile phone/).fill("512-555");
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(
    page.getByText("The email address you entered is not valid. Please check the email and try again"),
  ).toBeVisible();
  await expectAccessible(page, "details step, invalid email and phone");
  await enterDetails(page, email);

  await expect(page.getByRole("heading", { level: 1, name: "Welcome back" })).toBeVisible();
  await expectAccessible(page, "verify step");
  const code = await latestCode(thisMachine, email);
  await page.getByLabel("6-digit code").fill(code === "000000" ? "111111" : "000000");
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page.getByText("That code is not valid. Please check it or request a new one.")).toBeVisible();
  await expectAccessible(page, "verify step, wrong code");
  await page.getByLabel("6-digit code").fill(code);
  await page.getByRole("button", { name: "Continue to payment" }).click();

  await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "is on hold for the next" })).toBeVisible();
  await expectAccessible(page, "payment step, time held");
  await page.getByRole("button", { name: "Book appointment" }).click();
  await expect(page.getByText("Please agree to the cancellation policy")).toBeVisible();
  await expectAccessible(page, "payment step, empty form refused");

  await page.getByRole("button", { name: "Add a card" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Add a card" })).toBeVisible();
  await expectAccessible(page, "hosted card page");
  await page.getByLabel("Name on card").fill("Ana Lopez");
  await page.getByLabel("Card number").fill("1234 5678 9012");
  await page.getByLabel("Expiry (MM/YY)").fill("12/30");
  await page.getByLabel("Security code").fill("123");
  await page.getByRole("button", { name: "Save card" }).click();
  await expect(page.getByRole("alert")).toBeVisible();
  await expectAccessible(page, "hosted card page, card refused");
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Security code").fill("123");
  await page.getByRole("button", { name: "Save card" }).click();

  await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeVisible();
  await expect(page.getByRole("radio", { name: /VISA ending 4242/ })).toBeChecked();
  await expectAccessible(page, "payment step, a card added");
  await fillBillingAndAgree(page);
  await page.getByRole("button", { name: "Book appointment" }).click();

  await expect(page.getByRole("heading", { level: 1, name: "You're booked!" })).toBeVisible();
  await expectAccessible(page, "confirmation");
  await page.getByRole("button", { name: "Manage this appointment" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your appointment" })).toBeVisible();
  await expectAccessible(page, "a visit by its manage link");
});

test(
  "the account pages signed in, and a visit's reschedule and cancel pages",
  ONCE,
  async ({ page, signedIn, sandboxApi, bookingDay }) => {
    test.slow();
    const { clinic, dates } = bookingDay({ days: 2 });
    const guestId = await guestIdOf(sandboxApi, signedIn.email);
    await bookVisitInBackEnd(sandboxApi, {
      guestId,
      clinic,
      date: dates[0],
      serviceCode: "FT-RET",
      addOnCodes: ["ADD-LED"],
    });
    // A visit in the past, so that tab has one too; its date is free again for the new time below.
    const past = await bookVisitInBackEnd(sandboxApi, { guestId, clinic, date: dates[1] });
    await moveVisitInBackEnd(
      sandboxApi,
      past.invoiceId,
      `${new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10)}T10:00:00`,
    );
    await closeVisitInBackEnd(sandboxApi, past.invoiceId);

    await visit(page, "/account", "Your account");
    await expect(
      page.getByRole("region", { name: "Your next appointment" }).getByRole("button", { name: /^Reschedule/ }),
    ).toBeVisible();
    await expectAccessible(page, "dashboard");
    await visit(page, "/account/appointments?tab=past", "Your appointments");
    await expect(page.getByRole("button", { name: /^Book again/ })).toBeVisible();
    await expectAccessible(page, "appointments, past");
    await visit(page, "/account/memberships", "Your memberships");
    await expectAccessible(page, "memberships of the account");
    await visit(page, "/account/packages", "Your packages");
    await expectAccessible(page, "packages of the account");
    await visit(page, "/account/gift-cards", "Your gift cards");
    await expectAccessible(page, "gift cards of the account");
    await visit(page, "/account/waitlist", "Your waitlist");
    await expectAccessible(page, "waitlist of the account");
    await visit(page, "/account/share-the-glow", "Share the glow");
    await expectAccessible(page, "share the glow");
    const code = (await page.locator(".referral-code").textContent())!;
    await visit(page, `/refer/${code}`, /signature laser facial for \$50/);
    await expectAccessible(page, "referral landing page");
    await visit(page, "/refer/NOBODY-2345", "This referral link doesn’t work");
    await expectAccessible(page, "referral landing page, unknown code");
    await visit(page, "/gift-cards?clinic=austin-downtown", "Gift cards");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(correctErrors(page)).toBeVisible();
    await expectAccessible(page, "gift cards, empty form refused");

    await visit(page, "/account/profile", "Your profile");
    await expectAccessible(page, "profile");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(correctErrors(page)).toBeVisible();
    await expectAccessible(page, "profile, empty password change refused");

    await visit(page, "/account/appointments?tab=upcoming", "Your appointments");
    await expectAccessible(page, "appointments, upcoming");
    await page.getByRole("button", { name: /^Reschedule/ }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Reschedule your appointment" })).toBeVisible();
    const times = await showDate(page, dates[1]);
    await expect(times.first()).toBeVisible();
    await expectAccessible(page, "reschedule");
    await times.first().click();
    await expect(page.getByRole("heading", { level: 2, name: /^New time: / })).toBeVisible();
    await expectAccessible(page, "reschedule, a new time held");
    await page.getByRole("button", { name: "Keep my current time" }).click();

    // Back on the list, with a toast.
    await expect(page.getByRole("heading", { level: 1, name: "Your appointments" })).toBeVisible();
    await expect(page.getByText("Your appointment is unchanged.")).toBeVisible();
    await expectAccessible(page, "appointments, with a toast");
    await page.getByRole("button", { name: /^Cancel the appointment/ }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Cancel your appointment" })).toBeVisible();
    await expectAccessible(page, "cancel");
    await page.getByRole("button", { name: /^Cancel (appointment|and pay)/ }).click();
    await expect(correctErrors(page)).toBeVisible();
    await expectAccessible(page, "cancel, empty form refused");
  },
);
