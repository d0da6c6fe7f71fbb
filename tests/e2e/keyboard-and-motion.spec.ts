import type { Browser, Locator, Page } from "@playwright/test";
import { NO_BACKEND_PORT } from "../../playwright.config";
import { CLINICS, HOME_CLINIC, nurseWorkingOn, type Clinic } from "./booking-days";
import { expect, test } from "./fixtures";
import {
  chooseFacialWithNurse,
  bookableDates,
  enterDetails,
  fillDetails,
  otherClientAddress,
  showDate,
  startBooking,
  uniqueEmail,
} from "./helpers";
import { bookVisitInBackEnd, closeVisitInBackEnd, guestIdOf, moveVisitInBackEnd } from "./visits";

/**
 * Beyond the rules: every control that looks like a button is one, and Enter and Space both work
 * it, with JavaScript and without (the two projects); an error toast stays until it is closed, a
 * success toast goes by itself but not while it is read; nothing slides or fades for a visitor who
 * asked for less motion; the map's pins are named links big enough to tap.
 */

/** Focuses the control and presses the key on it, as a keyboard user does. */
async function press(control: Locator, key: "Space" | "Enter") {
  await control.focus();
  await expect(control).toBeFocused();
  await control.page().keyboard.press(key);
}

const withJavaScript = () => test.info().project.name !== "no-js";

