import { z } from "zod";
import { defineSchema } from "~/lib/define-schema";
import { requiredText } from "./account-forms";
import { EmailField } from "./guest";
import type { Cents } from "./money";

/**
 * Buying online: memberships, packages and gift cards (decision 031). The forms' schemas, one per
 * form, and the rules that need no back end. What only the back end knows (a template's amount
 * limits, the clinic's today, the price) is checked by the action against its answer.
 */

/** How far ahead a gift card may be scheduled. */
export const GIFT_CARD_MAX_DAYS_AHEAD = 365;
export const GIFT_MESSAGE_MAX_LENGTH = 250;

export const PURCHASE_MESSAGES = {
  signIn: "Please sign in or create an account to buy online: your purchase is kept in your account.",
  priceChanged: (price: string) => `The price is now ${price}. Please check it and buy again; nothing was charged.`,
  notSold: "This clinic does not sell that online. Please choose from the list.",
  alreadyMember: (plan: string) =>
    `You already have ${plan}, so nothing was charged. You'll find it under Your memberships.`,
  alreadyRenewing: (plan: string) =>
    `You already have ${plan}, which renews automatically, so nothing was charged. To change your plan, please call the clinic.`,
  purchaseUnderWay: (plan: string) =>
    `Your purchase of ${plan} is still being finished, so nothing more was charged. Please check Your memberships in a minute.`,
  customAmount: (min: string, max: string) => `Please enter an amount between ${min} and ${max}`,
  amountFormat: "Please enter an amount in dollars, like 75 or 75.50",
  pastDate: "Please choose today or a later day",
  farDate: `Please choose a day within the next ${GIFT_CARD_MAX_DAYS_AHEAD} days`,
  unknownTemplate: "Please choose an amount from the list",
  unknownOccasion: "Please choose a design from the list",
} as const;

const SLUG_MESSAGE = "Please choose a clinic from the list";
const clinicSlug = defineSchema(() =>
  z
    .string({ error: SLUG_MESSAGE })
    .trim()
    .regex(/^[a-z0-9-]{1,80}$/, SLUG_MESSAGE),
);
/** The key a purchase form carries: the same key twice is the same purchase (a double submit, a retry). */
const purchaseKey = defineSchema(() =>
  z.uuid({ error: "This form has expired. Please reload the page and try again." }),
);
const itemId = defineSchema(() => requiredText("Please choose what to buy", 64));
/** A price the page showed, in cents: compared with the back end's, never charged. */
const shownPrice = defineSchema(() =>
  z.coerce.number({ error: "The price could not be read. Please reload the page." }).int().min(0).max(10_000_000),
);

/** "Buy" on a membership plan or a package: what, where, at what price the page showed. */
export const BuyItemSchema = defineSchema(() =>
  z.object({
    clinic: clinicSlug,
    itemId,
    price: shownPrice,
    purchaseKey,
  }),
);

/** "75", "75.5", "$1,000.00" → cents; null when it is not an amount of dollars. */
export function parseDollars(text: string): Cents | null {
  const cleaned = text
    .trim()
    .replace(/^\$/, "")
    .replace(/,(?=\d{3}(\D|$))/g, "");
  if (!/^\d{1,6}(\.\d{1,2})?$/.test(cleaned)) return null;
  const [whole, fraction = ""] = cleaned.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}

const DAY_MESSAGE = "Please choose a delivery day";
const day = defineSchema(() =>
  z
    .string({ error: DAY_MESSAGE })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, DAY_MESSAGE)
    .refine((value) => {
      const [y, m, d] = value.split("-").map(Number);
      const date = new Date(Date.UTC(y, m - 1, d));
      return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
    }, DAY_MESSAGE),
);

export const GiftCardSchema = defineSchema(() =>
  z.object({
    clinic: clinicSlug,
    templateId: requiredText(PURCHASE_MESSAGES.unknownTemplate, 64),
    /** Only for the template that takes any amount; its limits are the back end's. */
    customAmount: z
      .string({ error: PURCHASE_MESSAGES.amountFormat })
      .trim()
      .max(12, PURCHASE_MESSAGES.amountFormat)
      .optional()
      .refine((v) => !v || parseDollars(v) !== null, PURCHASE_MESSAGES.amountFormat)
      .transform((v) => (v ? parseDollars(v) : null)),
    occasionId: requiredText(PURCHASE_MESSAGES.unknownOccasion, 64),
    recipientName: requiredText("Please enter the recipient's name", 80),
    recipientEmail: EmailField,
    message: z
      .string({ error: "Please write a shorter message" })
      .trim()
      .max(GIFT_MESSAGE_MAX_LENGTH, `Please keep the message to ${GIFT_MESSAGE_MAX_LENGTH} characters`)
      .optional()
      .transform((v) => v ?? ""),
    deliveryDate: day,
    purchaseKey,
  }),
);

export type GiftCardForm = z.infer<typeof GiftCardSchema>;

/** Checking a gift card's balance by its number (digits; spaces and dashes as printed are fine). */
export const GiftCardBalanceSchema = defineSchema(() =>
  z.object({
    number: z
      .string({ error: "Please enter the gift card number" })
      .trim()
      .max(40, "Please enter the gift card number as printed on the card")
      .transform((v) => v.replace(/[\s-]/g, ""))
      .refine((v) => /^[A-Za-z0-9]{6,24}$/.test(v), "Please enter the gift card number as printed on the card"),
  }),
);

/** A delivery day the clinic can honour: not before its today, not more than a year ahead. */
export function deliveryDateProblem(day: string, clinicToday: string): string | null {
  if (day < clinicToday) return PURCHASE_MESSAGES.pastDate;
  const [y, m, d] = clinicToday.split("-").map(Number);
  const last = new Date(Date.UTC(y, m - 1, d + GIFT_CARD_MAX_DAYS_AHEAD)).toISOString().slice(0, 10);
  return day > last ? PURCHASE_MESSAGES.farDate : null;
}

/** What a package saves against buying its sessions one by one, in cents (never negative). */
export function packageSaving(packagePrice: Cents, sessions: { unitPrice: Cents; quantity: number }[]): Cents {
  const single = sessions.reduce((sum, s) => sum + s.unitPrice * s.quantity, 0);
  return Math.max(0, single - packagePrice);
}

/**
 * The spec's user tags for how a booking is paid: PPD-A prepaid (paid when booking), PPD-B
 * postpaid (the card holds it, paid at the clinic), PPD-C paid by a prepaid package.
 */
export type PaymentTag = "PPD-A" | "PPD-B" | "PPD-C";

export function paymentTag(booking: { prepaid: boolean; packageUsed: boolean }): PaymentTag {
  if (booking.packageUsed) return "PPD-C";
  return booking.prepaid ? "PPD-A" : "PPD-B";
}
