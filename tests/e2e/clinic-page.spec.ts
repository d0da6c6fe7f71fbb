import { expect, ONCE, test } from "./fixtures";
import { buttonTarget } from "./helpers";

// Each page here is opened by its address and checked as the server sent it, so these run once (`ONCE`,
// decision 053): with JavaScript, hydration leaves the same document, and every booking that starts at a
// clinic page loads one with it. The 404 below, which follows its link, runs in both projects.

test("a clinic page shows address, hours in the clinic's time zone, prices and nurses", ONCE, async ({ page }) => {
  await page.goto("/locations/austin-downtown");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Glow Clinic Austin Downtown");
  await expect(page.getByText("301 Congress Ave, Suite 120")).toBeVisible();
  const hours = page.getByRole("table");
  await expect(hours.getByRole("caption")).toHaveText("Times in Central Time");
  await expect(hours.getByRole("row", { name: /Mon–Wed/ })).toContainText("9:00 AM – 7:00 PM");
  await expect(hours.getByRole("row", { name: /Sun/ })).toContainText("Closed");
  const facials = page.getByRole("region", { name: "Facials" });
  await expect(facials.getByRole("listitem").filter({ hasText: "Signature Laser Facial - New Client" })).toContainText(
    "$275",
  );
  await expect(page.getByRole("region", { name: "Laser Hair Removal" })).toContainText("per area");
  await expect(page.getByRole("region", { name: "Enhancements" })).toContainText("Dermaplaning Enhancement");
  await expect(page.getByRole("region", { name: "Our nurses" }).getByRole("listitem")).toHaveCount(4);
  expect(await buttonTarget(page.getByRole("button", { name: "Book here" }))).toMatch(
    /^\/appointment\/service\?id=[0-9a-f-]{36}$/,
  );
});

test("a clinic page carries what search engines read", ONCE, async ({ page }) => {
  await page.goto("/locations/new-york-flatiron");
  await expect(page).toHaveTitle("Glow Clinic New York Flatiron | Laser facials in New York, NY");
  await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /21 W 23rd St/);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/locations\/new-york-flatiron$/);
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", /Glow Clinic New York Flatiron/);
  await expect(page.locator('meta[property="og:url"]')).toHaveAttribute("content", /\/locations\/new-york-flatiron$/);
  const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}");
  expect(jsonLd).toMatchObject({
    "@context": "https://schema.org",
    "@type": "MedicalClinic",
    name: "Glow Clinic New York Flatiron",
    address: { addressLocality: "New York", addressRegion: "NY", postalCode: "10010" },
    geo: { latitude: 40.742, longitude: -73.9913 },
  });
  expect(jsonLd.openingHoursSpecification).toHaveLength(6);
});

test("an unknown clinic gets a helpful 404", async ({ page }) => {
  const response = await page.goto("/locations/atlantis");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("We can't find that clinic");
  await page.getByRole("button", { name: "See all locations" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Our locations");
});

test("every clinic in the list has a working page", ONCE, async ({ page, request }) => {
  await page.goto("/locations");
  const links = await page
    .getByRole("link", { name: "Clinic details" })
    .evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  expect(links).toHaveLength(15);
  for (const link of links) {
    const response = await request.get(link!);
    expect(response.status(), link!).toBe(200);
  }
});

/** Whether a seed clinic (server/spa-sandbox/seed-data.ts) is open at this moment in `timeZone`. */
function seedClinicOpenAt(now: Date, timeZone: string): boolean {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      weekday: "short",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  const clock = `${parts.hour}:${parts.minute}`;
  const hours: Record<string, [string, string] | null> = {
    Sun: null,
    Mon: ["09:00", "19:00"],
    Tue: ["09:00", "19:00"],
    Wed: ["09:00", "19:00"],
    Thu: ["09:00", "20:00"],
    Fri: ["09:00", "18:00"],
    Sat: ["10:00", "16:00"],
  };
  const day = hours[parts.weekday];
  return Boolean(day && clock >= day[0] && clock < day[1]);
}

for (const { slug, zone, label } of [
  { slug: "new-york-flatiron", zone: "America/New_York", label: "Eastern Time" },
  { slug: "denver-cherry-creek", zone: "America/Denver", label: "Mountain Time" },
  { slug: "phoenix-biltmore", zone: "America/Phoenix", label: "Mountain Standard Time" },
  { slug: "los-angeles-west-hollywood", zone: "America/Los_Angeles", label: "Pacific Time" },
]) {
  test(
    `${slug} shows its hours in its own time zone (${zone}), and whether it is open by its own clock`,
    ONCE,
    async ({ page }) => {
      const before = seedClinicOpenAt(new Date(), zone);
      await page.goto(`/locations/${slug}`);
      const after = seedClinicOpenAt(new Date(), zone);
      const hours = page.getByRole("table");
      await expect(hours.getByRole("caption")).toHaveText(`Times in ${label}`);
      // The back end's wall-clock hours, shown as they are: 9:00 AM there, whatever the zone.
      await expect(hours.getByRole("row", { name: /Mon–Wed/ })).toContainText("9:00 AM – 7:00 PM");
      await expect(hours.getByRole("row", { name: /Sat/ })).toContainText("10:00 AM – 4:00 PM");
      // Open or closed by the clinic's clock; skipped only when the page loaded across an opening or closing.
      if (before === after)
        await expect(page.getByText(before ? "Open now" : "Closed now", { exact: true })).toBeVisible();
    },
  );
}

test(
  "a clinic page leads with the clinic's picture and shows each nurse's, sized before they load",
  ONCE,
  async ({ page }) => {
    await page.goto("/locations/austin-downtown");
    // No picture of the chain's own is configured here: our drawing, asked for at once as the page's main picture.
    const picture = page.locator("img.clinic-image");
    await expect(picture).toHaveAttribute("src", "/images/clinic.svg");
    await expect(picture).toHaveAttribute("alt", "");
    await expect(picture).toHaveAttribute("width", "480");
    await expect(picture).toHaveAttribute("height", "240");
    await expect(picture).toHaveAttribute("fetchpriority", "high");
    await expect
      .poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    const nurses = page.getByRole("region", { name: "Our nurses" }).locator("img");
    await expect(nurses).toHaveCount(4);
    await expect(nurses.first()).toHaveAttribute("loading", "lazy");
  },
);

test(
  "the first clinic card's picture loads at once on the home page and the clinic list, the others lazily",
  ONCE,
  async ({ page }) => {
    for (const path of ["/", "/locations"]) {
      await page.goto(path);
      const pictures = page.locator("img.location-image");
      await expect(pictures.first()).toHaveAttribute("loading", "eager");
      await expect(pictures.first()).toHaveAttribute("fetchpriority", "high");
      await expect(pictures.nth(1)).toHaveAttribute("loading", "lazy");
    }
  },
);
