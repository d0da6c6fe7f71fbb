/** The account messages of spec sections 5 and 8. */
export const ACCOUNT_MESSAGES = {
  duplicate: "It looks like you have an account with us. Please click login to continue",
  noAccount: "Account does not exist. Please create account",
  wrongPassword: "Invalid Credentials, Please try again",
  setPasswordFirst: "Invalid credentials. Please try resetting your password",
  recordFound: "We found your record with us. We've sent you a code: enter it to set your password.",
  oldPassword: "Please enter the old password correctly",
  noConsent: "Consent not found for Current User!",
  allRequired: "All fields are required",
  correctErrors: "Please correct the errors below.",
  ageOfMajority: "Please confirm you have reached the age of majority",
} as const;

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
