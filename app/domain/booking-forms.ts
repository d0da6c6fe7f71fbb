import { z } from "zod";
import { defineSchema } from "~/lib/define-schema";
import { OneTimeCodeField } from "./account-forms";
import { formatDay } from "~/lib/dates";
import { addDays, isRealDate, MAX_ADD_ONS, TOO_MANY_ADD_ONS, weekday } from "./booking";
import { COUPON_MESSAGES } from "./coupons";
import { normalizePromoCode, PROMO_MESSAGES } from "./discounts";
import { BILLING_LIMITS, checkPaymentForm, PAYMENT_MESSAGES, type Billing } from "./payment";

/**
 * The booking steps' form schemas, one per form (decision 013), each check with its own words. A
 * value the visitor does not type (the treatment carried in a hidden field, the time on the button
 * pressed) is checked at the form's level: its message is the form's, shown in the summary.
 */

export const SERVICE_REQUIRED = "Please select a service";
export const AREA_REQUIRED = "Please select a treatment area";
export const CHOOSE_SHOWN = "Please choose from the options shown";
export const NURSE_FROM_LIST = "Please choose a nurse from the list";

const optionIds = defineSchema(() =>
  z
    .array(z.string({ error: CHOOSE_SHOWN }).max(64, CHOOSE_SHOWN), { error: CHOOSE_SHOWN })
    .max(MAX_ADD_ONS, TOO_MANY_ADD_ONS),
);

/**
 * The treatment step's options; which areas are needed depends on the treatment, so the server says.
 * `intent` "total" keeps the choice and shows the step again with its total (the way to see it
 * without JavaScript); any other press goes on to the time step.
 */
export const ServiceChoiceSchema = defineSchema(() =>
  z
    .object({
      intent: z.enum(["total", "continue"], { error: CHOOSE_SHOWN }).optional(),
      service: z.unknown().optional(),
      area: optionIds,
      addOn: optionIds,
      therapist: z.string({ error: NURSE_FROM_LIST }).trim().max(64, NURSE_FROM_LIST).optional(),
    })
    .refine(({ service }) => typeof service === "string" && /^[\w-]{1,64}$/.test(service), SERVICE_REQUIRED),
);

export const CHOOSE_TIME = "Please choose a time from the list.";
const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

/** The time step: the time is the button pressed, in the clinic's local time. */
export const HoldSlotSchema = defineSchema(() =>
  z
    .object({ slot: z.unknown().optional() })
    .refine(({ slot }) => typeof slot === "string" && LOCAL_TIME.test(slot), CHOOSE_TIME),
);

/** The dates a booking step offers, first and last: the jump-to-date form's range. */
export type DateRange = { first: string; last: string };

export const JUMP_DATE_MESSAGES = {
  missing: "Please enter a date.",
  invalid: "Please enter a real date: year, month and day.",
  past: (first: string) => `That date has passed. Please choose ${formatDay(first, "dddd, MMMM D")} or later.`,
  far: (last: string) =>
    `Times can be booked up to ${formatDay(last, "dddd, MMMM D")}. Please choose that day or an earlier one.`,
} as const;

/**
 * Why a date typed or linked cannot be shown by a booking step, or null when it can: not a real
 * day, before the first date offered, or after the last (the booking horizon). A Sunday counts as
 * the Monday after it, as the spec's date picker moves it.
 */
export function bookingDateProblem(value: string, range: DateRange): string | null {
  if (!isRealDate(value)) return JUMP_DATE_MESSAGES.invalid;
  const date = weekday(value) === 0 ? addDays(value, 1) : value;
  if (date < range.first) return JUMP_DATE_MESSAGES.past(range.first);
  if (date > range.last) return JUMP_DATE_MESSAGES.far(range.last);
  return null;
}

/**
 * The date strip's "jump to a date": a GET form of one date field. The schema checks the date is a
 * real one; whether it is among the dates offered depends on the clinic's today, so the loader
 * checks that (`bookingDateProblem`) and answers at the field.
 */
export const JumpToDateSchema = defineSchema(() =>
  z.object({
    date: z
      .string({ error: JUMP_DATE_MESSAGES.missing })
      .trim()
      .min(1, { error: JUMP_DATE_MESSAGES.missing, abort: true })
      .refine(isRealDate, JUMP_DATE_MESSAGES.invalid),
  }),
);

