// The call budget: books appointments through the pages, as a guest with JavaScript off, against
// the sandbox run as a separate back end, and prints the Zenoti calls each completed booking cost
// (and each page view once the catalog is warm). Zenoti allows about 60 calls a minute for a whole
// organisation, so this is what bounds how many bookings a minute the chain can take.
//   tsx bench/calls.ts            (run by bench/run.mjs after the speed figures; `npm run bench:calls` alone)
// BENCH_BOOKINGS sets how many bookings per kind of clinic (default 3).
import { chromium, type Page } from "@playwright/test";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { EMBEDDED_AVAILABILITY_GUEST_ID } from "../server/embedded-defaults";

const root = path.resolve(import.meta.dirname, "..");
const BOOKINGS = Number(process.env.BENCH_BOOKINGS ?? 3);
const APP_PORT = 4311;
const BACKEND_PORT = 4313;
const API_KEY = "bench-call-budget-key";
/** The budget the issue sets: calls per completed guest booking, and per warm page view. */
const TARGET_PER_BOOKING = 8;

const CLINICS = [
  { slug: "houston-heights", kind: "holds the card" },
  { slug: "dallas-uptown", kind: "takes payment" },
];

function start(command: string, args: string[], env: Record<string, string>): ChildProcess {
  return spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
}

async function waitFor(url: string) {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not come up`);
}

const backendOrigin = `http://127.0.0.1:${BACKEND_PORT}`;
const appOrigin = `http://127.0.0.1:${APP_PORT}`;

async function callCounts(): Promise<Map<string, number>> {
  return new Map(Object.entries((await (await fetch(`${backendOrigin}/__calls`)).json()) as Record<string, number>));
}

function difference(after: Map<string, number>, before: Map<string, number>): Map<string, number> {
  const result = new Map<string, number>();
  for (const [name, count] of after) {
    const delta = count - (before.get(name) ?? 0);
    if (delta > 0) result.set(name, delta);
  }
  return result;
}

const total = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);

let guestNumber = 0;

