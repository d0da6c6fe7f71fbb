import type { APIRequestContext, Page } from "@playwright/test";
import { RECOVERY_CONSENT_LABEL } from "../../app/domain/guest";
import { expect, test } from "./fixtures";
import { chooseFacialWithAddOn, otherClientAddress, showDate, startBooking, uniqueEmail, uniquePhone } from "./helpers";

/**
 * The recovery message for an unfinished booking (decision 059). The main test server sends it as
 * soon as the guest stops (no delay, no night); the pass is run here through its development page,
 * so no test waits for a clock.
 */

/** The recovery messages the outbox holds for this email: their bodies. */
async function recoveryMessages(thisMachine: APIRequestContext, email: string): Promise<string[]> {
  const outbox = await thisMachine.get("/dev/outbox");
  expect(outbox.status()).toBe(200);
  // The list alone: the page's data after it names every message again.
  const html = await outbox.text();
  const list = html.slice(html.indexOf('<ol class="outbox">'), html.indexOf("</ol>"));
  return list
    .split("<li>")
    .filter((item) => item.includes(email) && item.includes("booking-recovery"))
    .map((item) => /<pre>([\s\S]*?)<\/pre>/.exec(item)?.[1] ?? "");
}

async function runThePass(thisMachine: APIRequestContext) {
  const answer = await thisMachine.post("/dev/recovery-messages");
  expect(answer.status()).toBe(200);
}

/** A new guest chooses the facial with its add-on and a time, gives their details and stops at the payment step. */
async function stopAtPayment(page: Page, clinic: { slug: string }, date: string, email: string, consent: boolean) {
  await startBooking(page, clinic);
  await chooseFacialWithAddOn(page);
  await (await showDate(page, date)).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Your details" })).toBeVisible();
  const box = page.getByRole("checkbox", { name: RECOVERY_CONSENT_LABEL });
  await expect(box).not.toBeChecked();
  await page.getByLabel("First name").fill("Ana");
  await page.getByLabel("Last name").fill("Lopez");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel(/Mobile phone/).fill(uniquePhone());
  if (consent) await box.check();
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeVisible();
}

test("a guest who stops with consent gets one message, and its link brings the booking back", async ({
  page,
  browser,
  thisMachine,
  bookingDay,
}) => {
  const { clinic, date } = bookingDay();
  const email = uniqueEmail("recovery");
  await stopAtPayment(page, clinic, date, email, true);

  await runThePass(thisMachine);
  // The server's own pass may have taken the record a moment before and be sending it still.
  await expect.poll(async () => (await recoveryMessages(thisMachine, email)).length).toBeGreaterThan(0);
  await runThePass(thisMachine);
  const messages = await recoveryMessages(thisMachine, email);
  expect(messages).toHaveLength(1);
  expect(messages[0]).toContain("Signature Laser Facial - New Client with LED Light Therapy Enhancement");
  expect(messages[0]).toMatch(/The nearest open times:\n- /);
  const link = new URL(/http\S+\/appointment\/resume\/\S+/.exec(messages[0])![0]);

  // Another browser, as when the message is opened later on a phone.
  const context = await browser.newContext({
    javaScriptEnabled: test.info().project.name !== "no-js",
    extraHTTPHeaders: { "x-forwarded-for": otherClientAddress() },
  });
  const later = await context.newPage();
  try {
    await later.goto(link.pathname);
    await expect(later.getByRole("heading", { level: 1, name: "Pick up where you left off" })).toBeVisible();
    await expect(later.getByText("Signature Laser Facial - New Client", { exact: true })).toBeVisible();
    await expect(later.getByText("LED Light Therapy Enhancement", { exact: true })).toBeVisible();
    await later.getByRole("button", { name: "Continue to date and time" }).click();
    await expect(later.getByRole("heading", { level: 1, name: "Choose a date and time" })).toBeVisible();
    // The treatment and its add-on are the booking's again.
    await later.goto(`/appointment/service?id=${clinic.centerId}`);
    await expect(later.getByRole("checkbox", { name: /LED Light Therapy Enhancement/ })).toBeChecked();

    // A link altered by one character opens nothing and changes nothing.
    const token = link.pathname.split("/").at(-1)!;
    const altered = `${token.slice(0, 5)}${token[5] === "x" ? "y" : "x"}${token.slice(6)}`;
    const forged = await later.goto(`/appointment/resume/${altered}`);
    expect(forged?.status()).toBe(404);
    await expect(later.getByRole("heading", { level: 1, name: "This link can't be used" })).toBeVisible();
  } finally {
    await context.close();
  }
  // Followed: still the one message.
  await runThePass(thisMachine);
  expect(await recoveryMessages(thisMachine, email)).toHaveLength(1);
});

test("a guest who stops without consent gets no message", async ({ page, thisMachine, bookingDay }) => {
  const { clinic, date } = bookingDay();
  const email = uniqueEmail("no-recovery");
  await stopAtPayment(page, clinic, date, email, false);
  await runThePass(thisMachine);
  expect(await recoveryMessages(thisMachine, email)).toEqual([]);
});
