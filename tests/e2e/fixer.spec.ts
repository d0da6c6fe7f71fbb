import type { Page } from "@playwright/test";
import { FIXER_NEEDS_FACIAL } from "../../app/domain/downtime";
import { seedGuid } from "../../server/spa-sandbox/db";
import { HOME_CLINIC } from "./booking-days";
import { expect, ONCE, test } from "./fixtures";
import { fillDetails, showDate, signInAsDemo, uniqueEmail } from "./helpers";

/** "Select <treatment>" on the treatment step. */
function selectControl(page: Page, treatment: string) {
  return page.getByRole("button", { name: `Select ${treatment}`, exact: true });
}

test("the fixer is offered beside a facial, Free as on the clinic page, and booked with it", async ({
  page,
  bookingDay,
}) => {
  const { clinic, date } = bookingDay();
  await page.goto(`/locations/${clinic.slug}`);
  const onClinicPage = page.getByRole("listitem").filter({ has: page.getByText("Fixer", { exact: true }) });
  await expect(onClinicPage).toContainText("Free");
  await page.goto(`/appointment/service?id=${clinic.centerId}`);
  await selectControl(page, "Signature Laser Facial - New Client").click();
  const fixerGroup = page.getByRole("group", { name: /Fixer/ });
  await expect(fixerGroup).toContainText("Free");
  await fixerGroup.getByRole("checkbox", { name: /Fixer/ }).check();
  await page.getByRole("button", { name: "Continue to date and time" }).click();
  await (await showDate(page, date)).first().click();
  await fillDetails(page, uniqueEmail("fixer-with-facial"));
  // The price summary has the fixer as a line of its own.
  await expect(page.getByRole("row", { name: /^Fixer/ })).toBeVisible();
});

test("the Fixer alone is a returning client's: a new visitor is told to add it to a facial", ONCE, async ({ page }) => {
  await page.goto(`/appointment/service?id=${HOME_CLINIC.centerId}`);
  await expect(page.getByRole("region", { name: "Fixer" })).toContainText(FIXER_NEEDS_FACIAL);
  await expect(page.getByRole("button", { name: "Select Fixer", exact: true })).toHaveCount(0);
  // Nor by address: the step shows no options for it, and the bar sums up nothing.
  await page.goto(`/appointment/service?id=${HOME_CLINIC.centerId}&choose=${seedGuid("service:FIXER")}`);
  await expect(page.getByRole("form", { name: /your options/ })).toHaveCount(0);
  await expect(page.getByRole("complementary", { name: "Your booking" })).toHaveCount(0);

  await signInAsDemo(page);
  await page.goto(`/appointment/service?id=${HOME_CLINIC.centerId}`);
  await expect(page.getByRole("button", { name: "Select Fixer", exact: true })).toBeVisible();
  await expect(page.getByText(FIXER_NEEDS_FACIAL)).toHaveCount(0);
});