export const PAYMENT_INTENTS = [
  "add-card",
  "apply-promo",
  "apply-coupon",
  "remove-promo",
  "use-package",
  "stop-package",
  "confirm",
  "cancel-booking",
] as const;
export const PAGE_OUT_OF_DATE = "This page was out of date. Please check the details and confirm again.";
const CHOOSE_ACTION = "Please choose an action.";

/**
 * The payment step: one form, four buttons (and "cancel-booking" when the back end's price differed
 * from ours). Every button keeps the billing address typed so far; only "confirm" needs a card, the
 * address, the state and the policy, and only "apply" a code.
 */
export const PaymentSchema = defineSchema(() =>
  z
    .object({
      intent: z.enum(PAYMENT_INTENTS, { error: CHOOSE_ACTION }),
      payKey: z.string({ error: PAGE_OUT_OF_DATE }).max(64, PAGE_OUT_OF_DATE).optional(),
      /** The amount due now the page showed, in cents: a back end asking another is not charged. */
      shownDue: z
        .string({ error: PAGE_OUT_OF_DATE })
        .regex(/^\d{1,9}$/, PAGE_OUT_OF_DATE)
        .optional(),
      card: z.string({ error: PAYMENT_MESSAGES.card }).max(64, PAYMENT_MESSAGES.card).optional(),
      address: z
        .string({ error: PAYMENT_MESSAGES.billing })
        .trim()
        .max(BILLING_LIMITS.address, PAYMENT_MESSAGES.billing)
        .optional(),
      city: z
        .string({ error: PAYMENT_MESSAGES.billing })
        .trim()
        .max(BILLING_LIMITS.city, PAYMENT_MESSAGES.billing)
        .optional(),
      state: z.string({ error: PAYMENT_MESSAGES.state }).max(BILLING_LIMITS.state, PAYMENT_MESSAGES.state).optional(),
      zip: z
        .string({ error: PAYMENT_MESSAGES.billing })
        .trim()
        .max(BILLING_LIMITS.zip, PAYMENT_MESSAGES.billing)
        .optional(),
      promo: z.string({ error: PROMO_MESSAGES.unknown }).trim().max(32, PROMO_MESSAGES.unknown).optional(),
      /** The number of the guest's coupon chosen to apply. */
      coupon: z.string({ error: COUPON_MESSAGES.choose }).trim().max(32, COUPON_MESSAGES.choose).optional(),
      policy: z.literal("agreed", { error: PAYMENT_MESSAGES.policy }).optional(),
    })
    .superRefine((form, ctx) => {
      if (form.intent === "apply-promo" && !normalizePromoCode(form.promo ?? "")) {
        ctx.addIssue({ code: "custom", path: ["promo"], message: PROMO_MESSAGES.empty });
      }
      if (form.intent === "apply-coupon" && !form.coupon)
        ctx.addIssue({ code: "custom", path: ["coupon"], message: COUPON_MESSAGES.choose });
      if (form.intent !== "confirm") return;
      const billing = {
        address: form.address ?? "",
        city: form.city ?? "",
        state: form.state ?? "",
        zip: form.zip ?? "",
      };
      const problems = checkPaymentForm({ hasCard: Boolean(form.card), billing, agreed: form.policy === "agreed" });
      for (const { path, message } of placePaymentProblems(problems, billing))
        ctx.addIssue({ code: "custom", path, message });
    }),
);

/**
 * Where each payment problem is told: no card is the form's (there is nothing to pick), the
 * address's is told once, at its first bad field, the others at their own field.
 */
export function placePaymentProblems(
  problems: Record<string, string>,
  billing: Billing,
): { path: string[]; message: string }[] {
  return Object.entries(problems).map(([key, message]) => ({
    path: key === "card" ? [] : key === "billing" ? [firstBadBillingField(billing)] : [key],
    message,
  }));
}

function firstBadBillingField(billing: Billing): "address" | "city" | "zip" {
  if (!billing.address.trim()) return "address";
  if (!billing.city.trim()) return "city";
  return "zip";
}

/** An existing client proving their record is theirs: the code sent to the contact on file. */
export const VerifyGuestSchema = defineSchema(() => z.object({ code: OneTimeCodeField }));

/** Asking for another code on the verify step: a button, nothing to fill in. */
export const ResendGuestCodeSchema = defineSchema(() => z.object({}));
