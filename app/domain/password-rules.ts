/** The password rules of spec section 5, each with its text. */
export const PASSWORD_RULES = [
  { id: "length", text: "At least 8 characters", test: (p: string) => p.length >= 8 },
  { id: "lower", text: "At least one lowercase character", test: (p: string) => /[a-z]/.test(p) },
  { id: "upper", text: "At least one uppercase character", test: (p: string) => /[A-Z]/.test(p) },
  { id: "number", text: "At least one number", test: (p: string) => /\d/.test(p) },
  {
    id: "special",
    text: "At least one special character (one of ! @ # $ % ^ & *)",
    test: (p: string) => /[!@#$%^&*]/.test(p),
  },
] as const;

/** Longer passwords are fine (a 64-character one works); past this it is not a password. */
export const PASSWORD_MAX_LENGTH = 128;

export function failedPasswordRules(password: string): string[] {
  return PASSWORD_RULES.filter((rule) => !rule.test(password)).map((rule) => rule.text);
}
