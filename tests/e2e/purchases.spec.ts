import type { Page } from "@playwright/test";
import {
  chooseFacialWithAddOn,
  choosePeelWithFaceArea,
  fillBillingAndAgree,
  saveCardOnCardPage,
  showDate,
  startBooking,
  uniqueEmail,
} from "./helpers";
import { expect, ONCE, test } from "./fixtures";

// Buying a membership, a package and a gift card on the sandbox's hosted card page, with
// JavaScript and without (decision 031). Each test signs in a new account whose home clinic is Austin.

const onCardPage = (page: Page, number: string) => saveCardOnCardPage(page, number, "Mia Rivera");

const thanks = (page: Page) => page.getByRole("heading", { level: 1, name: "Thank you" });

test("a guest joins a membership with a card, sees it in the account, and as a member sees points and member prices while booking", async ({
  page,
  signedIn,
  bookingDay,
}) => {
  expect(signedIn.email).toBeTruthy();
  await page.goto("/memberships?clinic=austin-downtown");
  await page.getByRole("button", { name: "Join Glow Monthly" }).click();
  await onCardPage(page, "4242 4242 4242 4242");
  await expect(thanks(page)).toBeVisible();
  await expect(page.getByText("Your membership is paid: Glow Monthly.")).toBeVisible();
  await expect(page.getByText("$99", { exact: true })).toBeVisible();

  await page.getByRole("link", { name: "See your memberships" }).click();
  const card = page.locator(".visit-card", { has: page.getByRole("heading", { name: "Glow Monthly" }) });
  await expect(card.getByText("Active", { exact: true })).toBeVisible();
  await expect(card.getByText("Renews automatically")).toBeVisible();

  await page.goto("/account");
  const points = page.getByRole("region", { name: "Membership and loyalty points" });
  await expect(points.getByText("Glow Monthly (Active)")).toBeVisible();
  await expect(points.getByText("0 points, worth $0")).toBeVisible();

  const { clinic, date } = bookingDay();
  await startBooking(page, clinic);
  await chooseFacialWithAddOn(page);
  await (await showDate(page, date)).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeVisible();
  await expect(page.getByText("Your Glow Monthly membership gives you member prices.", { exact: false })).toBeVisible();
  // The back end prices a member's visit with the plan's member price; the summary shows it before any charge.
  await expect(page.getByRole("row", { name: /Member price \(Glow Monthly\)/ })).toBeVisible();
});

test("a declined card charges nothing, and another card buys the package, which the account lists with its sessions", async ({
  page,
  signedIn,
}) => {
  expect(signedIn.email).toBeTruthy();
  await page.goto("/packages?clinic=austin-downtown");
  const list = page.getByRole("list", { name: "Packages at Glow Clinic Austin Downtown" });
  await expect(list.getByText(/Save \$\d+ on single visits/).first()).toBeVisible();
  await list.getByRole("button", { name: "Buy Signature Facial Series: 3 sessions" }).click();
  await onCardPage(page, "4000 0000 0000 0002");
  await expect(page.getByRole("heading", { level: 1, name: "Your purchase is not finished" })).toBeVisible();
  await expect(page.getByRole("alert")).toHaveText(
    "Your card was declined, and nothing was charged. Please try another card.",
  );

  await page.getByRole("button", { name: "Try another card" }).click();
  await onCardPage(page, "4242 4242 4242 4242");
  await expect(thanks(page)).toBeVisible();
  await expect(page.getByText("Your package is paid: Signature Facial Series: 3 sessions.")).toBeVisible();

  await page.getByRole("link", { name: "See your packages" }).click();
  const held = page.locator(".visit-card", {
    has: page.getByRole("heading", { name: "Signature Facial Series: 3 sessions" }),
  });
  await expect(held.getByText(/Signature Laser Facial.*: 0 of 3 used, 3 left/)).toBeVisible();
});

