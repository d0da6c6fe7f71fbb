import { NO_BACKEND_PORT } from "../../playwright.config";
import { expect, test } from "./fixtures";

// This server's spa back end is unreachable.
test.use({ baseURL: `http://localhost:${NO_BACKEND_PORT}` });

for (const path of ["/", "/locations", "/locations/austin-downtown", "/appointment/service?id=c15a6f41-932f-4420-a911-5a51c3f967c9", "/register"]) {
  test(`${path} explains the outage with a 503 and a retry, never a 500`, async ({ page }) => {
    const response = await page.goto(path);
    expect(response?.status()).toBe(503);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("We can't reach our booking system right now");
    await expect(page.getByText("Nothing you chose is lost.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Try again" })).toBeVisible();
  });
}

test("the legal pages still work while the back end is down", async ({ page }) => {
  const response = await page.goto("/terms");
  expect(response?.status()).toBe(200);
});
