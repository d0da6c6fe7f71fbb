// `npm run screenshots`: the README's pictures, taken from the running app on a phone-sized screen
// and on a laptop's, so the README shows the product as it is. Starts the built app the way
// `npm run serve` does, on a fresh data directory (the embedded sandbox seeds itself), books a facial
// as a new guest with JavaScript off at 360 pixels wide, then goes through the same steps to the
// payment at 1366 pixels, and saves each step to docs/screenshots/. Needs Chromium (see
// scripts/ensure-test-tools.mjs).
import fs from "node:fs";
import { startBuiltApp } from "./built-app.mjs";
import { chromiumLaunchOptions } from "./chromium.mjs";
import path from "node:path";
import { chromium } from "@playwright/test";

const PORT = Number(process.env.SCREENSHOTS_PORT ?? 4480);
const BASE = `http://localhost:${PORT}`;
const OUT = path.resolve("docs/screenshots");

const { server, dataDir, ready: waitForHealth } = startBuiltApp(PORT, "screenshots");

const browser = await chromium.launch(chromiumLaunchOptions("/usr/bin/chromium"));
try {
  await waitForHealth();
  fs.mkdirSync(OUT, { recursive: true });
  // A phone: 360 CSS pixels wide at twice the density, without JavaScript, as many guests arrive.
  const page = await browser.newPage({
    viewport: { width: 360, height: 760 },
    deviceScaleFactor: 2,
    javaScriptEnabled: false,
  });
  const shotOf = (shown) => async (name) => {
    // The pointer off the page: no card shown hovered.
    await shown.mouse.move(0, 0);
    await shown.screenshot({ path: path.join(OUT, `${name}.png`) });
    console.log(`docs/screenshots/${name}.png`);
  };
  const shot = shotOf(page);

  await page.goto(`${BASE}/`);
  await shot("1-home");
  await page.goto(`${BASE}/locations/houston-heights`);
  await shot("2-clinic");
  await page.getByRole("button", { name: "Book here" }).click();
  await page.getByRole("button", { name: "Select Signature Laser Facial - New Client" }).click();
  await page.getByRole("checkbox", { name: /LED Light Therapy Enhancement/ }).check();
  await page.locator("#options").scrollIntoViewIfNeeded();
  await shot("3-treatment");
  await page.getByRole("group", { name: "Nurse" }).scrollIntoViewIfNeeded();
  await shot("3b-nurse");
  await page.getByRole("button", { name: "Continue to date and time" }).click();
  await shot("4-time");
  await page.getByRole("form", { name: "Open times" }).getByRole("button").first().click();
  await page.getByLabel("First name").fill("Ana");
  await page.getByLabel("Last name").fill("Lopez");
  await page.getByLabel("Email").fill(`ana.${Date.now()}@example.com`);
  await page.getByLabel(/Mobile phone/).fill(`512-555-${String(Date.now()).slice(-4)}`);
  await shot("5-details");
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await shot("6-payment");
  await page.getByRole("button", { name: /Add (a|another) card/ }).click();
  await page.getByLabel("Name on card").fill("Ana Lopez");
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM/YY)").fill("12/30");
  await page.getByLabel("Security code").fill("123");
  await page.getByRole("button", { name: "Save card" }).click();
  await page.getByLabel("Street address").fill("100 Main St");
  await page.getByLabel("City").fill("Houston");
  await page.getByLabel("State").selectOption("TX");
  await page.getByLabel("ZIP code").fill("77008");
  await page.getByRole("checkbox", { name: "I agree to the cancellation policy" }).check();
  await page.getByRole("button", { name: "Book appointment" }).click();
  await page.getByRole("heading", { level: 1, name: "You're booked!" }).waitFor();
  await shot("7-confirmation");

  // A laptop: the treatment step, the nurse picker, the time step and the payment step at 1366 pixels.
  const wide = await browser.newPage({ viewport: { width: 1366, height: 900 }, javaScriptEnabled: false });
  const wideShot = shotOf(wide);
  await wide.goto(`${BASE}/locations/houston-heights`);
  await wide.getByRole("button", { name: "Book here" }).click();
  await wide.getByRole("button", { name: "Select Signature Laser Facial - New Client" }).click();
  await wide.getByRole("checkbox", { name: /LED Light Therapy Enhancement/ }).check();
  // The chosen treatment's card from its top: its picture, then its options.
  await wide.locator("li.chosen").evaluate((card) => card.scrollIntoView({ block: "start" }));
  await wideShot("wide-3-treatment");
  await wide.getByRole("group", { name: "Nurse" }).scrollIntoViewIfNeeded();
  await wideShot("wide-3b-nurse");
  await wide.getByRole("button", { name: "Continue to date and time" }).click();
  await wideShot("wide-4-time");
  await wide.getByRole("form", { name: "Open times" }).getByRole("button").first().click();
  await wide.getByLabel("First name").fill("Ben");
  await wide.getByLabel("Last name").fill("Okafor");
  await wide.getByLabel("Email").fill(`ben.${Date.now()}@example.com`);
  await wide.getByLabel(/Mobile phone/).fill(`713-555-${String(Date.now() + 7).slice(-4)}`);
  await wide.getByRole("button", { name: "Continue to payment" }).click();
  await wideShot("wide-6-payment");
} finally {
  await browser.close();
  server.kill("SIGTERM");
  fs.rmSync(dataDir, { recursive: true, force: true });
}