test("a card saved but refused when charged leaves the sale unpaid, and says so", ONCE, async ({ page, signedIn }) => {
  expect(signedIn.email).toBeTruthy();
  await page.goto("/packages?clinic=austin-downtown");
  await page.getByRole("button", { name: "Buy Glow Peel Series: 4 sessions" }).click();
  await onCardPage(page, "4000 0000 0000 0341");
  await expect(page.getByRole("alert")).toHaveText(
    "Your card was declined, and nothing was charged. Please try another card.",
  );
  await page.goto("/account/packages");
  await expect(page.getByText("You have no package yet.")).toBeVisible();
});

test("a gift card of any amount is paid, emailed on its day, listed in the account, and its balance checked", async ({
  page,
  signedIn,
  sandboxApi,
}) => {
  expect(signedIn.email).toBeTruthy();
  const recipient = uniqueEmail("gift");
  await page.goto("/gift-cards?clinic=austin-downtown");
  await page.getByRole("radio", { name: "Another amount" }).check();
  await page.getByLabel("Another amount, in dollars").fill("80.50");
  await page.getByRole("radio", { name: "Birthday" }).check();
  await page.getByLabel("Recipient's name").fill("Ana Lopez");
  await page.getByLabel("Recipient's email").fill(recipient);
  await page.getByLabel("Message (optional)").fill("Happy birthday, Ana!");
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await onCardPage(page, "4242 4242 4242 4242");
  await expect(thanks(page)).toBeVisible();
  await expect(page.getByText("Your gift card is paid: $80.50 gift card (Birthday).")).toBeVisible();
  await expect(page.getByText(`We will email the gift card to Ana Lopez at ${recipient}`)).toBeVisible();

  const emails = await (
    await sandboxApi.get(`/spa-sandbox/v1/sandbox/giftcard_emails?email=${encodeURIComponent(recipient)}`)
  ).json();
  expect(emails.emails).toHaveLength(1);
  const number = String(emails.emails[0].number ?? emails.emails[0].card_number);

  await page.getByRole("link", { name: "See your gift cards" }).click();
  const bought = page.getByRole("list", { name: "Gift cards you bought" });
  await expect(bought.getByRole("heading", { name: `$80.50 gift card ending ${number.slice(-4)}` })).toBeVisible();
  // The buyer sees the card's balance now without its full number (the account shows the last four digits).
  const boughtCard = bought.getByRole("listitem").filter({ hasText: `ending ${number.slice(-4)}` });
  await expect(boughtCard.locator("dt", { hasText: "Balance" }).locator("+ dd")).toHaveText("$80.50");
  await expect(boughtCard).not.toContainText(number);

  await page.goto("/gift-cards");
  await page.getByLabel("Gift card number").fill(number);
  await page.getByRole("button", { name: "Check balance" }).click();
  await expect(page.getByRole("status")).toContainText(`Gift card ending ${number.slice(-4)}: $80.50 left of $80.50`);
});

test("bad gift-card input is refused next to each field, with what was typed kept", async ({ page, signedIn }) => {
  expect(signedIn.email).toBeTruthy();
  await page.goto("/gift-cards?clinic=austin-downtown");
  await page.getByRole("radio", { name: "Another amount" }).check();
  await page.getByLabel("Another amount, in dollars").fill("5");
  await page.getByLabel("Recipient's name").fill("Ana Lopez");
  await page.getByLabel("Recipient's email").fill("ana@example.com");
  await page.getByLabel("Send it on").fill("2020-01-01");
  const answer = page.waitForResponse((r) => r.request().method() === "POST");
  await page.getByRole("button", { name: "Continue to payment" }).click();
  expect((await answer).status()).toBe(400);
  await expect(page.getByText("Please enter an amount between $25 and $1,000")).toBeVisible();
  await expect(page.getByText("Please choose today or a later day")).toBeVisible();
  await expect(page.getByLabel("Recipient's name")).toHaveValue("Ana Lopez");
  await expect(page.getByLabel("Another amount, in dollars")).toHaveValue("5");
});

