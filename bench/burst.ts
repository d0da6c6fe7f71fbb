// The promotion burst (decision 036): N new guests book at once, through the pages with JavaScript
// off, each from an address of their own, against the sandbox run as a separate back end with
// Zenoti's 60 calls a minute (a token bucket of 60, one call back a second). It prints the bookings
// completed, the 429s the back end answered the app, the guests who lost a time they held, and the
// errors shown mid-booking; a guest told "very busy, try again in N seconds" before anything was held
// for them waits N seconds and tries again, as the page asks, and is counted apart.
//   tsx bench/burst.ts            (the end of `npm run bench`; `npm run bench:burst` builds first)
// BENCH_BURST_GUESTS sets how many guests (default 12); BENCH_BURST_CLINIC the clinic (default houston-heights).
import type { Page } from "@playwright/test";
import fs from "node:fs";
import { startPageBench } from "./page-bench";

const GUESTS = Number(process.env.BENCH_BURST_GUESTS ?? 12);
const CLINIC = process.env.BENCH_BURST_CLINIC ?? "houston-heights";
const APP_PORT = 4331;
const BACKEND_PORT = 4333;

const BUSY_PAGE = "We're very busy right now";
const BUSY_HOLD = /We're very busy right now, so we can't hold .* Please try again in (a|\d+) seconds?/;
const SLOT_TAKEN = "That time was just taken";
const SLOTS_ERROR = "Error while fetching slots";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Outcome = {
  booked: boolean;
  /** Told "very busy, try again in N seconds" before anything was held (the time or details step). */
  toldToWait: number;
  /** A "very busy" page or the slots' error while browsing, before anything was held. */
  busyBeforeHold: number;
  /** Times another guest got first (the time step asks again). */
  taken: number;
  /** Held a time, then was sent back without it. */
  lostHold: boolean;
  /** Anything else shown as an error once the guest had started booking: what it said. */
  errors: string[];
  seconds: number;
};

/** The page's first-level heading, and whether the text is on the page. */
const heading = async (page: Page) =>
  ((await page.locator("h1").first().textContent({ timeout: 10_000 })) ?? "").trim();
const shows = async (page: Page, text: string | RegExp) => (await page.getByText(text).count()) > 0;

