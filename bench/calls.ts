// The call budget: books appointments through the pages, as a guest with JavaScript off, against
// the sandbox run as a separate back end, and prints the Zenoti calls each completed booking cost
// (and each page view once the catalog is warm). Zenoti allows about 60 calls a minute for a whole
// organisation, so this is what bounds how many bookings a minute the chain can take.
//   tsx bench/calls.ts            (run by bench/run.mjs after the speed figures; `npm run bench:calls` alone)
// BENCH_BOOKINGS sets how many bookings per kind of clinic (default 3).
import type { Page } from "@playwright/test";
import fs from "node:fs";
import { startPageBench } from "./page-bench";

const BOOKINGS = Number(process.env.BENCH_BOOKINGS ?? 3);
const APP_PORT = 4311;
const BACKEND_PORT = 4313;
/** The budget the issue sets: calls per completed guest booking, and per warm page view. */
const TARGET_PER_BOOKING = 8;

const CLINICS = [
  { slug: "houston-heights", kind: "holds the card" },
  { slug: "dallas-uptown", kind: "takes payment" },
];

const { appOrigin, backendOrigin, browser, stop } = await startPageBench({
  name: "calls",
  appPort: APP_PORT,
  backendPort: BACKEND_PORT,
});

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
    const days = await strip
      .locator("button[data-date]")
      .evaluateAll((buttons) => buttons.map((b) => (b as HTMLButtonElement).dataset.date!));
    const shown = await strip.locator("button[aria-current]").getAttribute("data-date");
    const next = days[days.indexOf(shown ?? "") + 1];
    await (next
      ? strip.locator(`button[data-date="${next}"]`)
      : strip.getByRole("button", { name: "Later days" })
    ).click();
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

try {
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
      const context = await browser.newContext({
        javaScriptEnabled: false,
        extraHTTPHeaders: { "x-forwarded-for": `10.77.0.${guestNumber + 1}` },
      });
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
    console.log(
      `\n${clinic.slug} (${clinic.kind}): ${BOOKINGS} guest bookings, Zenoti calls each: ${perBooking.join(", ")}; mean ${mean.toFixed(1)} (target at most ${TARGET_PER_BOOKING}).`,
    );
    console.table([...byCall].map(([call, count]) => ({ call, "per booking": (count / BOOKINGS).toFixed(2) })));
    summary.perBooking[`${clinic.slug} (${clinic.kind})`] = mean;
  }
  // bench/run.mjs runs this bench and puts these figures in its own summary.
  if (process.env.BENCH_CALLS_JSON) fs.writeFileSync(process.env.BENCH_CALLS_JSON, JSON.stringify(summary));
} finally {
  await stop();
}
