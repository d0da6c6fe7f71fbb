import { US_STATE_CODES } from "~/lib/us-states";

export const PAYMENT_MESSAGES = {
  card: "Please add a credit card to continue booking",
  billing: "Please add a billing address to continue",
  policy: "Please agree to the cancellation policy",
  state: "Please select state",
  failed: "Payment failed",
} as const;

export type Billing = { address: string; city: string; state: string; zip: string };

/** The longest value each billing field takes (its input's maxlength). */
export const BILLING_LIMITS = { address: 120, city: 80, state: 2, zip: 10 } as const;

/** Billing as the draft keeps it for the next visit of the form: each field at most its limit. */
export function clipBilling(billing: Billing): Billing {
  return {
    address: billing.address.slice(0, BILLING_LIMITS.address),
    city: billing.city.slice(0, BILLING_LIMITS.city),
    state: billing.state.slice(0, BILLING_LIMITS.state),
    zip: billing.zip.slice(0, BILLING_LIMITS.zip),
  };
}

/** Checks the payment form; each problem in the spec's words, keyed by field. */
export function checkPaymentForm(input: {
  hasCard: boolean;
  billing: Billing;
  agreed: boolean;
}): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!input.hasCard) errors.card = PAYMENT_MESSAGES.card;
  const { address, city, state, zip } = input.billing;
  if (!address.trim() || !city.trim() || !/^\d{5}(-\d{4})?$/.test(zip.trim()))
    errors.billing = PAYMENT_MESSAGES.billing;
  if (!US_STATE_CODES.has(state)) errors.state = PAYMENT_MESSAGES.state;
  if (!input.agreed) errors.policy = PAYMENT_MESSAGES.policy;
  return errors;
}

/**
 * Where the payment step puts the guest back from the hosted card page: the first billing field
 * still to fill, in the page's order, else the policy to agree to (never kept between visits, so
 * the last thing before the pay button); "card" when the card page added no card.
 */
export type PaymentArrival = "card" | "address" | "city" | "state" | "zip" | "policy";

export function arrivalAfterCardPage(input: { cardAdded: boolean; billing: Billing | null }): PaymentArrival {
  if (!input.cardAdded) return "card";
  const { address = "", city = "", state = "", zip = "" } = input.billing ?? {};
  if (!address.trim()) return "address";
  if (!city.trim()) return "city";
  if (!US_STATE_CODES.has(state)) return "state";
  if (!/^\d{5}(-\d{4})?$/.test(zip.trim())) return "zip";
  return "policy";
}