/** One new guest's booking, from the clinic page to the confirmation, as a person would persist. */
async function guest(page: Page, index: number): Promise<Outcome> {
  const outcome: Outcome = {
    booked: false,
    toldToWait: 0,
    busyBeforeHold: 0,
    taken: 0,
    lostHold: false,
    errors: [],
    seconds: 0,
  };
  const started = Date.now();
  let retryAfter = 1;
  page.on("response", (response) => {
    if (response.request().isNavigationRequest() && response.frame() === page.mainFrame())
      retryAfter = Number(response.headers()["retry-after"] ?? 1) || 1;
  });

  /** A button that sends a form or goes somewhere, JavaScript off: the next page, loaded. */
  async function press(button: ReturnType<Page["locator"]>) {
    await button.click();
    await page.waitForLoadState("domcontentloaded");
  }

  /** A navigation; a "very busy" page is waited out (Retry-After) and loaded again. */
  async function browse(go: () => Promise<unknown>) {
    await go();
    for (let tries = 0; tries < 30 && (await heading(page)) === BUSY_PAGE; tries++) {
      outcome.busyBeforeHold += 1;
      await sleep(retryAfter * 1000);
      await page.reload();
    }
  }

  await browse(() => page.goto(`${appOrigin}/locations/${CLINIC}`));
  await browse(() => press(page.getByRole("button", { name: "Book here" })));
  await browse(() => press(page.getByRole("button", { name: "Select Signature Laser Facial - New Client" })));
  await browse(() => press(page.getByRole("button", { name: "Continue to date and time" })));

  let choice = index;
  let reachedPayment = false;
  for (let round = 0; round < 40 && !reachedPayment; round++) {
    // The time step: a day with open times, then the guest's own pick among them.
    if (await shows(page, SLOTS_ERROR)) {
      outcome.busyBeforeHold += 1;
      await sleep(2_000);
      await browse(() => press(page.getByRole("button", { name: "Try again" }).first()));
      continue;
    }
    const times = page.getByRole("form", { name: "Open times" }).getByRole("button");
    const strip = page.getByRole("navigation", { name: "Dates" });
    for (let step = 0; step < 30 && (await times.count()) === 0 && !(await shows(page, SLOTS_ERROR)); step++) {
      const days = await strip
        .locator("button[data-date]")
        .evaluateAll((buttons) => buttons.map((b) => (b as HTMLButtonElement).dataset.date!));
      const shown = await strip.locator("button[aria-current]").getAttribute("data-date");
      const next = days[days.indexOf(shown ?? "") + 1];
      await browse(() =>
        press(next ? strip.locator(`button[data-date="${next}"]`) : strip.getByRole("button", { name: "Later days" })),
      );
    }
    const count = await times.count();
    if (count === 0) continue;
    await press(times.nth(choice % count));

    // Told to wait before anything is held: wait as long as the page says, then press the same time again.
    for (let waits = 0; waits < 30; waits++) {
      const told = (await page.locator(".error-summary").allTextContents()).join(" ").match(BUSY_HOLD);
      if (!told) break;
      outcome.toldToWait += 1;
      await sleep((told[1] === "a" ? 1 : Number(told[1])) * 1000);
      await press(page.getByRole("button", { name: /^Try .* again$/ }));
    }
    if (await shows(page, SLOT_TAKEN)) {
      outcome.taken += 1;
      choice += 1;
      continue;
    }
    if ((await heading(page)) === "Payment") {
      reachedPayment = true;
      break;
    }
    if ((await heading(page)) !== "Your details") {
      outcome.errors.push(`time step: ${await heading(page)}`);
      continue;
    }

    // The details step: the guest record and the hold are made here.
    await page.getByLabel("First name").fill("Burst");
    await page.getByLabel("Last name").fill(`Guest${index + 1}`);
    await page.getByLabel("Email").fill(`burst.${Date.now().toString(36)}.${index}@example.com`);
    await page.getByLabel(/Mobile phone/).fill(`713555${String(1000 + index).slice(-4)}`);
    for (let tries = 0; tries < 30; tries++) {
      await press(page.getByRole("button", { name: "Continue to payment" }));
      const told = (await page.locator(".error-summary").allTextContents())
        .join(" ")
        .match(/try again in (a|\d+) seconds?/);
      if (!told || !(await shows(page, "very busy"))) break;
      outcome.toldToWait += 1;
      await sleep((told[1] === "a" ? 1 : Number(told[1])) * 1000);
    }
    if ((await heading(page)) === "Payment") reachedPayment = true;
    else if (await shows(page, SLOT_TAKEN)) {
      outcome.taken += 1;
      choice += 1;
    } else {
      outcome.errors.push(
        `details step: ${(await page.locator(".error-summary").allTextContents()).join(" ") || (await heading(page))}`,
      );
    }
  }
  if (!reachedPayment) {
    outcome.seconds = (Date.now() - started) / 1000;
    return outcome;
  }

  // The payment step: a time is held from here on.
  const lost = () =>
    !page.url().includes("/appointment/payment") &&
    !page.url().includes("/appointment/confirmation") &&
    !page.url().includes("/hosted/");
  for (let tries = 0; tries < 5; tries++) {
    await press(page.getByRole("button", { name: /Add (a|another) card/ }));
    if (await page.getByLabel("Card number").count()) break;
    outcome.errors.push(
      `card page: ${(await page.locator(".error-summary").allTextContents()).join(" ") || (await heading(page))}`,
    );
    if (lost()) break;
  }
  if (lost()) {
    outcome.lostHold = true;
    return { ...outcome, seconds: (Date.now() - started) / 1000 };
  }
  await page.getByLabel("Name on card").fill("Burst Guest");
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM/YY)").fill("12/30");
  await page.getByLabel("Security code").fill("123");
  await press(page.getByRole("button", { name: "Save card" }));
  if ((await heading(page)) !== "Payment") outcome.errors.push(`back from the card page: ${await heading(page)}`);
  await page.getByLabel("Street address").fill("100 Main St");
  await page.getByLabel("City").fill("Houston");
  await page.getByLabel("State").selectOption("TX");
  await page.getByLabel("ZIP code").fill("77008");
  await page.getByRole("checkbox", { name: "I agree to the cancellation policy" }).check();
  for (let tries = 0; tries < 8; tries++) {
    await press(page.getByRole("button", { name: /Book appointment|Pay .* and book/ }));
    if ((await heading(page)) === "You're booked!") {
      outcome.booked = true;
      break;
    }
    if (lost()) {
      outcome.lostHold = true;
      break;
    }
    const said = (await page.locator(".error-summary").allTextContents()).join(" ") || (await heading(page));
    outcome.errors.push(`payment step: ${said}`);
    await sleep(Math.min(30, Number(said.match(/in (\d+) seconds/)?.[1] ?? 5)) * 1000);
    if ((await page.getByRole("checkbox", { name: "I agree to the cancellation policy" }).count()) > 0) {
      await page.getByRole("checkbox", { name: "I agree to the cancellation policy" }).check();
    }
  }
  outcome.seconds = (Date.now() - started) / 1000;
  return outcome;
}

