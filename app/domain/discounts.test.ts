import { describe, expect, it } from "vitest";
import { applyDiscounts, checkPromo, discountFor, PROMO_MESSAGES, type PriceLine, type PromoCode } from "./discounts";

const facial: PriceLine = { serviceId: "FT", kind: "service", name: "Facial", price: 275 };
const led: PriceLine = { serviceId: "LED", kind: "addon-service", name: "LED", price: 50 };
const fixer: PriceLine = { serviceId: "FIX", kind: "addon-fixer", name: "Fixer", price: 40 };

describe("discount rules", () => {
  it("computes percentage (rounded to 2 decimals), amount and final price", () => {
    expect(discountFor({ discount_type: "percentage", discount_value: 9, service_id: null, service_type: "service" }, 199.99)).toBe(18);
    expect(discountFor({ discount_type: "percentage", discount_value: 25, service_id: null, service_type: "service" }, 59.5)).toBe(14.88);
    expect(discountFor({ discount_type: "amount", discount_value: 20, service_id: null, service_type: "service" }, 15)).toBe(15);
    expect(discountFor({ discount_type: "final_price", discount_value: 50, service_id: null, service_type: "service" }, 275)).toBe(225);
    expect(discountFor({ discount_type: "final_price", discount_value: 300, service_id: null, service_type: "service" }, 275)).toBe(0);
  });

  it("applies the best matching rule per line, by service type and optional service id", () => {
    const result = applyDiscounts([facial, led, fixer], [
      { discount_type: "final_price", discount_value: 50, service_id: "ft", service_type: "service" },
      { discount_type: "percentage", discount_value: 10, service_id: null, service_type: "service" },
      { discount_type: "amount", discount_value: 20, service_id: null, service_type: "addon-service" },
      { discount_type: "percentage", discount_value: 100, service_id: "FIX", service_type: "addon-fixer" },
    ]);
    expect(result.lines.map((l) => l.discount)).toEqual([225, 20, 40]);
    expect(result).toMatchObject({ subtotal: 365, discount: 285, total: 80 });
  });
});

describe("promo checks", () => {
  const promo: PromoCode = { code: "GLOW50", rules: [{ discount_type: "final_price", discount_value: 50, service_id: "FT", service_type: "service" }], validFrom: "2026-12-01", validTo: "2026-12-31", maxUsesPerGuest: 1 };
  const base = { code: "glow50", promo, appointmentDate: "2026-12-07", lines: [facial], usesByGuest: 0 };

  it("accepts a code that fits", () => {
    expect(checkPromo(base)).toEqual({ ok: true, promo });
  });
  it("says what is wrong otherwise, in the spec's words", () => {
    expect(checkPromo({ ...base, code: "  " })).toEqual({ ok: false, message: PROMO_MESSAGES.empty });
    expect(checkPromo({ ...base, promo: null })).toEqual({ ok: false, message: "Invalid Promo Code" });
    expect(checkPromo({ ...base, appointmentDate: "2027-01-04" })).toEqual({ ok: false, message: "promo not available for the selected date" });
    expect(checkPromo({ ...base, usesByGuest: 1 })).toEqual({ ok: false, message: "Promo code GLOW50 is not valid" });
    expect(checkPromo({ ...base, lines: [led] })).toEqual({ ok: false, message: "Promo code GLOW50 cannot be applied" });
  });
});
