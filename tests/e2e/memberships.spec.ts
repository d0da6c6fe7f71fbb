import type { Page } from "@playwright/test";
import { seedGuid } from "../../server/spa-sandbox/db";
import { expect, ONCE, test } from "./fixtures";
import { signInAsDemo } from "./helpers";

test("a clinic's membership plans show their price, term and cover, never sculpting or laser hair removal", async ({
  page,
}) => {
  await page.goto("/memberships");
  await expect(page.getByText("Choose a clinic to see its plans and prices.")).toBeVisible();
  await page.getByRole("combobox", { name: "Clinic" }).selectOption({ label: "Glow Clinic Austin Downtown" });
  await page.getByRole("button", { name: "Show plans" }).click();
  await expect(page).toHaveURL(/\/memberships\?clinic=austin-downtown$/);

  const plans = page.getByRole("list", { name: /Membership plans at/ });
  await expect(plans.getByRole("heading", { name: "Glow Monthly" })).toBeVisible();
  await expect(plans.getByText("$99 a month")).toBeVisible();
  await expect(plans.getByText("$1,068 a year")).toBeVisible();
  const covered = plans.locator("li li");
  await expect(covered.first()).toBeVisible();
  await expect(covered.filter({ hasText: /sculpt|laser hair removal/i })).toHaveCount(0);
  await expect(
    page.getByText("Membership does not cover sculpting and laser hair removal.", { exact: true }),
  ).toBeVisible();
});

test("an unknown clinic in a memberships link is a 404 with the clinic list", ONCE, async ({ page }) => {
  const response = await page.goto("/memberships?clinic=no-such-clinic");
  expect(response?.status()).toBe(404);
  await expect(page.getByText("No clinic has that address. Please choose one from the list.")).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Clinic" })).toBeVisible();
});

test("a member sees their membership, its credit, and their points with what they are worth", async ({ page }) => {
  await signInAsDemo(page);
  await page.goto("/account");
  const points = page.getByRole("region", { name: "Membership and loyalty points" });
  await expect(points.getByText("Glow Monthly (Active)")).toBeVisible();
  await expect(points.getByText("2,450 points, worth $24.50")).toBeVisible();
  await expect(points.getByText("100 points are worth $1.")).toBeVisible();

  await page.getByRole("navigation", { name: "Your account" }).getByRole("link", { name: "Memberships" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your memberships" })).toBeVisible();
  const card = page.locator(".visit-card", { has: page.getByRole("heading", { name: "Glow Monthly" }) });
  await expect(card.getByText("Active", { exact: true })).toBeVisible();
  await expect(card.getByText("Renews automatically")).toBeVisible();
  await expect(card.getByText("$99 (treatments $99, products $0, other $0)")).toBeVisible();
});

test("a guest with no membership is told why they have no points, and where the plans are", async ({
  page,
  signedIn,
}) => {
  expect(signedIn.email).toBeTruthy();
  await page.goto("/account");
  const points = page.getByRole("region", { name: "Membership and loyalty points" });
  await expect(points.getByText(/Loyalty points are for members/)).toBeVisible();
  await expect(points.getByText(/points, worth/)).toHaveCount(0);
  await page.goto("/account/memberships");
  await expect(page.getByText("You have no membership yet.")).toBeVisible();
  await page.getByRole("link", { name: "See the plans at your clinic" }).click();
  // The account's home clinic is Austin: its plans show at once.
  await expect(page.getByRole("heading", { level: 2, name: "At Glow Clinic Austin Downtown" })).toBeVisible();
});

test(
  "a member is not sold their plan again, nor a second plan that renews by itself; a plan paid once is still offered",
  ONCE,
  async ({ page }) => {
    await signInAsDemo(page);
    await page.goto("/memberships?clinic=austin-downtown");
    const plans = page.getByRole("list", { name: /Membership plans at/ });
    const plan = (name: string) =>
      plans.getByRole("listitem").filter({ has: page.getByRole("heading", { name, exact: true }) });
    await expect(plan("Glow Monthly").getByText("This is your plan.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Join Glow Monthly" })).toHaveCount(0);
    await expect(
      plan("Glow Plus").getByText(
        "You have Glow Monthly, which renews automatically: to change plans, please call the clinic.",
      ),
    ).toBeVisible();
    await expect(page.getByRole("button", { name: "Join Glow Plus" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Join Glow Annual" })).toBeVisible();

    // A form posted anyway (an old tab, a crafted request) is refused before any sale is made.
    const key = await page.locator('form.buy-form input[name="purchaseKey"]').first().inputValue();
    const post = (code: string, price: string) =>
      page.request.post("/memberships?clinic=austin-downtown", {
        form: { clinic: "austin-downtown", itemId: seedGuid(`membership:${code}`), price, purchaseKey: key },
        maxRedirects: 0,
      });
    const again = await post("GLOW-MONTHLY", "9900");
    expect(again.status()).toBe(409);
    expect(await again.text()).toContain("You already have Glow Monthly, so nothing was charged.");
    const second = await post("GLOW-PLUS", "17900");
    expect(second.status()).toBe(409);
    expect(await second.text()).toContain(
      "You already have Glow Monthly, which renews automatically, so nothing was charged.",
    );
  },
);
