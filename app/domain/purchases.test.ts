import { describe, expect, it } from "vitest";
import {
  BuyItemSchema,
  deliveryDateProblem,
  GiftCardBalanceSchema,
  GiftCardSchema,
  packageSaving,
  parseDollars,
  paymentTag,
  PURCHASE_MESSAGES,
} from "./purchases";

const KEY = "5f0c6a4e-8d1b-4c3a-9e2f-1a2b3c4d5e6f";

describe("parseDollars", () => {
  it.each([
    ["75", 7500],
    ["75.5", 7550],
    ["75.50", 7550],
    ["$1,000", 100_000],
    ["$1,000.25", 100_025],
    [" 25 ", 2500],
    ["0.01", 1],
  ])("reads %s as %i cents", (text, cents) => expect(parseDollars(text)).toBe(cents));

  it.each(["", "abc", "75.555", "-5", "1e3", "12,34", "$", "1234567", "7 5"])("refuses %s", (text) =>
    expect(parseDollars(text)).toBeNull(),
  );
});

describe("the gift card form", () => {
  const valid = {
    clinic: "austin-downtown",
    templateId: "t-100",
    occasionId: "o-1",
    recipientName: "Ana",
    recipientEmail: "ana@example.com",
    message: "Happy birthday!",
    deliveryDate: "2026-12-24",
    purchaseKey: KEY,
  };
  it("takes a preset, without an amount typed", () => {
    const parsed = GiftCardSchema.parse(valid);
    expect(parsed.customAmount).toBeNull();
    expect(parsed.message).toBe("Happy birthday!");
  });
  it("reads a custom amount in cents", () =>
    expect(GiftCardSchema.parse({ ...valid, customAmount: "$80.50" }).customAmount).toBe(8050));
  it("refuses a malformed amount with the form's words", () => {
    const result = GiftCardSchema.safeParse({ ...valid, customAmount: "eighty" });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0].message).toBe(PURCHASE_MESSAGES.amountFormat);
  });
  it("refuses an email that is not one, a day that does not exist, a long message and a missing key", () => {
    for (const bad of [
      { recipientEmail: "ana@" },
      { deliveryDate: "2026-02-30" },
      { message: "x".repeat(251) },
      { purchaseKey: "not-a-key" },
      { recipientName: "  " },
    ]) {
      expect(GiftCardSchema.safeParse({ ...valid, ...bad }).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe("deliveryDateProblem", () => {
  it("allows the clinic's today and up to a year ahead", () => {
    expect(deliveryDateProblem("2026-11-24", "2026-11-24")).toBeNull();
    expect(deliveryDateProblem("2027-11-24", "2026-11-24")).toBeNull();
  });
  it("refuses a past day and one too far ahead", () => {
    expect(deliveryDateProblem("2026-11-23", "2026-11-24")).toBe(PURCHASE_MESSAGES.pastDate);
    expect(deliveryDateProblem("2027-11-25", "2026-11-24")).toBe(PURCHASE_MESSAGES.farDate);
  });
});

describe("the buy form", () => {
  it("carries a whole number of cents", () => {
    expect(
      BuyItemSchema.parse({ clinic: "austin-downtown", itemId: "p1", price: "45000", purchaseKey: KEY }).price,
    ).toBe(45000);
    expect(
      BuyItemSchema.safeParse({ clinic: "austin-downtown", itemId: "p1", price: "450.5", purchaseKey: KEY }).success,
    ).toBe(false);
    expect(BuyItemSchema.safeParse({ clinic: "../etc", itemId: "p1", price: "1", purchaseKey: KEY }).success).toBe(
      false,
    );
  });
});

describe("the balance form", () => {
  it("takes the number as printed", () =>
    expect(GiftCardBalanceSchema.parse({ number: "1234 5678-9012" }).number).toBe("123456789012"));
  it("refuses what cannot be a card number", () =>
    expect(GiftCardBalanceSchema.safeParse({ number: "12" }).success).toBe(false));
});

describe("package arithmetic", () => {
  it("saves against single visits, never a negative saving", () => {
    expect(packageSaving(45000, [{ unitPrice: 17500, quantity: 3 }])).toBe(7500);
    expect(packageSaving(60000, [{ unitPrice: 17500, quantity: 3 }])).toBe(0);
  });
});

describe("the payment tags", () => {
  it("follow the prepaid, postpaid and prepaid-package cases", () => {
    expect(paymentTag({ prepaid: true, packageUsed: false })).toBe("PPD-A");
    expect(paymentTag({ prepaid: false, packageUsed: false })).toBe("PPD-B");
    expect(paymentTag({ prepaid: true, packageUsed: true })).toBe("PPD-C");
    expect(paymentTag({ prepaid: false, packageUsed: true })).toBe("PPD-C");
  });
});
