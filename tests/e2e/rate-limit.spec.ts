import { RATE_LIMITED_PORT } from "../../playwright.config";
import { CLINICS } from "./booking-days";
import { expect, ONCE, test } from "./fixtures";

/**
 * Zenoti allows about 60 calls a minute for the whole organisation. This server's sandbox counts
 * them the same way, per API key; the test spends what is left of the minute with the app's own
 * key, then opens a page that needs a call. The guest must get a clear "busy" page, never a 500.
 * The page is opened by its address and checked as the server sent it, so the test runs once
 * (`ONCE`, decision 053); the outage page, the same component, is loaded with JavaScript in
 * keyboard-and-motion.spec.ts.
 */
test.use({ baseURL: `http://localhost:${RATE_LIMITED_PORT}` });

/** A clinic no other test opens on this server, so no catalog cache answers for it. */
const clinic = CLINICS.find((c) => c.slug === "seattle-capitol-hill")!;

test(
  "a guest at the chain's call limit gets a clear busy page with a retry, not a 500",
  ONCE,
  async ({ page, sandboxApi }) => {
    let status = 0;
    // The minute's bucket may refill between spending it and opening the page: then spend it again.
    for (let attempt = 0; attempt < 3 && status !== 503; attempt++) {
      let answer = await sandboxApi.get("/spa-sandbox/v1/centers");
      for (let calls = 0; answer.status() !== 429 && calls < 70; calls++)
        answer = await sandboxApi.get("/spa-sandbox/v1/centers");
      expect(answer.status()).toBe(429);
      expect(Number(answer.headers()["ratelimit-reset"])).toBeGreaterThan(0);
      expect(answer.headers()["organization-ratelimit-limit"]).toBe("60;w=60;b=60");
      status = (await page.goto(`/appointment/service?id=${clinic.centerId}`))?.status() ?? 0;
    }
    expect(status).toBe(503);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("We're very busy right now");
    await expect(page.getByText("Nothing you chose is lost. Please try again in a minute.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Try again" })).toBeVisible();
  },
);
