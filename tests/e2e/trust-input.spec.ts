import http from "node:http";
import type { Page } from "@playwright/test";
import { E2E_SANDBOX_API_KEY } from "../../playwright.config";
import { HOME_CLINIC } from "./booking-days";
import { expect, ONCE, test } from "./fixtures";
import { chooseFacialWithAddOn, fillRegistration, startBooking, uniqueEmail } from "./helpers";

test.describe("pages only this machine may open", ONCE, () => {
  test("the outbox is not found from elsewhere, and on this machine says who may read it", async ({
    page,
    thisMachine,
  }) => {
    // Every page of these tests comes with an X-Forwarded-For address, like a visitor behind a proxy.
    const remote = await page.goto("/dev/outbox");
    expect(remote?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "We can't find that page" })).toBeVisible();

    const local = await thisMachine.get("/dev/outbox");
    expect(local.status()).toBe(200);
    expect(await local.text()).toContain("This page answers only requests made on this machine");
  });

  test("the sandbox API refuses a forwarded request even with the key; the card page stays open", async ({
    page,
    sandboxApi,
  }) => {
    const forwarded = await page.request.get("/spa-sandbox/v1/centers", {
      headers: { authorization: `apikey ${E2E_SANDBOX_API_KEY}` },
    });
    expect(forwarded.status()).toBe(403);
    expect(await forwarded.json()).toEqual({ error: { code: 403, message: expect.any(String) } });
    expect((await sandboxApi.get("/spa-sandbox/v1/centers")).status()).toBe(200);

    const card = await page.request.get("/spa-sandbox/hosted/card/no-such-token");
    expect(card.status()).toBe(410);
    expect(await card.text()).toContain("This card link has expired");
  });
});

test.describe("odd input gets a 4xx page, never a 500", () => {
  test("impossible dates in booking links", ONCE, async ({ page }) => {
    const service = await page.goto(`/appointment/service?id=${HOME_CLINIC.centerId}&date=2026-13-01`);
    expect(service!.status()).toBeLessThan(500);
    await expect(page.getByRole("heading", { level: 1, name: "Choose your treatment" })).toBeVisible();

    await startBooking(page, HOME_CLINIC);
    await chooseFacialWithAddOn(page);
    const time = await page.goto("/appointment/time?date=2026-12-32");
    expect(time!.status()).toBeLessThan(500);
    await expect(page.getByRole("heading", { level: 1, name: "Choose a date and time" })).toBeVisible();
  });

  for (const path of ["/%", "/login%zz"]) {
    test(`a malformed percent escape in the path (${path})`, ONCE, async ({ page }) => {
      const answer = await page.goto(path);
      expect(answer!.status()).toBe(400);
      await expect(page.getByRole("heading", { level: 1, name: "That link is not valid" })).toBeVisible();
    });
  }

  test(
    "a multipart or empty POST to the sandbox's card page asks for the card again",
    ONCE,
    async ({ page, sandboxApi }) => {
      const centerId = HOME_CLINIC.centerId;
      const guest = await sandboxApi.post("/spa-sandbox/v1/guests", {
        data: {
          center_id: centerId,
          personal_info: {
            first_name: "Card",
            last_name: "Tester",
            email: uniqueEmail("card"),
            mobile_phone: { number: "5125550142" },
          },
        },
      });
      const { id: guestId } = await guest.json();
      const started = await sandboxApi.post(`/spa-sandbox/v1/guests/${guestId}/accounts`, {
        data: { center_id: centerId, redirect_uri: "http://localhost/appointment/payment" },
      });
      const cardPath = new URL((await started.json()).hosted_payment_uri).pathname;

      const multipart = await page.request.post(cardPath, { multipart: { name: "Ana Lopez" } });
      expect(multipart.status()).toBe(400);
      expect(await multipart.text()).toContain("Add a card");
      const empty = await page.request.post(cardPath);
      expect(empty.status()).toBe(400);
      expect(await empty.text()).toContain("Please enter the name on the card.");
    },
  );
});

/**
 * Posts to the app with plain HTTP and resolves with the status of the first answer. With
 * `declaredLength`, only the headers are sent, announcing that many bytes; without it, a chunked
 * body of `chunkedTotal` bytes is sent until the server answers.
 */
function postBig(
  baseURL: string,
  options: { declaredLength?: number; chunkedTotal?: number },
): Promise<{ status: number; bytesSent: number }> {
  const url = new URL("/login", baseURL);
  return new Promise((resolve, reject) => {
    let bytesSent = 0;
    let answered = false;
    const headers: Record<string, string | number> = { "content-type": "application/x-www-form-urlencoded" };
    if (options.declaredLength) headers["content-length"] = options.declaredLength;
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers });
    req.on("response", (res) => {
      answered = true;
      res.resume();
      res.on("end", () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, bytesSent });
      });
    });
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    if (options.declaredLength) {
      req.flushHeaders();
      return;
    }
    const chunk = Buffer.alloc(64 * 1024, "a");
    const writeNext = () => {
      if (answered || req.destroyed) return;
      if (bytesSent >= (options.chunkedTotal ?? 0)) return req.end();
      bytesSent += chunk.length;
      if (req.write(chunk)) setImmediate(writeNext);
      else req.once("drain", writeNext);
    };
    writeNext();
  });
}

