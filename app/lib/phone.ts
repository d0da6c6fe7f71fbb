/** Phone numbers (spec section 5): digits only, at most 10, shown as 3-3-4 groups with dashes. */
export const PHONE_MAX_DIGITS = 10;

export function phoneDigits(input: string): string {
  return input.replace(/\D/g, "").slice(0, PHONE_MAX_DIGITS);
}

/** "5125550141" -> "512-555-0141"; partial input groups as far as it goes. */
export function formatPhone(input: string): string {
  const digits = phoneDigits(input);
  return [digits.slice(0, 3), digits.slice(3, 6), digits.slice(6)].filter(Boolean).join("-");
}