// Zenoti's 60 calls a minute: a token bucket of 60, one call back a second.
const { appOrigin, backendOrigin, browser, stop } = await startPageBench({
  name: "burst",
  appPort: APP_PORT,
  backendPort: BACKEND_PORT,
  rateLimitPerMinute: 60,
});
try {
  // The chain's site as a promotion finds it: the clinic's page and menu read once already.
  await fetch(`${appOrigin}/locations/${CLINIC}`);
  const totalCalls = async () =>
    Object.values((await (await fetch(`${backendOrigin}/__calls`)).json()) as Record<string, number>).reduce(
      (a, b) => a + b,
      0,
    );
  const limitedSoFar = async () =>
    ((await (await fetch(`${backendOrigin}/__limited`)).json()) as { limited: number }).limited;
  const [callsBefore, limitedBefore] = [await totalCalls(), await limitedSoFar()];

  const begun = Date.now();
  const outcomes = await Promise.all(
    Array.from({ length: GUESTS }, async (_, index) => {
      // Each guest from an address of their own, as real guests are: the per-address limits are not what this measures.
      const context = await browser.newContext({
        javaScriptEnabled: false,
        extraHTTPHeaders: { "x-forwarded-for": `10.78.0.${index + 1}` },
      });
      const page = await context.newPage();
      page.setDefaultTimeout(120_000);
      try {
        return await guest(page, index);
      } catch (error) {
        const where = new URL(page.url()).pathname;
        return {
          booked: false,
          toldToWait: 0,
          busyBeforeHold: 0,
          taken: 0,
          lostHold: false,
          errors: [`stopped at ${where}: ${(error as Error).message.split("\n")[0]}`],
          seconds: 0,
        } satisfies Outcome;
      } finally {
        await context.close();
      }
    }),
  );
  const wall = (Date.now() - begun) / 1000;
  const calls = (await totalCalls()) - callsBefore;
  const limited = (await limitedSoFar()) - limitedBefore;

  const sum = (pick: (o: Outcome) => number) => outcomes.reduce((total, o) => total + pick(o), 0);
  const booked = outcomes.filter((o) => o.booked).length;
  const lostHolds = outcomes.filter((o) => o.lostHold).length;
  const errors = sum((o) => o.errors.length);
  console.log(
    `\nBurst: ${GUESTS} new guests booking at once at ${CLINIC}, JavaScript off, against a back end with Zenoti's 60 calls a minute (token bucket, burst 60).`,
  );
  console.table(
    outcomes.map((o, i) => ({
      guest: i + 1,
      booked: o.booked ? "yes" : "no",
      "told to wait": o.toldToWait,
      "busy before hold": o.busyBeforeHold,
      "time taken by another": o.taken,
      "lost hold": o.lostHold ? "yes" : "",
      errors: o.errors.join(" | ").slice(0, 120),
      seconds: o.seconds.toFixed(0),
    })),
  );
  console.log(
    [
      `bookings completed: ${booked} of ${GUESTS} in ${wall.toFixed(0)} s (${((booked / wall) * 60).toFixed(1)} a minute)`,
      `429s seen by the client: ${limited}`,
      `guests who lost a held slot: ${lostHolds} (target 0)`,
      `errors shown mid-booking: ${errors} (target 0)`,
      `told "very busy, try again in N seconds" before holding: ${sum((o) => o.toldToWait)} times; busy pages or slot errors before holding: ${sum((o) => o.busyBeforeHold)}; times taken by another guest: ${sum((o) => o.taken)}`,
      `Zenoti calls: ${calls} (${(calls / Math.max(1, booked)).toFixed(1)} per completed booking)`,
    ].join("\n"),
  );
  if (process.env.BENCH_BURST_JSON)
    fs.writeFileSync(
      process.env.BENCH_BURST_JSON,
      JSON.stringify({ guests: GUESTS, booked, limited, lostHolds, errors, wall, calls }),
    );
} finally {
  await stop();
}
