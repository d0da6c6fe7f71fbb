import { describe, expect, it } from "vitest";
import { checkPaymentForm } from "./payment";

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