test.describe("request bodies are limited before they are read", ONCE, () => {
  test("a 10 MB form gets 413 from its Content-Length, before a byte of it is sent", async ({ baseURL }) => {
    expect(await postBig(baseURL!, { declaredLength: 10 * 1024 * 1024 })).toEqual({ status: 413, bytesSent: 0 });
  });

  test("a chunked body without Content-Length gets 411 long before its end", async ({ baseURL }) => {
    const total = 64 * 1024 * 1024;
    const answer = await postBig(baseURL!, { chunkedTotal: total });
    expect(answer.status).toBe(411);
    expect(answer.bytesSent).toBeLessThan(total);
  });
});

test.describe("redirect targets stay on this site", () => {
  const probes = ["/.//evil.example", "/..//evil.example", "/%2e%2e//evil.example"];

  test("sign-in and registration keep every probe on site, before and after signing in", async ({
    page,
    baseURL,
    account,
  }) => {
    const { email, password } = account;

    // Signed out, the forms carry only a local path on to the sign-in.
    for (const form of ["/login", "/register"]) {
      for (const probe of probes) {
        const html = await (await page.request.get(`${form}?redirectTo=${encodeURIComponent(probe)}`)).text();
        expect(/name="redirectTo" value="([^"]*)"/.exec(html)?.[1]).toBe("/account/profile");
      }
    }

    await page.goto(`/login?redirectTo=${encodeURIComponent(probes[0])}`);
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Your profile" })).toBeVisible();
    expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);

    // Signed in, both pages send the visitor straight on: still to this site.
    for (const form of ["/login", "/register"]) {
      for (const probe of probes) {
        await page.goto(`${form}?redirectTo=${encodeURIComponent(probe)}`);
        await expect(page.getByRole("heading", { level: 1, name: "Your profile" })).toBeVisible();
        expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
      }
    }

    // The form field as a crafted POST would send it, with the right password.
    for (const probe of probes) {
      const login = await page.request.post("/login", {
        form: { email, password, redirectTo: probe },
        maxRedirects: 0,
      });
      expect(login.status()).toBe(302);
      expect(login.headers().location).toBe("/account/profile");
    }
  });
});

test.describe("the sign-up forms' trap for robots", () => {
  /**
   * What a robot does that a person never can: types into the hidden field, or makes up the form's
   * time. The value is written as the form is sent (a listener that runs before the page's own), as
   * React puts a controlled field back to its value whenever the form draws again (hydration ending
   * after the fill, say). Without JavaScript nothing draws again, and no listener runs: the field
   * itself is written.
   */
  async function setHidden(page: Page, name: string, value: string) {
    await page
      .locator(`input[name="${name}"]`)
      .evaluate((input, typed) => ((input as HTMLInputElement).value = typed), value);
    await page.evaluate(
      ([field, typed]) => {
        window.addEventListener(
          "submit",
          (event) => {
            const input = (event.target as HTMLFormElement).querySelector<HTMLInputElement>(`input[name="${field}"]`);
            if (input) input.value = typed;
          },
          { capture: true },
        );
      },
      [name, value] as const,
    );
  }

  test("a registration with the hidden field filled is answered as if it worked, and no account is made", async ({
    page,
  }) => {
    const email = uniqueEmail("robot");
    await fillRegistration(page, email);
    await expect(page.locator('input[name="website"]')).toBeHidden();
    await setHidden(page, "website", "https://spam.example");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();

    // The address is still free: a person registering with it gets an account.
    await fillRegistration(page, email);
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Your profile" })).toBeVisible();
  });

  for (const [what, field, value] of [
    ["the hidden field filled", "website", "https://spam.example"],
    ["a made-up form time", "from__confirm", String(Date.now())],
  ] as const) {
    test(`a reset code asked for with ${what} goes to the next page, and no code is sent`, async ({
      page,
      thisMachine,
      account,
    }) => {
      await page.goto("/forgot-password");
      await page.getByLabel("Email", { exact: true }).fill(account.email);
      await setHidden(page, field, value);
      await page.getByRole("button", { name: "Send me a code" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Set a new password" })).toBeVisible();
      const outbox = await (await thisMachine.get("/dev/outbox")).text();
      expect(outbox.split("<li").some((item) => item.includes(account.email) && item.includes("one-time-code"))).toBe(
        false,
      );
    });
  }
});
