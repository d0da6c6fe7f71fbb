import { expect, test } from "./fixtures";
import {
  addCard,
  buttonTarget,
  chooseFacialWithAddOn,
  clockMinutes,
  fillBillingAndAgree,
  fillDetails,
  openPromoCode,
  icsInstant,
  showDate,
  startBooking,
  uniqueEmail,
} from "./helpers";

test("a new client books a facial with an add-on, a promo code and the test card", async ({ page, bookingDay }) => {
  // At list prices: the facial is $275 and the LED add-on $50.
  const { clinic, date } = bookingDay({ listPrices: true });
  await startBooking(page, clinic);
  await chooseFacialWithAddOn(page);
  const times = await showDate(page, date);
  await expect(times.first()).toBeVisible();
  await times.first().click();

  // Not held yet: a new client's time is held once their details say whose it is.
  await expect(
    page.getByText(/Your time: \w{3} \w{3} \d{1,2} @ \d{1,2}:\d{2} (AM|PM)\. We hold it for you when you continue/),
  ).toBeVisible();
  await expect(page.getByText(/is on hold for the next/)).toHaveCount(0);
  await fillDetails(page, uniqueEmail("booker"));
  await expect(page.getByRole("status").filter({ hasText: "is on hold for the next" })).toContainText(
    /Your previously selected slot, \w{3} \w{3} \d{1,2} @ \d{1,2}:\d{2} (AM|PM), is on hold for the next \d+ minutes/,
  );

  const summary = page.getByRole("region", { name: "Price summary" });
  await expect(summary.getByRole("row", { name: /^Total/ })).toContainText("$325");
  await openPromoCode(page);
  await page.getByLabel("Promo code").fill("welcome10");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("WELCOME10 applied.")).toBeVisible();
  await expect(summary.getByRole("row", { name: /^Total/ })).toContainText("$292.50");
  await expect(summary.getByRole("row", { name: /^Due in clinic/ })).toContainText("$292.50");
  // One amount: the booking bar says the total, and the promo is taken off once, on a row of its own.
  await expect(page.getByRole("complementary", { name: "Your booking" }).locator(".summary-price dd")).toHaveText(
    "was $325 $292.50",
  );
  await expect(summary.getByRole("row", { name: /^Promo code WELCOME10/ })).toContainText("−$32.50");
  await expect(summary.locator("s")).toHaveCount(0);

  await addCard(page, "4242 4242 4242 4242");
  await expect(page.getByRole("radio", { name: /VISA ending 4242/ })).toBeChecked();
  await fillBillingAndAgree(page);
  await page.getByRole("button", { name: "Book appointment" }).click();

  await expect(page.getByRole("heading", { level: 1, name: "You're booked!" })).toBeVisible();
  await expect(page.getByText("Signature Laser Facial - New Client")).toBeVisible();
  await expect(page.getByText("LED Light Therapy Enhancement")).toBeVisible();
  await expect(page.getByRole("button", { name: "View dashboard" })).toBeVisible();
  // The nurse the clinic gave the visit is named.
  await expect(page.getByRole("term").filter({ hasText: /^Nurse$/ })).toBeVisible();
  // The reference the clinic knows the booking by: its invoice number.
  await expect(page.getByRole("term").filter({ hasText: /^Booking reference$/ })).toBeVisible();
  await expect(page.getByRole("definition").filter({ hasText: /^[A-Z]{3}\d+$/ })).toBeVisible();
  const addToCalendar = page.getByRole("button", { name: "Add to calendar" });
  const ics = await page.request.get(await buttonTarget(addToCalendar));
  expect(ics.headers()["content-type"]).toContain("text/calendar");
  expect(ics.headers()["content-disposition"]).toMatch(/^attachment/);
  // The button saves the file, and the confirmation stays on screen.
  const download = page.waitForEvent("download");
  await addToCalendar.click();
  expect((await download).suggestedFilename()).toBe("glow-clinic-appointment.ics");
  await expect(page.getByRole("heading", { level: 1, name: "You're booked!" })).toBeVisible();
  // Long lines are folded (RFC 5545): unfolded to read.
  const calendar = (await ics.text()).replace(/\r\n[ \t]/g, "");
  expect(calendar).toContain(
    `SUMMARY:Signature Laser Facial - New Client\\, LED Light Therapy Enhancement at ${clinic.name}`,
  );
  // The visit lasts its services' durations, 45 and 15 minutes: on the page and in the calendar.
  const [, from, to] = /(\d{1,2}:\d{2} [AP]M) to (\d{1,2}:\d{2} [AP]M)/.exec(
    (await page.getByText(/ to \d{1,2}:\d{2} [AP]M/).textContent()) ?? "",
  )!;
  expect(clockMinutes(to) - clockMinutes(from)).toBe(60);
  expect(icsInstant(calendar, "DTEND") - icsInstant(calendar, "DTSTART")).toBe(60 * 60_000);
});

test("payment problems are named next to their fields, and input is kept", async ({ page, bookingDay }) => {
  const { clinic, date } = bookingDay();
  await startBooking(page, clinic);
  await chooseFacialWithAddOn(page);
  await (await showDate(page, date)).first().click();
  await fillDetails(page, uniqueEmail("fields"));
  await page.getByLabel("Street address").fill("100 Main St");
  await page.getByRole("button", { name: "Book appointment" }).click();
  await expect(page.getByText("Please add a credit card to continue booking")).toBeVisible();
  await expect(page.getByText("Please add a billing address to continue")).toBeVisible();
  await expect(page.getByText("Please select state")).toBeVisible();
  await expect(page.getByText("Please agree to the cancellation policy")).toBeVisible();
  await expect(page.getByLabel("Street address")).toHaveValue("100 Main St");
  await openPromoCode(page);
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("Promo Code cannot be empty")).toBeVisible();
  await page.getByLabel("Promo code").fill("NOPE");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("Invalid Promo Code")).toBeVisible();
  await page.getByLabel("Promo code").fill("SUMMER15");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("promo not available for the selected date")).toBeVisible();
  await page.getByLabel("Promo code").fill("FIXERFREE");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("Promo code FIXERFREE cannot be applied")).toBeVisible();
});
