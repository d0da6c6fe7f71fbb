import fs from "node:fs";
import { createLinkSigner } from "../../server/booking/sms-link.server";
import { expect, ONCE, test } from "./fixtures";
import { bookAsNewGuest, chooseFacialWithAddOn, otherClientAddress, showDate, uniqueEmail } from "./helpers";

test(
  "a texted link with a signed guest token skips the details step; an altered one does not",
  ONCE,
  async ({ page, browser, sandboxApi, bookingDay }) => {
    // Two journeys, one of them to a booking: over a minute on a busy machine.
    test.slow();
    // Eight dates one after another: the last is more than a week after the first (Sundays are left out).
    const { clinic, dates } = bookingDay({ days: 8 });
    // A guest who booked before.
    const email = uniqueEmail("texted");
    await bookAsNewGuest(page, clinic, dates[0], email);

    const { guests } = await (
      await sandboxApi.get(`/spa-sandbox/v1/guests/search?email=${encodeURIComponent(email)}`)
    ).json();
    const centerId = clinic.centerId;
    const secret = fs.readFileSync(".e2e-data/session-secret", "utf8").trim();
    const token = createLinkSigner([secret]).sign(guests[0].id, centerId);

    const context = await browser.newContext({
      javaScriptEnabled: test.info().project.name !== "no-js",
      // A visitor elsewhere: without an address of its own it would share loopback's hold limits with other tests.
      extraHTTPHeaders: { "x-forwarded-for": otherClientAddress() },
    });
    const texted = await context.newPage();
    try {
      await texted.goto(`/appointment/service?id=${centerId}&guest=${token.slice(0, -2)}xx`);
      await chooseFacialWithAddOn(texted);
      await (await showDate(texted, dates[1])).first().click();
      await expect(texted.getByRole("heading", { level: 1, name: "Your details" })).toBeVisible();

      await texted.goto(`/appointment/service?id=${centerId}&guest=${token}`);
      // The facial and its add-on are still chosen from the first visit.
      await texted.getByRole("button", { name: "Continue to date and time" }).click();
      // That press keeps the link's guest (a page read keeps nothing, decision 051): wait for it.
      await expect(texted.getByRole("heading", { level: 1, name: "Choose a date and time" })).toBeVisible();
      // The guest is known now, so medical downtime after their facial applies (7 days): the days
      // before dates[6], a week after it, are not offered, and one asked for by the address says why.
      await texted.goto(`/appointment/time?date=${dates[2]}`);
      await expect(
        texted.getByText(
          /^An appointment cannot be taken on the selected date\. It is too soon after your Signature Laser Facial/,
        ),
      ).toBeVisible();
      await expect(
        texted.getByRole("navigation", { name: "Dates" }).locator(`button[data-date="${dates[2]}"]`),
      ).toHaveCount(0);
      await texted.getByRole("link", { name: /^See times on / }).click();
      await (await showDate(texted, dates[7])).first().click();
      await expect(texted.getByRole("heading", { level: 1, name: "Payment" })).toBeVisible();
    } finally {
      await context.close();
    }
  },
);
