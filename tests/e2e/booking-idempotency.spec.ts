import { expect, ONCE, test } from "./fixtures";
import { backEndRecordsOf } from "./visits";
import {
  addCard,
  choosePeelWithFaceArea,
  fillBillingAndAgree,
  fillDetails,
  payFormFields,
  showDate,
  uniqueEmail,
} from "./helpers";

test(
  "confirming twice at a prepaid clinic makes one appointment and one charge, and both answers show it",
  ONCE,
  async ({ page, playwright, baseURL, extraHTTPHeaders, sandboxApi, bookingDay }) => {
    const { clinic, date } = bookingDay({ prepaid: true });
    await page.goto(`/locations/${clinic.slug}`);
    // The peel's price at this clinic (its face area is included).
    const peel = page.getByRole("region", { name: "Peels" }).getByRole("listitem").filter({ hasText: "Glow Peel" });
    const price = Number(/\$(\d+)/.exec((await peel.textContent()) ?? "")![1]);
    await page.getByRole("button", { name: "Book here" }).click();
    await choosePeelWithFaceArea(page);
    await (await showDate(page, date)).first().click();
    const email = uniqueEmail("twice");
    await fillDetails(page, email);
    // All of it is due now.
    await expect(page.getByRole("row", { name: /^Due now/ })).toContainText(`$${price}`);
    await addCard(page, "4242 4242 4242 4242");
    await fillBillingAndAgree(page);

    // Two submits of the same form at once, as a double tap without JavaScript sends them: each from
    // the same cookies, and each answer must land on the booking by itself (the browser keeps only
    // the last one it gets).
    const fields = await payFormFields(page);
    const storageState = await page.context().storageState();
    const taps = await Promise.all(
      [0, 1].map(() => playwright.request.newContext({ baseURL, storageState, extraHTTPHeaders })),
    );
    const [first, second] = await Promise.all(
      taps.map((tap) => tap.post("/appointment/payment", { form: { ...fields, intent: "confirm" }, maxRedirects: 0 })),
    );
    expect(first.status()).toBe(302);
    expect(second.status()).toBe(302);
    expect(second.headers().location).toBe(first.headers().location);
    expect(first.headers().location).toMatch(/^\/appointment\/confirmation\/[0-9a-f-]{36}$/);
    for (const tap of taps) {
      const shown = await tap.get(first.headers().location);
      expect(shown.status()).toBe(200);
      expect(await shown.text()).toMatch(/You(&#x27;|')re booked!/);
    }
    // The browser keeps the cookies of the answer that came last.
    await page.context().addCookies((await taps[1].storageState()).cookies);
    await Promise.all(taps.map((tap) => tap.dispose()));

    const { appointments, invoice } = await backEndRecordsOf(sandboxApi, email);
    expect(appointments).toHaveLength(1);
    expect(appointments[0].appointment_services).toHaveLength(2);
    expect(invoice.transactions).toHaveLength(1);
    expect(invoice.invoice_dues).toMatchObject({ total: price, paid: price, balance: 0 });

    await page.goto(first.headers().location);
    await expect(page.getByRole("heading", { level: 1, name: "You're booked!" })).toBeVisible();
  },
);
