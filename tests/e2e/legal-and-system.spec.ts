import { expect, ONCE, test } from "./fixtures";
import { buttonTarget, chooseFacialWithAddOn, startBooking } from "./helpers";
import { BOOKING_COOKIE, looksSealed, SESSION_COOKIE, sessionCookie, tampered } from "./session-cookie";

test.describe("legal pages", () => {
  test("the terms are readable and require the age of majority", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("contentinfo").getByRole("link", { name: "Terms of Use" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Terms of Use");
    await expect(page.getByRole("heading", { name: "1. Who may use the site" })).toBeVisible();
    await expect(page.getByText(/reached the age of majority/).first()).toBeVisible();
    await expect(page.getByText(/\$25 fee/)).toBeVisible();
  });

  test("the privacy policy is linked from every page", async ({ page }) => {
    await page.goto("/locations");
    await page.getByRole("contentinfo").getByRole("link", { name: "Privacy Policy" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Privacy Policy");
    await expect(page.getByRole("heading", { name: "Cookies and your browser" })).toBeVisible();
  });
});

test.describe("error page", () => {
  // The explanations opened by their address run once (`ONCE`, decision 053); the countdowns the
  // visitor starts and stops run in both projects.
  for (const [code, message] of [
    ["duplicate-email", "It looks like you have an account with us. Please click login to continue"],
    ["invalid-email", "The email address you entered is not valid. Please check the email and try again"],
    ["invalid-mobile", "Mobile number you entered is not valid. Please check the number and try again"],
  ] as const) {
    test(`explains ${code} and stays until the visitor goes back to the webstore`, ONCE, async ({ page }) => {
      await page.goto(`/error?error=${code}&redirect=webstore`);
      await expect(page.getByRole("alert")).toHaveText(message);
      await expect(page.getByText("Take your time: this page stays until you go back.")).toBeVisible();
      // Nothing takes the visitor away unless they ask for it (WCAG 2.2.1).
      await expect(page.locator('meta[http-equiv="refresh"]')).toHaveCount(0);
      await expect(page.getByText(/Taking you back in/)).toHaveCount(0);
      expect(await buttonTarget(page.getByRole("button", { name: "Go back" }))).toBe("/");
    });
  }

  test("a countdown the visitor starts takes them back when it ends, without JavaScript too", async ({ page }) => {
    test.setTimeout(20_000);
    await page.goto("/error?error=invalid-email&redirect=webstore");
    await page.getByRole("link", { name: "Take me back in 10 seconds" }).click();
    await expect(page.getByRole("status")).toContainText("Taking you back in");
    await expect(page.locator('meta[http-equiv="refresh"]')).toHaveAttribute("content", "10;url=/");
    await page.waitForURL((url) => url.pathname === "/", { timeout: 15_000 });
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Glowing skin, booked in a minute");
  });

  test("the countdown can be stopped, and the way back is kept", async ({ page }) => {
    await page.goto("/locations?zip=78701");
    await page.goto("/error?error=invalid-mobile&redirect=samesite", {
      referer: new URL("/locations?zip=78701", page.url()).toString(),
    });
    await page.getByRole("link", { name: "Take me back in 10 seconds" }).click();
    await expect(page.locator('meta[http-equiv="refresh"]')).toHaveAttribute("content", "10;url=/locations?zip=78701");
    await page.getByRole("link", { name: "Stop the countdown" }).click();
    await expect(page.getByText("Take your time: this page stays until you go back.")).toBeVisible();
    await expect(page.getByText(/Taking you back in/)).toHaveCount(0);
    // No refresh in the page: nothing will take the visitor away.
    await expect(page.locator('meta[http-equiv="refresh"]')).toHaveCount(0);
    await expect(page.getByRole("alert")).toHaveText(
      "Mobile number you entered is not valid. Please check the number and try again",
    );
    expect(await buttonTarget(page.getByRole("button", { name: "Go back" }))).toBe("/locations?zip=78701");
    // A way back given in the address is followed only to a page of this site.
    await page.goto("/error?error=invalid-email&redirect=samesite&stay=1&back=//evil.example/");
    expect(await buttonTarget(page.getByRole("button", { name: "Go back" }))).toBe("/");
  });

  test("samesite goes back to the page of this site the visitor came from", ONCE, async ({ page }) => {
    await page.goto("/locations?zip=78701");
    await page.goto("/error?error=invalid-mobile&redirect=samesite", {
      referer: new URL("/locations?zip=78701", page.url()).toString(),
    });
    expect(await buttonTarget(page.getByRole("button", { name: "Go back" }))).toBe("/locations?zip=78701");
  });

  test("ignores any other redirect value and foreign referers: never an open redirect", async ({ page }) => {
    await page.goto("/error?error=invalid-email&redirect=https://evil.example/", {
      referer: "https://evil.example/phish",
    });
    expect(await buttonTarget(page.getByRole("button", { name: "Go back" }))).toBe("/");
    await page.getByRole("link", { name: "Take me back in 10 seconds" }).click();
    await expect(page.locator('meta[http-equiv="refresh"]')).toHaveAttribute("content", "10;url=/");
    await page.goto("/error?error=invalid-email&redirect=samesite", { referer: "https://evil.example/phish" });
    expect(await buttonTarget(page.getByRole("button", { name: "Go back" }))).toBe("/");
  });

  test("an unknown code gets a general message and a 400", ONCE, async ({ page }) => {
    const response = await page.goto("/error?error=%3Cscript%3E&redirect=webstore");
    expect(response?.status()).toBe(400);
    await expect(page.getByRole("alert")).toHaveText("Something went wrong, please try again");
  });
});

test.describe("not found", () => {
  for (const path of ["/404", "/no/such/page", "/locations/austin-downtown/extra"]) {
    test(`${path} is a helpful 404`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("We can't find that page");
      await page.getByRole("link", { name: "Find a clinic near you" }).click();
      await expect(page).toHaveURL(/\/locations$/);
    });
  }
});

test.describe("machine pages", ONCE, () => {
  test("robots.txt points at the sitemap", async ({ request }) => {
    const response = await request.get("/robots.txt");
    expect(response.status()).toBe(200);
    const body = await response.text();
    expect(body).toContain("User-agent: *");
    expect(body).toMatch(/Sitemap: http:\/\/.+\/sitemap\.xml/);
  });

  test("sitemap.xml lists every public page", async ({ request }) => {
    const body = await (await request.get("/sitemap.xml")).text();
    const locs = [...body.matchAll(/<loc>([^<]+)<\/loc>/g)].map(
      (m) => new URL(m[1].replace(/&amp;/g, "&")).pathname + new URL(m[1].replace(/&amp;/g, "&")).search,
    );
    expect(locs).toEqual(
      expect.arrayContaining([
        "/",
        "/locations",
        "/locations?view=map",
        "/terms",
        "/privacy",
        "/locations/austin-downtown",
        "/locations/nashville-the-gulch",
      ]),
    );
    expect(locs.filter((l) => l.startsWith("/locations/"))).toHaveLength(15);
  });

  test("healthz answers", async ({ request }) => {
    const response = await request.get("/healthz");
    expect(response.status()).toBe(200);
    expect(await response.json()).toMatchObject({ status: "ok" });
  });
});

test.describe("bad input and headers", () => {
  test("a huge query string gets a clear 414 page", ONCE, async ({ request }) => {
    const response = await request.get(`/locations?zip=${"9".repeat(6000)}`);
    expect(response.status()).toBe(414);
    expect(await response.text()).toContain("That link is too long");
  });

  test("a long but acceptable ZIP value is refused politely", ONCE, async ({ page }) => {
    const response = await page.goto(`/locations?zip=${"1".repeat(500)}`);
    expect(response?.status()).toBe(400);
    await expect(page.getByRole("alert")).toHaveText("Please enter a 5-digit US ZIP code, like 78701.");
  });

  test(
    "a tampered session cookie is an empty session, not an error",
    ONCE,
    async ({ page, context, signedIn, playwright, baseURL, extraHTTPHeaders }) => {
      // A real cookie: signed in, with a booking in progress (a treatment chosen, nothing held).
      await startBooking(page);
      await chooseFacialWithAddOn(page);
      const real = {
        [SESSION_COOKIE]: await sessionCookie(context),
        [BOOKING_COOKIE]: await sessionCookie(context, BOOKING_COOKIE),
      };
      for (const value of Object.values(real)) expect(looksSealed(value), value).toBe(true);
      const changed = (where: "tag" | "ciphertext") =>
        Object.fromEntries(Object.entries(real).map(([name, value]) => [name, tampered(value, where)]));

      /** What the server makes of the cookies, asked by a client that has no others. */
      const sessionOf = async (cookies: Record<string, string>) => {
        const cookie = Object.entries(cookies)
          .map(([name, value]) => `${name}=${value}`)
          .join("; ");
        const client = await playwright.request.newContext({
          baseURL,
          extraHTTPHeaders: { ...extraHTTPHeaders, cookie },
        });
        try {
          const profile = await client.get("/account/profile", { maxRedirects: 0 });
          const booking = await client.get("/appointment/time", { maxRedirects: 0 });
          const locations = await client.get("/locations");
          return {
            signedIn: profile.status() === 200 && (await profile.text()).includes(signedIn.email),
            bookingInProgress: booking.status() === 200,
            statuses: [profile.status(), booking.status(), locations.status()],
          };
        } finally {
          await client.dispose();
        }
      };
      // Unchanged, the cookie is the signed-in user with their booking.
      expect(await sessionOf(real)).toEqual({ signedIn: true, bookingInProgress: true, statuses: [200, 200, 200] });
      // One bit changed, in the GCM tag or in the ciphertext (where the data would still read as valid
      // JSON): nobody signed in, no booking, and no error.
      for (const where of ["tag", "ciphertext"] as const) {
        expect
          .soft(await sessionOf(changed(where)), where)
          .toEqual({ signedIn: false, bookingInProgress: false, statuses: [302, 302, 200] });
      }

      await context.addCookies(
        Object.entries(changed("ciphertext")).map(([name, value]) => ({ name, value, url: baseURL! })),
      );
      const response = await page.goto("/locations");
      expect(response?.status()).toBe(200);
      await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();
    },
  );

  // Public pages from the render cache carry script hashes instead (page-cache.spec.ts, decision 023).
  test("pages rendered per request carry a nonce-based CSP and the security headers", ONCE, async ({ page }) => {
    const response = await page.goto("/login");
    const headers = response!.headers();
    const nonce = /'nonce-([^']+)'/.exec(headers["content-security-policy"])?.[1];
    expect(nonce).toBeTruthy();
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["x-powered-by"]).toBeUndefined();
    const second = await page.request.get("/login");
    expect(/'nonce-([^']+)'/.exec(second.headers()["content-security-policy"])?.[1]).not.toBe(nonce);
  });

  test(
    "static assets are cached for a long time and sent as the build compressed them, and HTML is compressed",
    ONCE,
    async ({ request }) => {
      const html = await (await request.get("/")).text();
      const script = /<link rel="modulepreload" href="([^"]+)"/.exec(html)?.[1];
      expect(script).toMatch(/^\/assets\//);
      const asset = await request.get(script!);
      expect(asset.headers()["cache-control"]).toContain("immutable");
      expect(asset.headers()["cache-control"]).toContain("max-age=31536000");
      // The build's Brotli copy (scripts/compress-client-build.mjs), for a browser that takes Brotli.
      const compressed = await request.get(script!, { headers: { "accept-encoding": "gzip, deflate, br" } });
      expect(compressed.headers()["content-encoding"]).toBe("br");
      expect(await compressed.text()).toBe(await asset.text());
      const page = await request.get("/locations", { headers: { "accept-encoding": "gzip" } });
      expect(page.headers()["content-encoding"]).toBe("gzip");
    },
  );
});

// The tests that run once (`ONCE`) read pages as the server sent them. With JavaScript a page is also
// hydrated, and a mismatch is a browser error that fails the test (decision 053): no other test loads
// these variants with JavaScript, so this one opens each and lets its scripts finish.
test("with JavaScript, the pages the other tests check once hydrate without an error", async ({
  page,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, "the no-JavaScript project checks these pages in the tests they come from");
  for (const [path, heading] of [
    ["/?zip=12ab", "Glowing skin, booked in a minute"],
    ["/locations?zip=59001", "Our locations"],
    ["/error?error=%3Cscript%3E&redirect=webstore", "Something went wrong"],
    ["/memberships?clinic=no-such-clinic", "Memberships"],
    ["/appointment/service?id=00000000-0000-0000-0000-000000000000", "Invalid Clinic Location"],
    ["/refer/NOBODY-2345", "This referral link doesn’t work"],
  ]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1, name: heading, exact: true }), path).toBeVisible();
    // The page's modules have loaded and run: hydration has ended, and a mismatch has been reported.
    await page.waitForLoadState("networkidle");
  }
});
