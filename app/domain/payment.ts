import { US_STATE_CODES } from "~/lib/us-states";

export const PAYMENT_MESSAGES = {
  card: "Please add a credit card to continue booking",
  billing: "Please add a billing address to continue",
  policy: "Please agree to the cancellation policy",
  state: "Please select state",
  failed: "Payment failed",
} as const;

export type Billing = { address: string; city: string; state: string; zip: string };

/** Checks the payment form; each problem in the spec's words, keyed by field. */
export function checkPaymentForm(input: { hasCard: boolean; billing: Billing; agreed: boolean }): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!input.hasCard) errors.card = PAYMENT_MESSAGES.card;
  const { address, city, state, zip } = input.billing;
  if (!address.trim() || !city.trim() || !/^\d{5}(-\d{4})?$/.test(zip.trim())) errors.billing = PAYMENT_MESSAGES.billing;
  if (!US_STATE_CODES.has(state)) errors.state = PAYMENT_MESSAGES.state;
  if (!input.agreed) errors.policy = PAYMENT_MESSAGES.policy;
  return errors;
}
