/** The account messages of spec sections 5 and 8. */
export const ACCOUNT_MESSAGES = {
  duplicate: "It looks like you have an account with us. Please click login to continue",
  /**
   * The spec's same-first-name duplicate: the mobile number is on a client record at the clinics
   * under the same first name (decision 039).
   */
  sameFirstNameDuplicate:
    "It looks like you already have an account with us: this mobile number is on your record at our clinics. Sign in with the email you gave us before, or set a password for it with “Forgot your password?”.",
  noAccount: "Account does not exist. Please create account",
  /** A known account, the wrong password: shown with a link to reset it (decision 039). */
  wrongPassword: "Invalid password. Reset your password",
  setPasswordFirst: "Invalid credentials. Please try resetting your password",
  recordFound: "We found your record with us. We've sent you a code: enter it to set your password.",
  oldPassword: "Please enter the old password correctly",
  noConsent: "Consent not found for Current User!",
  allRequired: "All fields are required",
  correctErrors: "Please correct the errors below.",
  ageOfMajority: "Please confirm you have reached the age of majority",
} as const;

/** Two first names are the same name: case, accents and spaces aside ("José " is "jose"). */
export function sameFirstName(a: string, b: string): boolean {
  const key = (name: string) =>
    name
      .normalize("NFD")
      .replace(/\p{Diacritic}/gu, "")
      .replace(/\s+/g, " ")
      .trim()
      .toLowerCase();
  return key(a) !== "" && key(a) === key(b);
}

/** The back end's words for a duplicate account (spec section 5). */
export function isDuplicateMessage(message: string): boolean {
  return /duplicate|already exists/i.test(message);
}

/**
 * A returning client: any appointment with a closed (status 1) service whose name says New Client
 * or is a returning-client signature service (spec section 4).
 */
export function hasCompletedNewClientVisit(services: { name: string; status: number }[]): boolean {
  return services.some((s) => s.status === 1 && (/new client/i.test(s.name) || /signature/i.test(s.name)));
}
