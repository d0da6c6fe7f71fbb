import { MULTI_A_PORT, MULTI_B_PORT } from "../../playwright.config";
import { claimBookingDays } from "./booking-days";
import { expect, ONCE, registerAccount, signIn, test } from "./fixtures";
import { backEndRecordsOf } from "./visits";
import {
  addCard,
  choosePeelWithFaceArea,
  fillBillingAndAgree,
  fillDetails,
  payFormFields,
  otherClientAddress,
  showDate,
  uniqueEmail,
} from "./helpers";

/**
 * Two instances of the app behind one load balancer, as a chain runs it: one store, one back end,
 * one Redis. Whatever instance a request lands on, the limits, the sessions and a booking's
 * idempotency are the same.
 */
const A = `http://localhost:${MULTI_A_PORT}`;
const B = `http://localhost:${MULTI_B_PORT}`;

test.use({ baseURL: A });

test("a sign-in limit counts the attempts made at either instance", ONCE, async ({ playwright }) => {
  const [atA, atB] = await Promise.all([A, B].map((baseURL) => playwright.request.newContext({ baseURL })));
  const { email, password } = await registerAccount(atA);
  const attacker = otherClientAddress();
  const guess = (at: typeof atA, i: number) =>
    at
      .post("/api/users/login", {
        data: { email, password: `Wrong!Guess${i}` },
        headers: { "x-forwarded-for": attacker },
      })
      .then((r) => r.status());
  // Five wrong guesses spread over both instances: the sixth is refused at either one.
  const statuses = [
    await guess(atA, 0),
    await guess(atB, 1),
    await guess(atA, 2),
    await guess(atB, 3),
    await guess(atA, 4),
  ];
  expect(statuses).toEqual([401, 401, 401, 401, 401]);
  expect(await guess(atB, 5)).toBe(429);
  const right = await atA.post("/api/users/login", {
    data: { email, password },
    headers: { "x-forwarded-for": attacker },
  });
  expect(right.status()).toBe(429);
  await Promise.all([atA.dispose(), atB.dispose()]);
});

test("a session made on one instance is valid on the other", ONCE, async ({ playwright, context }) => {
  const atA = await playwright.request.newContext({ baseURL: A });
  const account = await registerAccount(atA);
  // The JSON API's token from A opens the account at B.
  const token = (await (await atA.post("/api/users/login", { data: account })).json()).sessionToken as string;
  const me = await atA.get(`${B}/api/users/me`, { headers: { authorization: `Bearer ${token}` } });
  expect(me.status()).toBe(200);
  expect((await me.json()).user.email).toBe(account.email);
  await atA.dispose();

  // The form's session cookie from A (its cookie is the same on both: they share the secrets).
  await signIn(context.request, account, A);
  const page = await context.newPage();
  await page.goto(`${B}/account/profile`);
  await expect(page.getByRole("heading", { level: 1, name: "Your profile" })).toBeVisible();
  await expect(page.getByText(`Signed in as ${account.email}`)).toBeVisible();
});

test(
  "a confirm sent to both instances at once makes one appointment and one charge",
  ONCE,
  async ({ page, playwright, extraHTTPHeaders, sandboxApi }, testInfo) => {
    const { clinic, date } = claimBookingDays(testInfo, A, { prepaid: true });
    await page.goto(`/locations/${clinic.slug}`);
    await page.getByRole("button", { name: "Book here" }).click();
    await choosePeelWithFaceArea(page);
    await (await showDate(page, date)).first().click();
    const email = uniqueEmail("two-instances");
    await fillDetails(page, email);
    await addCard(page, "4242 4242 4242 4242");
    await fillBillingAndAgree(page);

    // The same submit, with the same cookies, lands on A and on B at the same moment.
    const fields = await payFormFields(page);
    const storageState = await page.context().storageState();
    const taps = await Promise.all(
      [A, B].map((baseURL) =>
        playwright.request.newContext({
          baseURL,
          storageState,
          extraHTTPHeaders: { ...extraHTTPHeaders, origin: baseURL, "sec-fetch-site": "same-origin" },
        }),
      ),
    );
    const answers = await Promise.all(
      taps.map((tap) => tap.post("/appointment/payment", { form: { ...fields, intent: "confirm" }, maxRedirects: 0 })),
    );
    for (const answer of answers) expect(answer.status()).toBe(302);
    const [first, second] = answers.map((answer) => answer.headers().location);
    expect(first).toMatch(/^\/appointment\/confirmation\/[0-9a-f-]{36}$/);
    expect(second).toBe(first);
    for (const tap of taps) {
      const shown = await tap.get(first);
      expect(shown.status()).toBe(200);
      expect(await shown.text()).toMatch(/You(&#x27;|')re booked!/);
    }
    await Promise.all(taps.map((tap) => tap.dispose()));

    const { appointments, invoice } = await backEndRecordsOf(sandboxApi, email);
    expect(appointments).toHaveLength(1);
    expect(invoice.transactions).toHaveLength(1);
    expect(invoice.invoice_dues.balance).toBe(0);
  },
);
