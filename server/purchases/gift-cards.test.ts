import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Center } from "~/domain/catalog";
import { GIFT_CARD_MAX_DAYS_AHEAD, PURCHASE_MESSAGES, type GiftCardForm } from "~/domain/purchases";
import { clinicToday } from "~/lib/dates";
import { startSandbox, TEST_API_KEY } from "../../tests/helpers/sandbox-server";
import type { CurrentUser, Services } from "../services";
import { SpaError } from "../spa/errors.server";
import type { GuestGiftCard } from "../spa/sales.server";
import { normalizeId, seedGuid } from "../spa-sandbox/db";
import { createSpaClient, type SpaClient } from "../spa/client.server";
import { accountGiftCards, amountChoices, BALANCES_PER_VIEW, giftCardOffer } from "./gift-cards.server";
import { giftCardTemplates } from "./offers.server";

/** The gift card form checked against what only the back end knows: its templates, their limits, its designs, the clinic's today. */

const AUSTIN = seedGuid("center:ATX");
const GC_100 = seedGuid("giftcard-template:GC-100");
const GC_ANY = seedGuid("giftcard-template:GC-ANY");
const BIRTHDAY = seedGuid("giftcard-occasion:Birthday");

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let spa: SpaClient;
let services: Services;
let austin: Center;

beforeAll(async () => {
  sandbox = await startSandbox();
  spa = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
  services = { spa } as unknown as Services;
  austin = (await spa.listCenters()).centers.find((c) => normalizeId(c.id) === normalizeId(AUSTIN))!;
});
afterAll(async () => {
  await sandbox.stop();
});

