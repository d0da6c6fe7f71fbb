import type { APIRequestContext, Page } from "@playwright/test";
import { FAULT_BACKEND_PORT, FAULTS_PORT } from "../../playwright.config";
import { expect, ONCE, test } from "./fixtures";
import { fillRegistration, TEST_PASSWORD, uniqueEmail, uniquePhone } from "./helpers";

/**
 * Forms whose back-end call fails: a 503 with the spec's "Something went wrong, please try again"
 * and what was typed kept (never the password), not a 500. The server on FAULTS_PORT reaches the
 * sandbox through the fault proxy; each test breaks only the calls that carry its own email.
 */
test.use({ baseURL: `http://localhost:${FAULTS_PORT}` });

const CONTROL = `http://127.0.0.1:${FAULT_BACKEND_PORT}/__faults`;

/** Presses the form's button and returns the status of the POST it sends to `path`. */
async function submitStatus(page: Page, path: string, button: string): Promise<number> {
  const answer = page.waitForResponse(
    (r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith(path),
  );
  await page.getByRole("button", { name: button }).click();
  return (await answer).status();
}

async function breakCallsFor(request: APIRequestContext, email: string, method: string, path: string) {
  expect(
    (
      await request.post(CONTROL, { data: { method, path, mode: "reset-before", times: 2, bodyContains: email } })
    ).status(),
  ).toBe(204);
}

test("registering while the back end fails keeps what was typed and answers 503", async ({ page, request }) => {
  const email = uniqueEmail("outage.register");
  await fillRegistration(page, email);
  await breakCallsFor(request, email, "POST", "/v1/guests$");
  expect(await submitStatus(page, "/register", "Create account")).toBe(503);
  await expect(page.getByText("Something went wrong, please try again")).toBeVisible();
  await expect(page.getByLabel("First name")).toHaveValue("Mia");
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue(email);
  await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");
});

test(
  "the JSON registration answers 503 with the spec's message while the back end fails",
  ONCE,
  async ({ request }) => {
    const email = uniqueEmail("outage.api");
    await breakCallsFor(request, email, "POST", "/v1/guests$");
    const clinics = await request.get("/register");
    const centerId = /value="([0-9a-f-]{36})"/.exec(await clinics.text())![1];
    const answer = await request.post("/api/users", {
      data: {
        firstName: "Mia",
        lastName: "Rivera",
        email,
        phone: uniquePhone(),
        centerId,
        address: "12 Oak St",
        city: "Austin",
        zip: "78701",
        password: TEST_PASSWORD,
        ageConfirmed: true,
      },
    });
    expect(answer.status()).toBe(503);
    expect(await answer.json()).toEqual({ error: "Something went wrong, please try again" });
  },
);

test("saving the profile while the back end fails keeps the new details and answers 503", async ({
  page,
  request,
  signedIn,
}) => {
  const { email } = signedIn;
  await page.goto("/account/profile");
  await expect(page.getByRole("heading", { level: 1, name: "Your profile" })).toBeVisible();
  await page.getByLabel("First name").fill("Amelia");
  await page.getByLabel("City").fill("Round Rock");
  await breakCallsFor(request, email, "PUT", "/v1/guests/[^/]+$");
  expect(await submitStatus(page, "/account/profile", "Save details")).toBe(503);
  await expect(page.getByText("Something went wrong, please try again")).toBeVisible();
  await expect(page.getByLabel("First name")).toHaveValue("Amelia");
  await expect(page.getByLabel("City")).toHaveValue("Round Rock");
});
