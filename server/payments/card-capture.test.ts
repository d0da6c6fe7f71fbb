import { describe, expect, it } from "vitest";
import { cardSetOf, cardWasAdded } from "./card-capture.server";
import { hostedPageOrigins, isHostedPageAllowed } from "./hosted-pages.server";

const card = (accountId: string) => ({
  accountId,
  brand: "VISA",
  lastFour: "4242",
  expiry: "12/2030",
  createdAt: null,
});

describe("a card added on the hosted page", () => {
  const before = cardSetOf([card("A-1"), card("b-2")]);

  it("is a card that was not there before, whatever the card dates say", () => {
    expect(cardWasAdded(before, [card("a-1"), card("b-2"), card("c-3")])).toBe(true);
    expect(cardWasAdded(cardSetOf([]), [card("c-3")])).toBe(true);
    // One removed elsewhere meanwhile and one added: still a new card.
    expect(cardWasAdded(before, [card("a-1"), card("c-3")])).toBe(true);
  });

  it("is none when the same cards come back, or fewer, in any order; unknown when the list can't be read", () => {
    expect(cardWasAdded(before, [card("b-2"), card("a-1")])).toBe(false);
    expect(cardWasAdded(before, [card("a-1")])).toBe(false);
    expect(cardWasAdded(cardSetOf([]), [])).toBe(false);
    expect(cardWasAdded(before, null)).toBeNull();
  });
});

describe("a hosted payment page the guest may be sent to", () => {
  const real = { hostedPaymentOrigins: ["https://api.zenoti.com", "https://pay.example"], embeddedHostedPath: null };
  const embedded = { hostedPaymentOrigins: [], embeddedHostedPath: "/spa-sandbox/hosted/" };

  it("with a real back end, is on one of its payment origins only", () => {
    expect(isHostedPageAllowed(real, "https://pay.example/card/1", "https://shop.example/appointment/payment")).toBe(
      true,
    );
    expect(
      isHostedPageAllowed(
        real,
        "https://shop.example/spa-sandbox/hosted/card/1",
        "https://shop.example/appointment/payment",
      ),
    ).toBe(false);
    expect(isHostedPageAllowed(real, "https://evil.example/card/1", "https://shop.example/appointment/payment")).toBe(
      false,
    );
  });

  it("with Zenoti, is on the organisation's own host without configuration, and on no other host", () => {
    // The hosted card page lives on https://<org>.zenoti.com, not on the API's host (issue 29, item 1).
    const zenoti = { hostedPaymentOrigins: hostedPageOrigins("https://api.zenoti.com", []), embeddedHostedPath: null };
    const returnTo = "https://shop.example/appointment/payment";
    expect(isHostedPageAllowed(zenoti, "https://glowclinic.zenoti.com/OnlinePayments/AddCard?token=x", returnTo)).toBe(
      true,
    );
    expect(isHostedPageAllowed(zenoti, "https://api.zenoti.com/card/1", returnTo)).toBe(true);
    for (const elsewhere of [
      "http://glowclinic.zenoti.com/card",
      "https://glowclinic.zenoti.com:8443/card",
      "https://a.b.zenoti.com/card",
      "https://zenoti.com.evil.example/card",
      "https://evilzenoti.com/card",
      "https://glowclinic.zenoti.com.evil.example/card",
    ]) {
      expect(isHostedPageAllowed(zenoti, elsewhere, returnTo), elsewhere).toBe(false);
    }
    // Another API host derives nothing; its pages need HOSTED_PAYMENT_ORIGINS.
    expect(hostedPageOrigins("https://spa.example/api", ["https://pay.example"])).toEqual([
      "https://spa.example",
      "https://pay.example",
    ]);
    expect(hostedPageOrigins("http://api.zenoti.com", [])).toEqual(["http://api.zenoti.com"]);
  });

  it("with the embedded sandbox, is under its hosted path on the origin the guest is using", () => {
    expect(
      isHostedPageAllowed(
        embedded,
        "http://localhost:7000/spa-sandbox/hosted/verify/x",
        "http://localhost:7000/appointment/payment",
      ),
    ).toBe(true);
    expect(
      isHostedPageAllowed(
        embedded,
        "https://demo.example/spa-sandbox/hosted/card/x",
        "https://demo.example/appointment/payment",
      ),
    ).toBe(true);
    expect(
      isHostedPageAllowed(
        embedded,
        "http://127.0.0.1:7000/spa-sandbox/hosted/card/x",
        "http://localhost:7000/appointment/payment",
      ),
    ).toBe(false);
    expect(
      isHostedPageAllowed(
        embedded,
        "http://localhost:7000/spa-sandbox/v1/guests",
        "http://localhost:7000/appointment/payment",
      ),
    ).toBe(false);
    expect(
      isHostedPageAllowed(embedded, "http://localhost:7000/account", "http://localhost:7000/appointment/payment"),
    ).toBe(false);
  });
});
