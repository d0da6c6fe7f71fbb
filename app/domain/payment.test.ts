import { describe, expect, it } from "vitest";
import { arrivalAfterCardPage, checkPaymentForm } from "./payment";

describe("payment form", () => {
  const billing = { address: "1 Main St", city: "Austin", state: "TX", zip: "78701" };
  it("accepts a complete form", () => {
    expect(checkPaymentForm({ hasCard: true, billing, agreed: true })).toEqual({});
  });
  it("names each missing part in the spec's words", () => {
    expect(
      checkPaymentForm({ hasCard: false, billing: { address: "", city: "", state: "", zip: "" }, agreed: false }),
    ).toEqual({
      card: "Please add a credit card to continue booking",
      billing: "Please add a billing address to continue",
      state: "Please select state",
      policy: "Please agree to the cancellation policy",
    });
    expect(checkPaymentForm({ hasCard: true, billing: { ...billing, zip: "7870" }, agreed: true })).toEqual({
      billing: "Please add a billing address to continue",
    });
    expect(checkPaymentForm({ hasCard: true, billing: { ...billing, state: "ZZ" }, agreed: true })).toEqual({
      state: "Please select state",
    });
  });
});

describe("arrivalAfterCardPage", () => {
  const full = { address: "100 Main St", city: "Austin", state: "TX", zip: "78701" };

  it("goes to the card's message when the card page added no card", () => {
    expect(arrivalAfterCardPage({ cardAdded: false, billing: full })).toBe("card");
  });

  it("goes to the first billing field left to fill, in the page's order", () => {
    expect(arrivalAfterCardPage({ cardAdded: true, billing: null })).toBe("address");
    expect(arrivalAfterCardPage({ cardAdded: true, billing: { ...full, address: "  " } })).toBe("address");
    expect(arrivalAfterCardPage({ cardAdded: true, billing: { ...full, city: "" } })).toBe("city");
    expect(arrivalAfterCardPage({ cardAdded: true, billing: { ...full, state: "XX" } })).toBe("state");
    expect(arrivalAfterCardPage({ cardAdded: true, billing: { ...full, zip: "787" } })).toBe("zip");
  });

  it("goes to the policy once the address is complete", () => {
    expect(arrivalAfterCardPage({ cardAdded: true, billing: full })).toBe("policy");
    expect(arrivalAfterCardPage({ cardAdded: true, billing: { ...full, zip: "78701-1234" } })).toBe("policy");
  });
});