test.describe("buttons that go somewhere answer Enter and Space", () => {
  for (const key of ["Space", "Enter"] as const) {
    test(`"Book here" on a clinic page, with ${key}`, async ({ page }) => {
      await page.goto(`/locations/${HOME_CLINIC.slug}`);
      await press(page.getByRole("button", { name: "Book here" }), key);
      await expect(page.getByRole("heading", { level: 1, name: "Choose your treatment" })).toBeVisible();
      await expect(page).toHaveURL(new RegExp(`/appointment/service\\?id=${HOME_CLINIC.centerId}$`, "i"));
    });
  }

  test("a clinic card's \"Book here\" and the locations' view switch, with Space", async ({ page }) => {
    await page.goto("/locations");
    await press(
      page.getByRole("navigation", { name: "Show locations as" }).getByRole("button", { name: "Map" }),
      "Space",
    );
    await expect(page).toHaveURL(/view=map/);
    await expect(
      page.getByRole("navigation", { name: "Show locations as" }).getByRole("button", { name: "Map" }),
    ).toHaveAttribute("aria-current", "page");
    await page.goto("/locations?zip=78701");
    const nearest = page.getByRole("region", { name: /within 50 km/ });
    await press(nearest.getByRole("button", { name: "Book here at Glow Clinic Austin Downtown" }), "Space");
    await expect(page.getByRole("heading", { level: 1, name: "Choose your treatment" })).toBeVisible();
  });

  test('the treatment\'s "Select", the time step\'s "Next available" and a time-of-day button, with Space', async ({
    page,
  }) => {
    const houston = CLINICS.find((c) => c.slug === "houston-heights")!;
    const nurse = houston.nurses[0];
    await startBooking(page, houston);
    await press(page.getByRole("button", { name: "Select Signature Laser Facial - New Client" }), "Space");
    await expect(page.getByRole("group", { name: "Nurse" })).toBeVisible();
    await page.getByRole("radio", { name: nurse.name }).check();
    await page.getByRole("button", { name: "Continue to date and time" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Choose a date and time" })).toBeVisible();

    // The nurse's day off has no times: "Next available" offers the next day that has some.
    const dates = bookableDates("America/Chicago");
    const dayOff = dates.find((d, i) => i > 0 && new Date(`${d}T12:00:00Z`).getUTCDay() === nurse.dayOff)!;
    await showDate(page, dayOff);
    await expect(page.getByText("No times are open on this day.")).toBeVisible();
    const next = page.getByRole("button", { name: /day, \w+ \d+$/ });
    const label = (await next.textContent())!.trim();
    await press(next, "Space");
    await expect(page.getByRole("heading", { level: 2, name: label, exact: true })).toBeVisible();

    const timesOfDay = page.getByRole("navigation", { name: "Time of day" });
    await press(timesOfDay.getByRole("button", { name: /^Afternoon/ }), "Space");
    await expect(page).toHaveURL(/group=afternoon/);
    await expect(timesOfDay.getByRole("button", { name: /^Afternoon/ })).toHaveAttribute("aria-current", "page");
  });

  test("a visit's actions on the account's appointments, with Space", async ({
    page,
    signedIn,
    sandboxApi,
    bookingDay,
  }) => {
    const { clinic, dates } = bookingDay({ days: 2 });
    const guestId = await guestIdOf(sandboxApi, signedIn.email);
    await bookVisitInBackEnd(sandboxApi, { guestId, clinic, date: dates[0] });
    const past = await bookVisitInBackEnd(sandboxApi, {
      guestId,
      clinic,
      date: dates[1],
      serviceCode: "PEEL-GLOW",
      addOnCodes: ["PEEL-AREA-FACE"],
    });
    await moveVisitInBackEnd(
      sandboxApi,
      past.invoiceId,
      `${new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10)}T10:00:00`,
    );
    await closeVisitInBackEnd(sandboxApi, past.invoiceId);
    const upcoming = "/account/appointments?tab=upcoming";

    await page.goto(upcoming);
    await press(page.getByRole("button", { name: /^Reschedule the appointment on / }), "Space");
    await expect(page.getByRole("heading", { level: 1, name: "Reschedule your appointment" })).toBeVisible();

    await page.goto(upcoming);
    await press(page.getByRole("button", { name: /^Cancel the appointment on / }), "Space");
    await expect(page.getByRole("heading", { level: 1, name: "Cancel your appointment" })).toBeVisible();

    // The calendar file is saved, and the page stays.
    await page.goto(upcoming);
    const download = page.waitForEvent("download");
    await press(page.getByRole("button", { name: "Add to calendar" }), "Space");
    expect((await download).suggestedFilename()).toBe("glow-clinic-appointment.ics");
    await expect(page.getByRole("heading", { level: 1, name: "Your appointments" })).toBeVisible();

    await press(page.getByRole("navigation", { name: "Appointments" }).getByRole("button", { name: /^Past/ }), "Space");
    await expect(page).toHaveURL(/tab=past/);
    await press(page.getByRole("button", { name: /^Book again/ }), "Space");
    await expect(page.getByRole("heading", { level: 1, name: "Choose a date and time" })).toBeVisible();
  });

  test("the error page's buttons, with Space", async ({ page }) => {
    // Staying: no countdown takes the page away while the test works it.
    const errorPage = "/error?error=duplicate-email&redirect=webstore&stay=1";
    await page.goto(errorPage);
    await press(page.getByRole("button", { name: "Set or reset your password" }), "Space");
    await expect(page.getByRole("heading", { level: 1, name: "Forgot your password?" })).toBeVisible();

    await page.goto(errorPage);
    await press(page.getByRole("main").getByRole("button", { name: "Sign in" }), "Space");
    await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fappointment%2Fdetails$/);

    await page.goto(errorPage);
    await press(page.getByRole("button", { name: "Go back" }), "Space");
    await expect(page.getByRole("heading", { level: 1, name: "Glowing skin, booked in a minute" })).toBeVisible();

    await page.goto("/locations/atlantis");
    await press(page.getByRole("button", { name: "See all locations" }), "Space");
    await expect(page.getByRole("heading", { level: 1, name: "Our locations" })).toBeVisible();
  });

  test.describe("while the back end is down", () => {
    test.use({ baseURL: `http://localhost:${NO_BACKEND_PORT}` });

    test('the outage page\'s "Try again" loads the page again, and "Go to the home page" leaves, with Space', async ({
      page,
    }) => {
      await page.goto("/locations?zip=78701");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("We can't reach our booking system right now");
      const again = page.waitForRequest(
        (request) => request.isNavigationRequest() && new URL(request.url()).pathname === "/locations",
      );
      await press(page.getByRole("button", { name: "Try again" }), "Space");
      expect(new URL((await again).url()).searchParams.get("zip")).toBe("78701");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("We can't reach our booking system right now");

      await press(page.getByRole("button", { name: "Go to the home page" }), "Space");
      await expect(page).toHaveURL((url) => url.pathname === "/");
    });
  });
});

/** The toasts' region: toasts are found inside it by their role (an error is an alert). */
const toasts = (page: Page) => page.getByRole("region", { name: "Notifications" });

/**
 * Loses a time to another visitor who gave their details first: the time step says so in an error
 * toast. (The Fixer alone, which did this before, is no longer offered to a new visitor.)
 */
async function slotTakenError(page: Page, browser: Browser, clinic: Clinic, date: string): Promise<Locator> {
  const nurse = nurseWorkingOn(clinic, date);
  const chooseWithNurse = async (p: Page) => {
    await startBooking(p, clinic);
    await chooseFacialWithNurse(p, nurse);
    return showDate(p, date);
  };
  const other = await browser.newContext({
    javaScriptEnabled: withJavaScript(),
    extraHTTPHeaders: { "x-forwarded-for": otherClientAddress() },
  });
  const rival = await other.newPage();
  const mine = await chooseWithNurse(page);
  const theirs = await chooseWithNurse(rival);
  const slot = (await mine.first().textContent())!.trim();
  await theirs.filter({ hasText: new RegExp(`^${slot}$`) }).click();
  await mine.filter({ hasText: new RegExp(`^${slot}$`) }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your details" })).toBeVisible();
  await fillDetails(rival, uniqueEmail("toast-rival"));
  await other.close();
  await enterDetails(page, uniqueEmail("toast-error"));
  await expect(page.getByRole("heading", { level: 1, name: "Choose a date and time" })).toBeVisible();
  const toast = toasts(page).getByRole("alert");
  await expect(toast).toContainText("That time was just taken");
  return toast;
}

/** Saves the profile's message choices: a success toast. */
async function savedToast(page: Page): Promise<Locator> {
  await page.goto("/account/profile");
  await page.getByRole("button", { name: "Save message choices" }).click();
  // The pointer out of the way: a toast under it would be held open.
  await page.mouse.move(0, 0);
  const toast = toasts(page).getByRole("status").filter({ hasText: "Your message choices are saved." });
  await expect(toast).toBeVisible();
  return toast;
}

test.describe("toasts", () => {
  test("an error toast stays until it is closed; with JavaScript its Close button works from the keyboard", async ({
    page,
    bookingDay,
    browser,
  }) => {
    const { clinic, date } = bookingDay();
    if (withJavaScript()) await page.clock.install();
    const toast = await slotTakenError(page, browser, clinic, date);
    if (!withJavaScript()) {
      // Nothing can close it without JavaScript: it sits in the page's flow, above the content,
      // covering nothing, and offers no button that would do nothing.
      expect(await toasts(page).evaluate((region) => getComputedStyle(region).position)).toBe("static");
      const toastBox = (await toast.boundingBox())!;
      const mainBox = (await page.getByRole("main").boundingBox())!;
      expect(toastBox.y + toastBox.height).toBeLessThanOrEqual(mainBox.y);
      await expect(toast.getByRole("button")).toHaveCount(0);
      return;
    }
    // Well past the 5 s a success toast gets.
    await page.clock.runFor(6_000);
    await expect(toast).toBeVisible();
    await press(toast.getByRole("button", { name: "Close" }), "Space");
    await expect(toast).toHaveCount(0);
    // Focus is not lost with the button: it is back on the page's content.
    await expect(page.getByRole("main")).toBeFocused();
  });

  test("a success toast goes after 5 s, but not while it is hovered or has focus", async ({ page, signedIn }) => {
    test.skip(!withJavaScript(), "without JavaScript a toast stays in the page's flow until the next page");
    expect(signedIn.email).toBeTruthy();
    await page.clock.install();

    let toast = await savedToast(page);
    await page.clock.runFor(6_000);
    await expect(toast).toHaveCount(0);

    toast = await savedToast(page);
    await toast.hover();
    await page.clock.runFor(6_000);
    await expect(toast).toBeVisible();
    await page.mouse.move(0, 0);
    await page.clock.runFor(6_000);
    await expect(toast).toHaveCount(0);

    toast = await savedToast(page);
    const close = toast.getByRole("button", { name: "Close" });
    await close.focus();
    await page.clock.runFor(6_000);
    await expect(toast).toBeVisible();
    await page.getByRole("button", { name: "Save message choices" }).focus();
    await page.clock.runFor(6_000);
    await expect(toast).toHaveCount(0);
  });

  test.describe("with reduced motion", () => {
    test.use({ reducedMotion: "reduce" });

    test("a toast neither slides nor fades", async ({ page, signedIn }) => {
      expect(signedIn.email).toBeTruthy();
      const toast = await savedToast(page);
      const motion = await toast.evaluate((element) => {
        const style = getComputedStyle(element);
        return { animation: style.animationName, transform: style.transform };
      });
      expect(motion).toEqual({ animation: "none", transform: "none" });
    });
  });

  test.describe("without a wish for less motion", () => {
    test.use({ reducedMotion: "no-preference" });

    test("a toast slides in, so the check above can tell the difference", async ({ page, signedIn }) => {
      test.skip(!withJavaScript(), "without JavaScript a toast is part of the page and does not move");
      expect(signedIn.email).toBeTruthy();
      const toast = await savedToast(page);
      expect(await toast.evaluate((element) => getComputedStyle(element).animationName)).toBe("toast-in");
    });
  });
});

test.describe("the map", () => {
  test("each pin is a link named for its clinic, at least 44 px, outside the image, in the list's order", async ({
    page,
  }) => {
    await page.goto("/locations?view=map");
    await expect(page.getByRole("img", { name: "Map of our clinics in the United States" })).toBeVisible();
    const pins = page.getByRole("group", { name: "Pins on the map" }).getByRole("link");
    const listed = page.getByRole("list", { name: "Clinics on the map" }).getByRole("link");
    await expect(pins).toHaveCount(15);
    await expect(listed).toHaveCount(15);

    const names = await listed.allTextContents();
    const pinNames = await pins.evaluateAll((links) => links.map((link) => link.getAttribute("aria-label")));
    expect(pinNames).toEqual(names.map((name, i) => `${i + 1}. ${name.trim()}`));
    for (const pin of await pins.all()) {
      // Not inside an image, whose content a screen reader does not read.
      expect(await pin.evaluate((link) => link.parentElement!.closest('[role="img"]') === null)).toBe(true);
      await pin.scrollIntoViewIfNeeded();
      const box = (await pin.boundingBox())!;
      expect(box.width, (await pin.getAttribute("aria-label"))!).toBeGreaterThanOrEqual(44);
      expect(box.height, (await pin.getAttribute("aria-label"))!).toBeGreaterThanOrEqual(44);
    }
    // Its number is printed large enough to read.
    const fontSize = await pins.first().evaluate((link) => link.querySelector("text")!.getBoundingClientRect().height);
    expect(fontSize).toBeGreaterThanOrEqual(12);

    // The keyboard goes through the pins in the list's order, or skips them to the list.
    const skip = page.getByRole("link", { name: "Skip the map to the list of clinics" });
    await skip.focus();
    await page.keyboard.press("Tab");
    await expect(pins.nth(0)).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(pins.nth(1)).toBeFocused();
    await skip.focus();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    await expect(listed.nth(0)).toBeFocused();

    await press(pins.nth(0), "Enter");
    await expect(page.getByRole("heading", { level: 1, name: names[0].trim() })).toBeVisible();
  });
});

test("a booking step reached by the keyboard starts at its decision, its heading said; by a pointer, at its heading", async ({
  page,
}) => {
  test.skip(!withJavaScript(), "without JavaScript every step is a page loaded whole, which starts at its decision");
  await page.goto(`/locations/${HOME_CLINIC.slug}`);
  await page.getByRole("button", { name: "Book here" }).click();
  const heading = page.getByRole("heading", { level: 1, name: "Choose your treatment" });
  await expect(heading).toBeFocused();
  await expect(page.getByTestId("page-announcer")).toHaveText("");

  await page.goto(`/locations/${HOME_CLINIC.slug}`);
  await press(page.getByRole("button", { name: "Book here" }), "Enter");
  await expect(heading).toBeVisible();
  await expect(page.getByRole("button", { name: "Select Signature Laser Facial - New Client" })).toBeFocused();
  await expect(page.getByTestId("page-announcer")).toHaveText("Choose your treatment");
});
