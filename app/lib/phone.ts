/** Phone numbers (spec section 5): digits only, at most 10, shown as 3-3-4 groups with dashes. */
export const PHONE_MAX_DIGITS = 10;

/**
 * The national number's digits. A browser filling the field from the guest's saved number may write
 * it with the country code ("+1 512-555-0141"); a US number never starts with 1, so eleven digits
 * starting with 1 lose that 1 first.
 */
export function phoneDigits(input: string): string {
  const digits = input.replace(/\D/g, "");
  const national = digits.length > PHONE_MAX_DIGITS && digits.startsWith("1") ? digits.slice(1) : digits;
  return national.slice(0, PHONE_MAX_DIGITS);
}

/**
 * A US mobile number as a guest may write it: digits with spaces, brackets, dots or dashes, ten of
 * them, or eleven with the country code ("+1 512 555 0141").
 */
export function isPhoneNumber(input: string): boolean {
  if (!/^\+?[\d\s().-]*$/.test(input)) return false;
  const digits = input.replace(/\D/g, "");
  return digits.length === PHONE_MAX_DIGITS || (digits.length === PHONE_MAX_DIGITS + 1 && digits.startsWith("1"));
}

/** "5125550141" -> "512-555-0141"; partial input groups as far as it goes. */
export function formatPhone(input: string): string {
  const digits = phoneDigits(input);
  return [digits.slice(0, 3), digits.slice(3, 6), digits.slice(6)].filter(Boolean).join("-");
}
