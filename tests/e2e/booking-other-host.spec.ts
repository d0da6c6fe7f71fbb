import { APP_PORT } from "../../playwright.config";
import { expect, ONCE, test } from "./fixtures";
import {
  addCard,
  chooseFacialWithAddOn,
  fillBillingAndAgree,
  fillDetails,
  showDate,
  startBooking,
  uniqueEmail,
} from "./helpers";

// The other tests reach the server at localhost; a visitor may use any name for it. The hosted card
// page must be on the name they used, and reached as a page of its own (with JavaScript, not as data).
test.use({ baseURL: `http://127.0.0.1:${APP_PORT}` });

test("at 127.0.0.1, a card is added on the hosted page and the booking is made", ONCE, async ({ page, bookingDay }) => {
  const { clinic, date } = bookingDay();
  await startBooking(page, clinic);
  await chooseFacialWithAddOn(page);
  await (await showDate(page, date)).first().click();
  await fillDetails(page, uniqueEmail("otherhost"));

  await page.getByRole("button", { name: "Add a card" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Add a card" })).toBeVisible();
  expect(new URL(page.url()).host).toBe(`127.0.0.1:${APP_PORT}`);
  await page.getByLabel("Name on card").fill("Ana Lopez");
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM/YY)").fill("12/30");
  await page.getByLabel("Security code").fill("123");
  await page.getByRole("button", { name: "Save card" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeVisible();
  await expect(page.getByRole("radio", { name: /VISA ending 4242/ })).toBeChecked();
  await expect(page.getByText("Your card was not added")).toHaveCount(0);

  // A declined card is told as such on return.
  await addCard(page, "4000 0000 0000 0002");
  await expect(page.getByText("Your card was not added; please try another card.")).toBeVisible();

  await fillBillingAndAgree(page);
  await page.getByRole("button", { name: "Book appointment" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "You're booked!" })).toBeVisible();
  await expect(page.getByRole("definition").filter({ hasText: /^\$\d/ })).toBeVisible();
});