/** One booking by a new guest, through the pages: treatment, first open time, details, card, book. */
async function book(page: Page, slug: string) {
  guestNumber += 1;
  await page.goto(`${appOrigin}/locations/${slug}`);
  await page.getByRole("button", { name: "Book here" }).click();
  await page.getByRole("button", { name: "Select Signature Laser Facial - New Client" }).click();
  await page.getByRole("button", { name: "Continue to date and time" }).click();
  const times = page.getByRole("form", { name: "Open times" }).getByRole("button");
  // Day after day through the date strip, a week at a time, until one has open times.
  const strip = page.getByRole("navigation", { name: "Dates" });
  for (let step = 0; step < 30 && (await times.count()) === 0; step++) {
    const days = await strip.locator("button[data-date]").evaluateAll((buttons) => buttons.map((b) => (b as HTMLButtonElement).dataset.date!));
    const shown = await strip.locator("button[aria-current]").getAttribute("data-date");
    const next = days[days.indexOf(shown ?? "") + 1];
    await (next ? strip.locator(`button[data-date="${next}"]`) : strip.getByRole("button", { name: "Later days" })).click();
    await page.waitForURL((url) => url.searchParams.get("date") !== shown);
  }
  await times.first().click();
  await page.getByRole("heading", { level: 1, name: "Your details" }).waitFor();
  await page.getByLabel("First name").fill("Bench");
  await page.getByLabel("Last name").fill(`Guest${guestNumber}`);
  await page.getByLabel("Email").fill(`bench.${Date.now().toString(36)}.${guestNumber}@example.com`);
  await page.getByLabel(/Mobile phone/).fill(`512555${String(1000 + guestNumber).slice(-4)}`);
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await page.getByRole("heading", { level: 1, name: "Payment" }).waitFor();
  await page.getByRole("button", { name: /Add (a|another) card/ }).click();
  await page.getByLabel("Name on card").fill("Bench Guest");
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM/YY)").fill("12/30");
  await page.getByLabel("Security code").fill("123");
  await page.getByRole("button", { name: "Save card" }).click();
  await page.getByRole("heading", { level: 1, name: "Payment" }).waitFor();
  await page.getByLabel("Street address").fill("100 Main St");
  await page.getByLabel("City").fill("Houston");
  await page.getByLabel("State").selectOption("TX");
  await page.getByLabel("ZIP code").fill("77008");
  await page.getByRole("checkbox", { name: "I agree to the cancellation policy" }).check();
  await page.getByRole("button", { name: /Book appointment|Pay .* and book/ }).click();
  await page.getByRole("heading", { level: 1, name: "You're booked!" }).waitFor();
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-calls-"));
const backend = start(path.join(root, "node_modules", ".bin", "tsx"), ["bench/zenoti-backend.ts"], {
  BACKEND_PORT: String(BACKEND_PORT), DATA_DIR: path.join(dataDir, "backend"), APP_STORE: path.join(dataDir, "app", "store.sqlite"), SANDBOX_API_KEY: API_KEY,
});
fs.mkdirSync(path.join(dataDir, "app"), { recursive: true });
let app: ChildProcess | null = null;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
try {
  await waitFor(`${backendOrigin}/__calls`);
  app = start("node", ["server.js"], {
    PORT: String(APP_PORT), HOST: "127.0.0.1", DATA_DIR: path.join(dataDir, "app"), LOG_LEVEL: "error",
    SPA_BASE_URL: `${backendOrigin}/spa-sandbox`, SPA_API_KEY: API_KEY, SESSION_SECRETS: "bench-call-budget-secret-0123456789abcdef",
    // The sandbox back end seeds the guest open times are read through (decision 018).
    SPA_AVAILABILITY_GUEST_ID: EMBEDDED_AVAILABILITY_GUEST_ID,
    SMS_WEBHOOK_URL: `${backendOrigin}/__sms`,
  });
  await waitFor(`${appOrigin}/healthz`);

  // Page views once the catalog is warm: each public page once to warm, then counted.
  const pages = ["/", "/locations", "/locations?zip=78701", "/locations/houston-heights", "/locations/dallas-uptown"];
  for (const url of pages) await fetch(appOrigin + url);
  const beforeViews = await callCounts();
  const VIEWS = 5;
  for (let i = 0; i < VIEWS; i++) for (const url of pages) await fetch(appOrigin + url);
  const viewCalls = total(difference(await callCounts(), beforeViews));
  const perView = viewCalls / (VIEWS * pages.length);
  console.log(`\nZenoti calls per public page view, catalog warm: ${perView.toFixed(2)} (target 0).`);
  const summary: { perView: number; perBooking: Record<string, number> } = { perView, perBooking: {} };

  for (const clinic of CLINICS) {
    const perBooking: number[] = [];
    let byCall = new Map<string, number>();
    for (let i = 0; i < BOOKINGS; i++) {
      // Each guest from an address of their own, as real guests are: the per-address hold limits
      // are not what this measures.
      const context = await browser.newContext({ javaScriptEnabled: false, extraHTTPHeaders: { "x-forwarded-for": `10.77.0.${guestNumber + 1}` } });
      const page = await context.newPage();
      const before = await callCounts();
      await book(page, clinic.slug);
      const spent = difference(await callCounts(), before);
      perBooking.push(total(spent));
      for (const [name, count] of spent) byCall.set(name, (byCall.get(name) ?? 0) + count);
      await context.close();
    }
    byCall = new Map([...byCall].sort((a, b) => b[1] - a[1]));
    const mean = perBooking.reduce((a, b) => a + b, 0) / perBooking.length;
    console.log(`\n${clinic.slug} (${clinic.kind}): ${BOOKINGS} guest bookings, Zenoti calls each: ${perBooking.join(", ")}; mean ${mean.toFixed(1)} (target at most ${TARGET_PER_BOOKING}).`);
    console.table([...byCall].map(([call, count]) => ({ call, "per booking": (count / BOOKINGS).toFixed(2) })));
    summary.perBooking[`${clinic.slug} (${clinic.kind})`] = mean;
  }
  // bench/run.mjs runs this bench and puts these figures in its own summary.
  if (process.env.BENCH_CALLS_JSON) fs.writeFileSync(process.env.BENCH_CALLS_JSON, JSON.stringify(summary));
} finally {
  await browser.close();
  app?.kill("SIGTERM");
  backend.kill("SIGTERM");
  fs.rmSync(dataDir, { recursive: true, force: true });
}
