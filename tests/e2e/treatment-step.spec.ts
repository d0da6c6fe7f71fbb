import type { Page } from "@playwright/test";
import { expect, ONCE, test } from "./fixtures";
import { HOME_CLINIC } from "./booking-days";
import { fillDetails, showDate, signInAsDemo, uniqueEmail } from "./helpers";

/** The treatment's card on the step: its list item. */
function card(page: Page, treatment: string) {
  return page
    .getByRole("listitem")
    .filter({ has: page.getByRole("button", { name: new RegExp(`^Select(ed)? ${treatment}$`) }) });
}

/** The step's total of what is chosen, as shown: "Total $325" or "Total was $325 $292.50". */
function stepTotal(page: Page) {
  return page.locator("#total");
}

/** Without JavaScript the total is worked out by a submit; with it, as the choice changes. */
async function updateTotal(page: Page) {
  if (test.info().project.name === "no-js") await page.getByRole("button", { name: "Update total" }).click();
  else await expect(page.getByRole("button", { name: "Update total" })).toHaveCount(0);
}

test("a treatment's options open under it, focus or fragment there, and its total follows the choice", async ({
  page,
  bookingDay,
}) => {
  const { clinic } = bookingDay({ listPrices: true });
  await page.goto(`/appointment/service?id=${clinic.centerId}`);
  await page.getByRole("button", { name: "Select Signature Laser Facial - New Client" }).click();
  const facial = card(page, "Signature Laser Facial - New Client");
  const options = facial.getByRole("form", { name: /Signature Laser Facial - New Client: your options/ });
  await expect(options).toBeVisible();
  await expect(options.getByRole("checkbox", { name: /LED Light Therapy Enhancement/ })).toBeVisible();
  await expect(page).toHaveURL(/[?&]choose=[^&#]+$/);
  // Focus is on its first option, the next decision, not on a treatment further down: with
  // JavaScript as the options open, without it by the page's \`autofocus\`.
  await expect(options.getByRole("checkbox").first()).toBeFocused();

  await expect(stepTotal(page)).toHaveText(/^Total \$275$/);
  await options.getByRole("checkbox", { name: /LED Light Therapy Enhancement/ }).check();
  await updateTotal(page);
  await expect(stepTotal(page)).toHaveText(/^Total \$325$/);
  // The booking bar says the same, with the add-on.
  const bar = page.getByRole("complementary", { name: "Your booking" });
  await expect(bar.locator(".summary-price dd")).toHaveText("$325");
  await expect(bar).toContainText("LED Light Therapy Enhancement");
});

test("the total on the treatment step is what the payment step says is due", async ({ page, bookingDay }) => {
  const { clinic, date } = bookingDay({ listPrices: true });
  for (const [treatment, option, total] of [
    ["Signature Laser Facial - New Client", /Dermaplaning Enhancement/, "$350"],
    ["Laser Hair Removal", /Underarms/, null],
  ] as const) {
    await page.goto(`/appointment/service?id=${clinic.centerId}`);
    await page.getByRole("button", { name: `Select ${treatment}`, exact: true }).click();
    await card(page, treatment).getByRole("checkbox", { name: option }).check();
    await updateTotal(page);
    const shown = (await stepTotal(page).innerText()).replace(/^Total\s+/, "").trim();
    if (total) expect(shown).toBe(total);
    await page.getByRole("button", { name: "Continue to date and time" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Choose a date and time" })).toBeVisible();
    await expect(page.getByRole("complementary", { name: "Your booking" }).locator(".summary-price dd")).toHaveText(
      shown,
    );
    await (await showDate(page, date)).first().click();
    await fillDetails(page, uniqueEmail("step-total"));
    const summary = page.getByRole("region", { name: "Price summary" });
    await expect(summary.getByRole("row", { name: /^Total/ })).toContainText(shown.split(" ").pop()!);
    // The next kind is a new visitor's booking.
    await page.context().clearCookies();
  }
});

test("a failed submit without a treatment area puts focus on the first area, its message read with it", async ({
  page,
  bookingDay,
}) => {
  const { clinic } = bookingDay();
  await page.goto(`/appointment/service?id=${clinic.centerId}`);
  await page.getByRole("button", { name: "Select Laser Hair Removal", exact: true }).click();
  // Its options open under it (without JavaScript, on the next page): continue from there.
  const areas = page.getByRole("group", { name: /Treatment areas/ });
  await expect(areas).toBeVisible();
  await page.getByRole("button", { name: "Continue to date and time" }).click();
  await expect(areas).toHaveAccessibleDescription("Please select a treatment area");
  await expect(page.getByRole("alert")).toContainText("Please correct the errors below.");
  await expect(areas.getByRole("checkbox").first()).toBeFocused();
});

test("'Not covered by membership' is said to members only", ONCE, async ({ page }) => {
  await page.goto(`/appointment/service?id=${HOME_CLINIC.centerId}`);
  await expect(page.getByRole("button", { name: "Select Sculpting" })).toBeVisible();
  await expect(page.getByText("Not covered by membership")).toHaveCount(0);

  await signInAsDemo(page);
  await page.goto(`/appointment/service?id=${HOME_CLINIC.centerId}`);
  await expect(card(page, "Sculpting")).toContainText("Not covered by membership");
  await expect(page.getByRole("listitem").filter({ hasText: "Not covered by membership" }).first()).toBeVisible();
});

test("the nurse is chosen from cards with a picture, name and title: one Tab stop, the arrow keys choose", async ({
  page,
  bookingDay,
}) => {
  const { clinic } = bookingDay();
  await page.goto(`/appointment/service?id=${clinic.centerId}`);
  await page.getByRole("button", { name: "Select Signature Laser Facial - New Client" }).click();
  const nurses = page.getByRole("group", { name: "Nurse" });
  const radios = nurses.getByRole("radio");
  await expect(radios).toHaveCount(1 + clinic.nurses.length);
  await expect(nurses.getByRole("radio", { name: /^Any available nurse/ })).toBeChecked();
  const first = clinic.nurses[0].name;
  await expect(nurses.getByRole("radio", { name: `${first} Aesthetic Nurse` })).not.toBeChecked();
  // Each nurse's picture is beside the name it would repeat: skipped by screen readers, in a box of its own size.
  const picture = nurses.locator("label").filter({ hasText: first }).locator("img");
  await expect(picture).toHaveAttribute("alt", "");
  await expect(picture).toHaveAttribute("width", "64");
  await expect(picture).toHaveAttribute("height", "64");
  await expect(picture).toHaveAttribute("loading", "lazy");
  await expect(picture).toHaveAttribute("decoding", "async");

  // The group is one Tab stop: on the chosen card, the arrow key moves to the next nurse and chooses them.
  await nurses.getByRole("radio", { name: /^Any available nurse/ }).focus();
  await page.keyboard.press("ArrowDown");
  const chosen = nurses.getByRole("radio", { name: first });
  await expect(chosen).toBeFocused();
  await expect(chosen).toBeChecked();
  await page.keyboard.press("Tab");
  await expect(radios.filter({ has: page.locator(":focus") })).toHaveCount(0);
  expect(await page.evaluate(() => document.activeElement?.getAttribute("type"))).not.toBe("radio");

  // The choice is kept: back on the step, the same nurse is chosen.
  await page.getByRole("button", { name: "Continue to date and time" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Choose a date and time" })).toBeVisible();
  await page.goto(`/appointment/service?id=${clinic.centerId}`);
  await expect(page.getByRole("group", { name: "Nurse" }).getByRole("radio", { name: first })).toBeChecked();
});

test(
  "treatments show the back end's catalog picture where it has one, and our drawing where not",
  ONCE,
  async ({ page, bookingDay }) => {
    const { clinic } = bookingDay();
    await page.goto(`/appointment/service?id=${clinic.centerId}`);
    const picture = (treatment: string) => card(page, treatment).locator("img");
    // The sandbox's catalog has pictures of its facials; some of its treatments have none.
    await expect(picture("Signature Laser Facial - New Client")).toHaveAttribute(
      "src",
      "/spa-sandbox/images/facials.svg",
    );
    await expect(picture("Signature Laser Facial - New Client")).toHaveAttribute("alt", "");
    const drawn = page.getByRole("region", { name: "Treatments" }).locator('img[src="/images/treatment.svg"]').last();
    await drawn.scrollIntoViewIfNeeded();
    await expect(drawn).toHaveAttribute("alt", "");
    await expect(drawn).toHaveAttribute("loading", "lazy");
    // Both arrive: the page's policy lets them load.
    for (const image of [picture("Signature Laser Facial - New Client"), drawn]) {
      await expect
        .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
        .toBe(true);
    }
  },
);
