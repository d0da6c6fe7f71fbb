import { expect, test } from "./fixtures";
import { chooseFacialWithAddOn, startBooking } from "./helpers";

// Public pages are kept rendered for visitors without a session (decision 023). These tests show
// that what one visitor sees of their own (being signed in, a message) never reaches another.

test("a visitor without a session gets the kept page; a signed-in visitor's page and their message are never shared", async ({
  browser,
  page,
  signedIn,
  baseURL,
}) => {
  expect(signedIn.email).toBeTruthy();
  const anonymousContext = await browser.newContext({ baseURL });
  const anonymous = await anonymousContext.newPage();

  const kept = await anonymous.goto("/");
  expect(kept?.headers()["cache-control"]).toMatch(/^public, max-age=0, s-maxage=\d+/);
  await expect(anonymous.getByRole("link", { name: "Sign in" })).toBeVisible();

  const own = await page.goto("/");
  expect(own?.headers()["cache-control"]).toBe("private, no-store");
  await expect(page.getByRole("link", { name: "Account", exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign in" })).toHaveCount(0);

  // Signing out shows a message on the home page: that page is theirs alone.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByText("You are signed out")).toBeVisible();

  const again = await anonymous.goto("/");
  expect(again?.headers()["cache-control"]).toMatch(/^public/);
  await expect(anonymous.getByRole("link", { name: "Sign in" })).toBeVisible();
  await expect(anonymous.getByRole("link", { name: "Account", exact: true })).toHaveCount(0);
  await expect(anonymous.getByText("You are signed out")).toHaveCount(0);
  await anonymousContext.close();
});

test("a kept clinic page revalidates with its ETag and runs its scripts under a policy of hashes", async ({
  request,
  page,
}) => {
  const first = await request.get("/locations/austin-downtown");
  expect(first.status()).toBe(200);
  const etag = first.headers().etag;
  expect(etag).toBeTruthy();
  expect(first.headers()["content-security-policy"]).toMatch(
    /script-src 'self' ('sha256-[A-Za-z0-9+/=]+' )+'strict-dynamic'/,
  );
  expect(await first.text()).not.toContain("nonce=");
  const revalidated = await request.get("/locations/austin-downtown", { headers: { "if-none-match": etag } });
  expect(revalidated.status()).toBe(304);

  // The page works in the browser under that policy (a blocked script fails the test as a console error).
  await page.goto("/locations/austin-downtown");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});

test("a first look at a clinic's treatments is the kept page; choosing one makes the booking the visitor's own", async ({
  page,
  request,
}) => {
  await startBooking(page);
  const step = new URL(page.url());
  const stepPath = `${step.pathname}${step.search}`;
  const firstLook = await request.get(stepPath);
  expect(firstLook.headers()["cache-control"]).toMatch(/^public, max-age=0, s-maxage=\d+/);
  expect(firstLook.headers()["set-cookie"]).toBeUndefined();
  expect(await firstLook.text()).not.toContain("nonce=");

  // Opened as a document by a visitor with no session: the kept page, which works (its scripts run
  // under the policy of hashes; a blocked one fails the test as a console error).
  await page.context().clearCookies();
  const kept = await page.goto(stepPath);
  expect(kept?.headers()["cache-control"]).toMatch(/^public/);
  await chooseFacialWithAddOn(page);
  const own = await page.goto(stepPath);
  expect(own?.headers()["cache-control"]).toBe("private, no-store");
  await expect(page.getByRole("button", { name: "Selected Signature Laser Facial - New Client" })).toBeVisible();
  await expect(page.getByRole("checkbox", { name: /LED Light Therapy Enhancement/ })).toBeChecked();
});
