import { expect, ONCE, test } from "./fixtures";
import { buttonTarget } from "./helpers";

// A page opened by its address and only read runs once (`ONCE`, decision 053); the ZIP forms and the
// view switch, which the scripts handle with JavaScript, run in both projects.

test.describe("home", () => {
  test("finds the nearest clinics by ZIP code and leads into booking", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Glowing skin, booked in a minute");
    await expect(page.locator("#support-chat")).toBeHidden();
    await page.getByLabel("ZIP code").fill("78701");
    await page.getByRole("button", { name: "Find clinics" }).click();
    // The answer's heading is the address's fragment: the next Tab starts there, at the clinics found;
    // with JavaScript it has focus.
    await expect(page).toHaveURL(/\?zip=78701#nearest-heading$/);
    const found = page.getByRole("heading", { name: /1 clinic within 50 km/ });
    await expect(found).toBeVisible();
    if (test.info().project.name === "js") await expect(found).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Book here at Glow Clinic Austin Downtown" })).toBeFocused();
    const book = page.getByRole("button", { name: "Book here at Glow Clinic Austin Downtown" });
    expect(await buttonTarget(book)).toMatch(/^\/appointment\/service\?id=[0-9a-f-]{36}$/);
  });

  test("keeps a malformed ZIP and says what is wrong, with a 400", ONCE, async ({ page }) => {
    const response = await page.goto("/?zip=12ab");
    expect(response?.status()).toBe(400);
    await expect(page.getByRole("alert")).toHaveText("Please enter a 5-digit US ZIP code, like 78701.");
    await expect(page.getByLabel("ZIP code")).toHaveValue("12ab");
    await expect(page.getByLabel("ZIP code")).toHaveAttribute("aria-invalid", "true");
  });

  test("says so when the ZIP code does not exist", ONCE, async ({ page }) => {
    const response = await page.goto("/?zip=00000");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("alert")).toContainText("We couldn't find ZIP code 00000");
  });

  test("submitting a bad ZIP from the form shows the message next to the field", async ({ page }) => {
    await page.goto("/");
    await page.getByLabel("ZIP code").fill("abc");
    await page.getByRole("button", { name: "Find clinics" }).click();
    await expect(page.getByRole("alert")).toHaveText("Please enter a 5-digit US ZIP code, like 78701.");
    await expect(page.getByLabel("ZIP code")).toHaveValue("abc");
  });
});

test.describe("locations", () => {
  test("lists every clinic, grouped by state", ONCE, async ({ page }) => {
    await page.goto("/locations");
    await expect(page.getByRole("heading", { level: 1, name: "Our locations" })).toBeVisible();
    await expect(page.getByText("15 clinics across the United States")).toBeVisible();
    await expect(page.getByRole("article")).toHaveCount(15);
    await expect(page.getByRole("region", { name: "TX" }).getByRole("article")).toHaveCount(3);
    await expect(page).toHaveTitle("Clinic locations | Glow Clinic");
  });

  test("shows the clinics on a map drawn without JavaScript or a map service", async ({ page }) => {
    await page.goto("/locations");
    await page.getByRole("navigation", { name: "Show locations as" }).getByRole("button", { name: "Map" }).click();
    await expect(page).toHaveURL(/view=map/);
    await expect(page.getByRole("img", { name: "Map of our clinics in the United States" })).toBeVisible();
    const pins = page.getByRole("group", { name: "Pins on the map" });
    await expect(pins.getByRole("link")).toHaveCount(15);
    await pins.getByRole("link", { name: "1. Glow Clinic Austin Downtown" }).click();
    await expect(page).toHaveURL(/\/locations\/austin-downtown$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Glow Clinic Austin Downtown");
  });

  test("counts the clinics within 50 km of a ZIP code", ONCE, async ({ page }) => {
    await page.goto("/locations?zip=90210");
    await expect(
      page.getByRole("heading", { name: /^1 clinic within 50 km \(31 mi\) of Beverly Hills, CA 90210$/ }),
    ).toBeVisible();
    await expect(page.getByRole("region", { name: /within 50 km/ }).getByRole("article")).toHaveCount(1);
  });

  test("offers the default clinic when none is within 50 km", ONCE, async ({ page }) => {
    await page.goto("/locations?zip=59001");
    await expect(page.getByRole("heading", { name: /No clinics within 50 km/ })).toBeVisible();
    await expect(page.getByText("This clinic is the closest one we can suggest:")).toBeVisible();
    await expect(page.getByRole("region", { name: /No clinics within/ }).getByRole("article")).toHaveCount(1);
  });

  test("keeps the map view and the ZIP together", async ({ page }) => {
    await page.goto("/locations?view=map");
    await page.getByLabel("ZIP code").fill("10001");
    await page.getByRole("button", { name: "Find clinics" }).click();
    await expect(page).toHaveURL(/view=map&zip=10001|zip=10001.*view=map/);
    await expect(page.getByRole("img", { name: /Map of our clinics/ })).toBeVisible();
    await expect(page.getByRole("heading", { name: /1 clinic within 50 km/ })).toBeVisible();
  });
});