/** A day `days` after `day` (YYYY-MM-DD). */
const dayAfter = (day: string, days: number) =>
  new Date(Date.parse(`${day}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

function form(over: Partial<GiftCardForm> = {}): GiftCardForm {
  return {
    clinic: austin.slug,
    templateId: GC_ANY,
    customAmount: 7_500,
    occasionId: BIRTHDAY,
    recipientName: "Rosa Diaz",
    recipientEmail: "rosa@example.com",
    message: "Happy birthday!",
    deliveryDate: clinicToday(austin.timeZone),
    purchaseKey: randomUUID(),
    ...over,
  };
}

describe("the amounts a clinic sells", () => {
  it("are its presets by value, then the one that takes any amount with the back end's limits", async () => {
    const templates = (await giftCardTemplates(services, AUSTIN))!;
    const template = (code: string) => seedGuid(`giftcard-template:${code}`);
    expect(amountChoices(templates)).toEqual([
      { templateId: template("GC-50"), label: "$50", custom: null },
      { templateId: GC_100, label: "$100", custom: null },
      { templateId: template("GC-150"), label: "$150", custom: null },
      { templateId: template("GC-250"), label: "$250", custom: null },
      { templateId: GC_ANY, label: "Another amount", custom: { min: "$25", max: "$1,000" } },
    ]);
  });
});

describe("a gift card offer", () => {
  it("sells a preset at its value and price, named by its amount and design", async () => {
    const checked = await giftCardOffer(
      services,
      austin,
      form({ templateId: GC_100.toUpperCase(), customAmount: null }),
    );
    expect(checked).toEqual({
      kind: "offer",
      offer: {
        kind: "gift-card",
        centerId: austin.id,
        itemId: GC_100,
        itemName: "$100 gift card (Birthday)",
        priceCents: 10_000,
        giftCard: {
          templateId: GC_100,
          valueCents: 10_000,
          custom: false,
          occasionId: BIRTHDAY,
          recipientName: "Rosa Diaz",
          recipientEmail: "rosa@example.com",
          message: "Happy birthday!",
          deliveryDate: clinicToday(austin.timeZone),
        },
      },
    });
  });

  it("sells the amount the guest chose on the template that takes any amount, its limits included", async () => {
    for (const amount of [2_500, 7_550, 100_000]) {
      const checked = await giftCardOffer(services, austin, form({ customAmount: amount }));
      expect(checked).toMatchObject({
        kind: "offer",
        offer: { priceCents: amount, giftCard: { valueCents: amount, custom: true, templateId: GC_ANY } },
      });
    }
  });

  it("refuses an amount below $25 or above $1,000, or none, next to the amount field", async () => {
    const message = PURCHASE_MESSAGES.customAmount("$25", "$1,000");
    for (const customAmount of [2_499, 100_001, null]) {
      expect(await giftCardOffer(services, austin, form({ customAmount }))).toEqual({
        kind: "invalid",
        fieldErrors: { customAmount: [message] },
      });
    }
  });

  it("refuses an amount or a design the back end does not have, each next to its field", async () => {
    expect(await giftCardOffer(services, austin, form({ templateId: randomUUID() }))).toEqual({
      kind: "invalid",
      fieldErrors: { templateId: [PURCHASE_MESSAGES.unknownTemplate] },
    });
    expect(await giftCardOffer(services, austin, form({ occasionId: randomUUID() }))).toEqual({
      kind: "invalid",
      fieldErrors: { occasionId: [PURCHASE_MESSAGES.unknownOccasion] },
    });
  });

  it("takes a delivery day from the clinic's today to a year ahead, and refuses one before or after", async () => {
    const today = clinicToday(austin.timeZone);
    expect((await giftCardOffer(services, austin, form({ deliveryDate: today }))).kind).toBe("offer");
    expect(
      (await giftCardOffer(services, austin, form({ deliveryDate: dayAfter(today, GIFT_CARD_MAX_DAYS_AHEAD) }))).kind,
    ).toBe("offer");
    expect(await giftCardOffer(services, austin, form({ deliveryDate: dayAfter(today, -1) }))).toEqual({
      kind: "invalid",
      fieldErrors: { deliveryDate: [PURCHASE_MESSAGES.pastDate] },
    });
    expect(
      await giftCardOffer(services, austin, form({ deliveryDate: dayAfter(today, GIFT_CARD_MAX_DAYS_AHEAD + 1) })),
    ).toEqual({
      kind: "invalid",
      fieldErrors: { deliveryDate: [PURCHASE_MESSAGES.farDate] },
    });
  });

  it("says everything that is wrong at once", async () => {
    const checked = await giftCardOffer(
      services,
      austin,
      form({ customAmount: 1_000, occasionId: "no-such-design", deliveryDate: "2020-01-01" }),
    );
    expect(checked.kind).toBe("invalid");
    expect(Object.keys((checked as { fieldErrors: object }).fieldErrors).sort()).toEqual([
      "customAmount",
      "deliveryDate",
      "occasionId",
    ]);
  });
});

describe("the account's gift cards", () => {
  const user = { guestId: "GUEST-BUYER-1", email: "mia@example.com" } as CurrentUser;
  /** A card of the guest's list, its id new to the process's cache. */
  const listed = (over: Partial<GuestGiftCard> = {}): GuestGiftCard => ({
    id: randomUUID(),
    number: String(100_000_000_000 + Math.floor(Math.random() * 800_000_000_000)),
    valueCents: 10_000,
    balanceCents: 10_000,
    expiryDate: null,
    issuedOn: "2026-11-01",
    status: "Active",
    boughtByGuestId: "guest-buyer-1",
    recipientName: "Ana Lopez",
    recipientEmail: "ana@example.com",
    ...over,
  });
  /** A back end whose balance call says `balances` (by number) and counts its calls. */
  function backEnd(cards: GuestGiftCard[], balances: Record<string, number | Error>) {
    const asked: string[] = [];
    const spa = {
      guestGiftCards: async () => cards,
      giftCardBalance: async (number: string) => {
        asked.push(number);
        const balance = balances[number];
        if (balance instanceof Error) throw balance;
        if (balance === undefined) return null;
        return { number, valueCents: 10_000, balanceCents: balance, expiryDate: null, status: "Active" };
      },
    };
    return { services: { spa } as unknown as Services, asked };
  }

  it("shows a bought card's balance now, read by its number once and kept for the next view", async () => {
    const card = listed();
    const { services: withBackEnd, asked } = backEnd([card], { [card.number]: 3_550 });
    const first = await accountGiftCards(withBackEnd, user);
    expect(first.bought).toEqual([expect.objectContaining({ number: card.number, value: "$100", balance: "$35.50" })]);
    expect(first.received).toEqual([]);
    await accountGiftCards(withBackEnd, user);
    expect(asked).toEqual([card.number]);
  });

  it("shows the list's amount when the balance call cannot answer, and asks again next time", async () => {
    const card = listed({ balanceCents: 6_000 });
    const outage = new SpaError({ kind: "network", status: 502, message: "Network Error!" });
    const { services: withBackEnd, asked } = backEnd([card], { [card.number]: outage });
    expect((await accountGiftCards(withBackEnd, user)).bought[0].balance).toBe("$60");
    await accountGiftCards(withBackEnd, user);
    expect(asked).toHaveLength(2);
  });

  it("reads the balance of the newest bought cards only, and never of a card sent to the guest", async () => {
    const bought = Array.from({ length: BALANCES_PER_VIEW + 2 }, () => listed());
    const received = listed({ boughtByGuestId: "someone-else", recipientEmail: " MIA@example.com " });
    const { services: withBackEnd, asked } = backEnd(
      [...bought, received],
      Object.fromEntries([...bought, received].map((c) => [c.number, 100])),
    );
    const cards = await accountGiftCards(withBackEnd, user);
    expect(asked).toEqual(bought.slice(0, BALANCES_PER_VIEW).map((c) => c.number));
    expect(cards.bought.map((c) => c.balance)).toEqual([
      ...Array(BALANCES_PER_VIEW).fill("$1"),
      ...Array(2).fill("$100"),
    ]);
    expect(cards.received).toEqual([expect.objectContaining({ number: received.number, balance: "$100" })]);
  });
});
