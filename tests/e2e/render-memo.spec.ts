import type { Browser, Page } from "@playwright/test";
import { SHORT_HOLD_PORT } from "../../playwright.config";
import { expect, registerAccount, signIn, test } from "./fixtures";
import { chooseFacialWithAddOn, choosePeelWithFaceArea, otherClientAddress, startBooking } from "./helpers";

/**
 * The time step is made once for what it shows and served again to whoever would be shown the same
 * (decision 034). These run on a server that serves kept pages (the main test server renders every
 * page again and compares instead): each visitor still gets their own nonce, their own header and
 * their own treatment. That a second request is served the kept page rather than a new render is
 * shown by the entry's own tests (app/entry.server.test.tsx); here, what each visitor is shown.
 */
test.use({ baseURL: `http://localhost:${SHORT_HOLD_PORT}` });

type Visitor = { page: Page; errors: string[] };

/** Another visitor: a browser context of their own, from an address of their own, whose console errors are kept. */
async function newVisitor(browser: Browser, javaScriptEnabled: boolean, baseURL: string): Promise<Visitor> {
  const context = await browser.newContext({
    baseURL,
    javaScriptEnabled,
    extraHTTPHeaders: { "x-forwarded-for": otherClientAddress() },
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(String(error)));
  return { page, errors };
}

/** Loads the time step as a document (not a client navigation) and returns its HTML and its policy's nonce. */
async function timeStepDocument(page: Page) {
  const response = (await page.goto("/appointment/time"))!;
  expect(response.status()).toBe(200);
  const nonce = /'nonce-([^']+)'/.exec(response.headers()["content-security-policy"] ?? "")?.[1];
  expect(nonce).toBeTruthy();
  await expect(page.getByRole("navigation", { name: "Dates" }).locator("button[aria-current]")).toHaveCount(1);
  return { html: await response.text(), nonce: nonce! };
}

const openTimes = (page: Page) => page.getByRole("form", { name: "Open times" }).getByRole("button").allTextContents();
const treatmentShown = (page: Page) => page.locator(".summary-treatment dd").textContent();

test("guests who chose the same treatment are shown the same times, each page with its own nonce; another treatment gets its own page", async ({
  page,
  browser,
  baseURL,
  javaScriptEnabled,
}) => {
  await startBooking(page);
  await chooseFacialWithAddOn(page);
  const first = await timeStepDocument(page);
  const times = await openTimes(page);
  expect(times.length).toBeGreaterThan(0);

  const second = await newVisitor(browser, javaScriptEnabled, baseURL!);
  await startBooking(second.page);
  await chooseFacialWithAddOn(second.page);
  const again = await timeStepDocument(second.page);
  expect(await openTimes(second.page)).toEqual(times);
  expect(await treatmentShown(second.page)).toBe(await treatmentShown(page));
  // The same page, with the second visitor's nonce on every script and no trace of the first's.
  expect(again.nonce).not.toBe(first.nonce);
  const nonces = new Set([...again.html.matchAll(/ nonce="([^"]*)"/g)].map((match) => match[1]));
  expect([...nonces]).toEqual([again.nonce]);
  expect(again.html).not.toContain(first.nonce);
  expect(again.html.replaceAll(again.nonce, "")).toBe(first.html.replaceAll(first.nonce, ""));
  // With JavaScript its scripts ran under that nonce: the strip moves the day without a new document.
  if (javaScriptEnabled) {
    await second.page
      .getByRole("navigation", { name: "Dates" })
      .locator("button[data-date]:not([aria-current])")
      .first()
      .click();
    await expect(second.page).toHaveURL(/date=/);
  }
  expect(second.errors).toEqual([]);

  const third = await newVisitor(browser, javaScriptEnabled, baseURL!);
  await startBooking(third.page);
  await choosePeelWithFaceArea(third.page);
  await timeStepDocument(third.page);
  expect(await treatmentShown(third.page)).toContain("Glow Peel");
  expect(await treatmentShown(third.page)).not.toContain("Signature Laser Facial");
  expect(third.errors).toEqual([]);
});

test("a signed-in guest is shown signed in on the time step, and a guest who chose the same after them is not", async ({
  page,
  context,
  browser,
  baseURL,
  javaScriptEnabled,
}) => {
  const account = await registerAccount(context.request);
  await signIn(context.request, account, baseURL!);
  await startBooking(page);
  await chooseFacialWithAddOn(page);
  await timeStepDocument(page);
  const header = page.getByRole("navigation", { name: "Main" });
  await expect(header.getByRole("link", { name: "Account" })).toBeVisible();

  const guest = await newVisitor(browser, javaScriptEnabled, baseURL!);
  await startBooking(guest.page);
  await chooseFacialWithAddOn(guest.page);
  await timeStepDocument(guest.page);
  const guestHeader = guest.page.getByRole("navigation", { name: "Main" });
  await expect(guestHeader.getByRole("link", { name: "Sign in" })).toBeVisible();
  await expect(guestHeader.getByRole("link", { name: "Account" })).toHaveCount(0);
  expect(guest.errors).toEqual([]);

  // And the signed-in guest, back again, is still shown signed in.
  await timeStepDocument(page);
  await expect(header.getByRole("link", { name: "Account" })).toBeVisible();
  await expect(header.getByRole("link", { name: "Sign in" })).toHaveCount(0);
});