test("a visitor who is not signed in is asked to sign in before buying", ONCE, async ({ page }) => {
  await page.goto("/memberships?clinic=austin-downtown");
  await page.getByRole("button", { name: "Join Glow Monthly" }).click();
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fmemberships%3Fclinic%3Daustin-downtown/);
  await expect(page.getByText("Please sign in or create an account to buy online")).toBeVisible();
});

test("a visitor who picks the clinic on the gift-card page gets its defaults, and is asked to sign in to pay", async ({
  page,
}) => {
  await page.goto("/gift-cards");
  await page.getByRole("combobox", { name: "Clinic" }).selectOption({ label: "Glow Clinic Austin Downtown" });
  await page.getByRole("button", { name: "Show gift cards" }).click();
  // The form is the chosen clinic's, with its design and today already filled in.
  await expect(page.getByRole("radio", { name: "Birthday" })).toBeChecked();
  await expect(page.getByLabel("Send it on")).not.toHaveValue("");
  await page.getByLabel("Recipient's name").fill("Ana Lopez");
  await page.getByLabel("Recipient's email").fill("ana@example.com");
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fgift-cards%3Fclinic%3Daustin-downtown/);
  await expect(page.getByText("Please sign in or create an account to buy online")).toBeVisible();
});

test("a tampered price is refused with the clinic's price, and a double submit is one purchase", async ({
  page,
  signedIn,
}) => {
  expect(signedIn.email).toBeTruthy();
  await page.goto("/memberships?clinic=austin-downtown");
  const form = page.locator("form.buy-form").first();
  const itemId = await form.locator('input[name="itemId"]').inputValue();
  const price = Number(await form.locator('input[name="price"]').inputValue());
  const key = await form.locator('input[name="purchaseKey"]').inputValue();
  const post = (fields: Record<string, string>) =>
    page.request.post("/memberships?clinic=austin-downtown", {
      form: { clinic: "austin-downtown", itemId, purchaseKey: key, ...fields },
      maxRedirects: 0,
    });

  const tampered = await post({ price: String(price - 5000) });
  expect(tampered.status()).toBe(409);

  const first = await post({ price: String(price) });
  const second = await post({ price: String(price) });
  expect(first.status()).toBe(302);
  expect(first.headers()["location"]).toContain("/hosted/card/");
  expect(second.status()).toBe(302);
  expect(second.headers()["location"]).toMatch(/\/purchases\/[0-9a-f-]{36}$/);
});

test("a package bought online pays for the treatment it covers when booking, and the session is counted", async ({
  page,
  signedIn,
  bookingDay,
}) => {
  expect(signedIn.email).toBeTruthy();
  const { clinic, date } = bookingDay({ prepaid: true });
  await page.goto(`/packages?clinic=${clinic.slug}`);
  await page.getByRole("button", { name: "Buy Glow Peel Series: 4 sessions" }).click();
  await onCardPage(page, "4242 4242 4242 4242");
  await expect(thanks(page)).toBeVisible();

  await startBooking(page, clinic);
  await expect(page.getByText("4 sessions left in Glow Peel Series: 4 sessions")).toBeVisible();
  await choosePeelWithFaceArea(page);
  await (await showDate(page, date)).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeVisible();
  // The session is the booking's from the treatment step on; the guest may still pay instead, and change their mind.
  await expect(page.getByRole("row", { name: /Paid by your package \(Glow Peel Series: 4 sessions\)/ })).toBeVisible();
  await page.getByRole("button", { name: "Pay for it instead" }).click();
  await expect(
    page.getByText("You have 4 sessions of Glow Peel Series: 4 sessions left for this treatment."),
  ).toBeVisible();
  await page.getByRole("button", { name: "Use a package session" }).click();
  await expect(page.getByRole("row", { name: /Paid by your package \(Glow Peel Series: 4 sessions\)/ })).toBeVisible();
  await expect(page.getByRole("radio", { name: /VISA ending 4242/ })).toBeChecked();
  await fillBillingAndAgree(page);
  await page.getByRole("button", { name: "Pay $0 and book" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "You're booked!" })).toBeVisible();

  await page.goto("/account/packages");
  const held = page.locator(".visit-card", {
    has: page.getByRole("heading", { name: "Glow Peel Series: 4 sessions" }),
  });
  await expect(held.getByText("Glow Peel: 1 of 4 used, 3 left")).toBeVisible();
});

