/**
 * The error page's codes (spec: duplicate email, invalid email, invalid mobile number). The back
 * end's own numbers for the same failures (Zenoti: 442 e-mail exists, 482 mobile number length)
 * lead to the same page.
 */
export type ErrorPageCode = "duplicate-email" | "invalid-email" | "invalid-mobile";

export const ERROR_PAGES: Record<ErrorPageCode, { title: string; message: string }> = {
  "duplicate-email": {
    title: "Seems like you already have an account with us",
    message: "It looks like you have an account with us. Please click login to continue",
  },
  "invalid-email": {
    title: "OOPS !!! Invalid data",
    message: "The email address you entered is not valid. Please check the email and try again",
  },
  "invalid-mobile": {
    title: "OOPS !!! Invalid data",
    message: "Mobile number you entered is not valid. Please check the number and try again",
  },
};

const ALIASES: Record<string, ErrorPageCode> = {
  "duplicate-email": "duplicate-email",
  duplicate_email: "duplicate-email",
  "442": "duplicate-email",
  "invalid-email": "invalid-email",
  invalid_email: "invalid-email",
  "invalid-mobile": "invalid-mobile",
  invalid_mobile: "invalid-mobile",
  "482": "invalid-mobile",
};

export function toErrorPageCode(raw: string | null): ErrorPageCode | null {
  if (!raw) return null;
  return ALIASES[raw.trim().toLowerCase()] ?? null;
}

/** Seconds before the error page sends the visitor on. */
export const ERROR_REDIRECT_SECONDS = 10;
