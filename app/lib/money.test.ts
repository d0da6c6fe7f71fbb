import { describe, expect, it } from "vitest";
import { formatMoney, formatPriceRange } from "./money";

describe("formatMoney", () => {
  it("shows whole dollars without cents and other amounts with two decimals", () => {
    expect(formatMoney(27500)).toBe("$275");
    expect(formatMoney(5950)).toBe("$59.50");
    expect(formatMoney(1999)).toBe("$19.99");
    expect(formatMoney(5)).toBe("$0.05");
    expect(formatMoney(0)).toBe("$0");
    expect(formatMoney(123456)).toBe("$1,234.56");
    expect(formatMoney(100000)).toBe("$1,000");
  });

  it("shows a negative amount with its sign", () => {
    expect(formatMoney(-2500)).toBe("-$25");
    expect(formatMoney(-1999)).toBe("-$19.99");
  });

  it("writes what Intl's US-dollar format writes, for every amount up to $20 and a spread of larger ones", () => {
    const whole = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 });
    const withCents = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2 });
    const intl = (cents: number) => (cents % 100 === 0 ? whole : withCents).format(cents / 100);
    const amounts = [...Array.from({ length: 2001 }, (_, i) => i), 99_999, 100_001, 123_456_789, 1_000_000_000_00];
    for (let n = 7; n < 1e12; n = n * 13 + 11) amounts.push(n);
    for (const cents of [...amounts, ...amounts.map((a) => -a).filter((a) => a !== 0)])
      expect(formatMoney(cents), String(cents)).toBe(intl(cents));
  });
});

describe("formatPriceRange", () => {
  it("shows one price when both ends agree, min-max otherwise", () => {
    expect(formatPriceRange(5000, 5000)).toBe("$50");
    expect(formatPriceRange(4500, 7500)).toBe("$45–$75");
    expect(formatPriceRange(5950, 27500)).toBe("$59.50–$275");
  });
});
