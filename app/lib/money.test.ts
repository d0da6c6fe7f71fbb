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
});

describe("formatPriceRange", () => {
  it("shows one price when both ends agree, min-max otherwise", () => {
    expect(formatPriceRange(5000, 5000)).toBe("$50");
    expect(formatPriceRange(4500, 7500)).toBe("$45–$75");
    expect(formatPriceRange(5950, 27500)).toBe("$59.50–$275");
  });
});
