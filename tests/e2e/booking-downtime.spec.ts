import { expect, ONCE, test } from "./fixtures";
import { chooseFacialWithAddOn, shownDate, startBooking } from "./helpers";
import { bookVisitInBackEnd, guestIdOf } from "./visits";

/** "Tuesday, December 1" and "Tue Dec 1", as the time step writes a day. */
const longDay = (date: string) =>
  new Date(`${date}T12:00:00Z`).toLocaleDateString("en-US", {
    weekday: "long",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
  });
const shortDay = (date: string) => {
  const day = new Date(`${date}T12:00:00Z`);
  const part = (options: Intl.DateTimeFormatOptions) =>
    day.toLocaleDateString("en-US", { ...options, timeZone: "UTC" });
  return `${part({ weekday: "short" })} ${part({ month: "short" })} ${part({ day: "numeric" })}`;
};
const daysApart = (a: string, b: string) =>
  Math.abs(Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / 86_400_000;

test(
  "a guest whom medical downtime keeps from some days is never offered them, and is told why and from when",
  ONCE,
  async ({ page, signedIn, sandboxApi, bookingDay }) => {
    // A visit made in the back end, then the journey to a held time: over a minute on a busy machine.
    test.slow();
    // Eight dates one after another (Sundays left out): dates[6] is a week after dates[0].
    const { clinic, dates } = bookingDay({ days: 8 });
    const visitDay = dates[0];
    const guestId = await guestIdOf(sandboxApi, signedIn.email);
    await bookVisitInBackEnd(sandboxApi, { guestId, clinic, date: visitDay });
    // A facial keeps a facial 7 days away on either side: every day fewer than 7 days from the visit is refused.
    const refused = (date: string) => daysApart(date, visitDay) < 7;
    const firstPossible = dates[6];

    await startBooking(page, clinic);
    await chooseFacialWithAddOn(page);
    // The step opens on a day that can be booked.
    expect(refused(await shownDate(page))).toBe(false);

    // A bad date in the address is refused plainly, never a server error.
    const bad = await page.goto("/appointment/time?date=2026-13-45");
    expect(bad?.status()).toBe(400);
    await expect(page.getByRole("alert").filter({ hasText: "Please correct the errors below." })).toBeVisible();
    await expect(page.getByText("Please enter a real date: year, month and day.")).toBeVisible();

    // A refused day asked for by the address: its reason and the first possible date, no times.
    const asked = dates[2];
    const answer = await page.goto(`/appointment/time?date=${asked}`);
    expect(answer?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 2, name: longDay(asked), exact: true })).toBeVisible();
    await expect(
      page.getByText(
        `An appointment cannot be taken on the selected date. It is too soon after your Signature Laser Facial on ${longDay(visitDay)}; the first possible date is ${longDay(firstPossible)}.`,
      ),
    ).toBeVisible();
    await expect(page.getByRole("form", { name: "Open times" })).toHaveCount(0);

    // In the strip a refused day is no control, and says why in words; every other day is one press.
    const strip = page.getByRole("navigation", { name: "Dates" });
    const days = await strip.locator("[data-date]").evaluateAll((items) =>
      items.map((item) => ({
        date: (item as HTMLElement).dataset.date!,
        tag: item.tagName,
        text: item.textContent ?? "",
      })),
    );
    expect(days.map((d) => d.date)).toContain(asked);
    for (const day of days) {
      if (refused(day.date)) {
        expect(day.tag, day.date).toBe("SPAN");
        expect(day.text, day.date).toMatch(day.date > visitDay ? /Too soon/ : /Too close/);
        // Read with the day: why it cannot be booked, and from when.
        expect(day.text, day.date).toContain(
          `cannot be booked: Too soon after your Signature Laser Facial on ${shortDay(visitDay)}: from ${shortDay(firstPossible)}`,
        );
      } else {
        expect(day.tag, day.date).toBe("BUTTON");
      }
    }
    await expect(
      strip.getByText(
        `Not bookable: Too soon after your Signature Laser Facial on ${shortDay(visitDay)}: from ${shortDay(firstPossible)}`,
      ),
    ).toBeVisible();

    // The first possible date is a link to its times, and one of them is held for the guest.
    await page.getByRole("link", { name: `See times on ${longDay(firstPossible)}` }).click();
    await expect(page.getByRole("heading", { level: 2, name: longDay(firstPossible), exact: true })).toBeVisible();
    expect(await shownDate(page)).toBe(firstPossible);
    await page.getByRole("form", { name: "Open times" }).getByRole("button").first().click();
    await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeVisible();
  },
);
