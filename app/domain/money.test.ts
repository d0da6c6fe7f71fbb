import { describe, expect, it } from "vitest";
import { centsFromDollars, dollarsFromCents, percentOf, sumCents } from "./money";

describe("cents", () => {
  it("converts decimal dollars to the cent they mean, float error included", () => {
    expect(centsFromDollars(19.99)).toBe(1999);
    expect(centsFromDollars(275)).toBe(27500);
    expect(centsFromDollars(0.1 + 0.2)).toBe(30);
    expect(centsFromDollars(1.005 - 0.005)).toBe(100);
    expect(centsFromDollars(59.5)).toBe(5950);
    expect(centsFromDollars(0)).toBe(0);
    expect(centsFromDollars(-12.34)).toBe(-1234);
  });

  it("converts back to dollars for a payload kept in dollars", () => {
    expect(dollarsFromCents(1999)).toBe(19.99);
    expect(dollarsFromCents(27500)).toBe(275);
    expect(centsFromDollars(dollarsFromCents(1999))).toBe(1999);
  });

  it("takes a percentage to the nearest cent and sums whole cents", () => {
    expect(percentOf(1999, 10)).toBe(200);
    expect(percentOf(1005, 50)).toBe(503);
    expect(sumCents([10, 20, 1999])).toBe(2029);
    expect(sumCents([])).toBe(0);
  });
});
