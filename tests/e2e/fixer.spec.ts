import type { Page } from "@playwright/test";
import { FIXER_NEEDS_FACIAL } from "../../app/domain/downtime";
import { expect, test } from "./fixtures";
import { enterDetails, fillDetails, showDate, uniqueEmail } from "./helpers";

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

test("a new visitor who asks for the fixer alone is told it follows a facial, and no time is held", async ({
  page,
  bookingDay,
}) => {
  const { clinic, date } = bookingDay();
  await page.goto(`/appointment/service?id=${clinic.centerId}`);
  await selectControl(page, "Fixer").click();
  await page.getByRole("button", { name: "Continue to date and time" }).click();
  await (await showDate(page, date)).first().click();
  await enterDetails(page, uniqueEmail("fixer-alone"));
  await expect(page.getByRole("heading", { level: 1, name: "Choose your treatment" })).toBeVisible();
  await expect(page.getByText(FIXER_NEEDS_FACIAL)).toBeVisible();
});