test("a new client who buys the facial series books its returning-client facial with a session, pays nothing for it, and sees one amount everywhere", async ({
  page,
  signedIn,
  bookingDay,
}) => {
  expect(signedIn.email).toBeTruthy();
  const { clinic, date } = bookingDay({ prepaid: true });
  await page.goto(`/packages?clinic=${clinic.slug}`);
  await page.getByRole("button", { name: "Buy Signature Facial Series: 3 sessions" }).click();
  await onCardPage(page, "4242 4242 4242 4242");
  await expect(thanks(page)).toBeVisible();

  await startBooking(page, clinic);
  // A new client sees the new-client facial, and the returning one their package pays for.
  await expect(page.getByRole("button", { name: "Select Signature Laser Facial - New Client" })).toBeVisible();
  const covered = page.locator("li", {
    has: page.getByRole("button", { name: "Select Signature Laser Facial", exact: true }),
  });
  await expect(covered.getByText("3 sessions left in Signature Facial Series: 3 sessions")).toBeVisible();
  await expect(covered.getByText("In your package")).toBeVisible();
  await covered.getByRole("button", { name: "Select Signature Laser Facial", exact: true }).click();
  await page.getByRole("button", { name: "Continue to date and time" }).click();
  await (await showDate(page, date)).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeVisible();
  await expect(
    page.getByRole("row", { name: /Paid by your package \(Signature Facial Series: 3 sessions\)/ }),
  ).toBeVisible();
  // A returning client's treatment is not sold to a new client at its price: the package pays, or they choose the new-client one.
  await expect(page.getByRole("button", { name: "Pay for it instead" })).toHaveCount(0);
  await expect(page.getByRole("row", { name: "Total $0" })).toBeVisible();
  // The booking bar says the same amount, the treatment's price struck through.
  await expect(page.getByRole("complementary", { name: "Your booking" }).locator(".summary-price dd")).toHaveText(
    /^was \$\d+ \$0$/,
  );
  await expect(page.getByRole("radio", { name: /VISA ending 4242/ })).toBeChecked();
  await fillBillingAndAgree(page);
  await page.getByRole("button", { name: "Pay $0 and book" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "You're booked!" })).toBeVisible();

  await page.goto("/account/packages");
  const held = page.locator(".visit-card", {
    has: page.getByRole("heading", { name: "Signature Facial Series: 3 sessions" }),
  });
  await expect(held.getByText(/Signature Laser Facial.*: 1 of 3 used, 2 left/)).toBeVisible();
});

test(
  "gift-card balances are checked a few times per address, then refused next to the field with the number kept",
  ONCE,
  async ({ page }) => {
    await page.goto("/gift-cards");
    const check = async () => {
      const answer = page.waitForResponse((r) => r.request().method() === "POST");
      await page.getByLabel("Gift card number").fill("1234 5678 9012");
      await page.getByRole("button", { name: "Check balance" }).click();
      return (await answer).status();
    };
    for (let i = 0; i < 10; i++) expect(await check()).toBe(404);
    expect(await check()).toBe(429);
    await expect(page.getByText(/Too many balance checks\. Please wait \d+ minutes? and try again\./)).toBeVisible();
    await expect(page.getByLabel("Gift card number")).toHaveValue("1234 5678 9012");
  },
);
