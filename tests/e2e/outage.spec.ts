import { NO_BACKEND_PORT } from "../../playwright.config";
import { expect, ONCE, test } from "./fixtures";
import { uniqueEmail } from "./helpers";

// This server's spa back end is unreachable.
test.use({ baseURL: `http://localhost:${NO_BACKEND_PORT}` });

// Pages opened by their address run once (`ONCE`, decision 053): the outage page is loaded with
// JavaScript in keyboard-and-motion.spec.ts. The forms below, sent from the page, run in both projects.
for (const path of [
  "/",
  "/locations",
  "/locations/austin-downtown",
  "/appointment/service?id=c15a6f41-932f-4420-a911-5a51c3f967c9",
  "/register",
]) {
  test(`${path} explains the outage with a 503 and a retry, never a 500`, ONCE, async ({ page }) => {
    const response = await page.goto(path);
    expect(response?.status()).toBe(503);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("We can't reach our booking system right now");
    await expect(page.getByText("Nothing you chose is lost.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Try again" })).toBeVisible();
  });
}

test("the legal pages still work while the back end is down", ONCE, async ({ page }) => {
  const response = await page.goto("/terms");
  expect(response?.status()).toBe(200);
});

test("signing in with an email the back end would be asked about answers 503 and keeps the email, never a 500", async ({
  page,
}) => {
  const email = uniqueEmail("booked.once");
  await page.goto("/login");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill("Glow!Skin2026");
  const answer = page.waitForResponse(
    (r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/login"),
  );
  await page.getByRole("button", { name: "Sign in" }).click();
  expect((await answer).status()).toBe(503);
  await expect(page.getByText("Something went wrong, please try again")).toBeVisible();
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue(email);
  await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");
});

test("asking for a reset code while the back end is down answers 503 and keeps the email", async ({ page }) => {
  const email = uniqueEmail("code.asked");
  await page.goto("/forgot-password");
  await page.getByLabel("Email", { exact: true }).fill(email);
  const answer = page.waitForResponse(
    (r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/forgot-password"),
  );
  await page.getByRole("button", { name: "Send me a code" }).click();
  expect((await answer).status()).toBe(503);
  await expect(page.getByText("Something went wrong, please try again")).toBeVisible();
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue(email);
});

test(
  "the JSON sign-in and reset-code calls answer a JSON 503 while the back end is down",
  ONCE,
  async ({ request }) => {
    const email = uniqueEmail("api.outage");
    const login = await request.post("/api/users/login", { data: { email, password: "Glow!Skin2026" } });
    expect(login.status()).toBe(503);
    expect(await login.json()).toEqual({ error: "Something went wrong, please try again" });
    const code = await request.get(`/api/users/forgot-password?email=${encodeURIComponent(email)}`);
    expect(code.status()).toBe(503);
    expect(await code.json()).toEqual({ error: "Something went wrong, please try again" });
  },
);
