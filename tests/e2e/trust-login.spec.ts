import { expect, ONCE, test } from "./fixtures";
import { otherClientAddress } from "./helpers";

test(
  "wrong passwords from one address do not lock the owner out of the sign-in form elsewhere",
  ONCE,
  async ({ page, account }) => {
    const { email, password } = account;
    // Someone else, at their own address, guesses six times through the form.
    const attacker = otherClientAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const guess = await page.request.post("/login", {
        form: { email, password: `Wrong!Guess${i}` },
        headers: { "x-forwarded-for": attacker },
        maxRedirects: 0,
      });
      statuses.push(guess.status());
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses[5]).toBe(429);

    // The owner, at this test's own address, signs in with the form.
    await page.goto("/login");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Your profile" })).toBeVisible();
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();

    // The guessing address stays stopped, even with the right password.
    const retry = await page.request.post("/login", {
      form: { email, password },
      headers: { "x-forwarded-for": attacker },
      maxRedirects: 0,
    });
    expect(retry.status()).toBe(429);
  },
);

test("the JSON sign-in follows the same limits as the form", ONCE, async ({ request, account }) => {
  const { email, password } = account;
  const signIn = (guess: string, address: string) =>
    request.post("/api/users/login", { data: { email, password: guess }, headers: { "x-forwarded-for": address } });

  const attacker = otherClientAddress();
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push((await signIn(`Wrong!Guess${i}`, attacker)).status());
  expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  const limited = await signIn(password, attacker);
  expect(limited.status()).toBe(429);
  expect(Number(limited.headers()["retry-after"])).toBeGreaterThan(0);
  expect((await limited.json()).message).toMatch(/^Too many attempts\. Please wait \d+ seconds and try again\.$/);

  const owner = otherClientAddress();
  expect((await signIn(password, owner)).status()).toBe(200);

  // A right password clears that address's count: a typo or two later is not a lockout.
  const forgetful = otherClientAddress();
  for (let i = 0; i < 4; i++) expect((await signIn(`Typo!Pass${i}`, forgetful)).status()).toBe(401);
  expect((await signIn(password, forgetful)).status()).toBe(200);
  for (let i = 0; i < 4; i++) expect((await signIn(`Typo!Again${i}`, forgetful)).status()).toBe(401);
  expect((await signIn(password, forgetful)).status()).toBe(200);
});
