import { z } from "zod";
import { ACCOUNT_MESSAGES } from "./accounts";
import { INVALID_EMAIL, INVALID_MOBILE } from "./guest";
import { failedPasswordRules, PASSWORD_MAX_LENGTH } from "./password-rules";
import { phoneDigits } from "~/lib/phone";

const MAX_FIELD = 200;
const required = (message: string) => z.string({ error: message }).trim().min(1, message).max(MAX_FIELD, "That is too long");

export const EmailField = z.string({ error: INVALID_EMAIL }).trim().max(254, INVALID_EMAIL).pipe(z.email(INVALID_EMAIL));

export const NewPassword = z
  .string({ error: "Please enter a password" })
  .max(PASSWORD_MAX_LENGTH, `Please use at most ${PASSWORD_MAX_LENGTH} characters`)
  .superRefine((value, ctx) => {
    const failed = failedPasswordRules(value);
    if (failed.length) ctx.addIssue({ code: "custom", message: `Your password needs: ${failed.join("; ")}` });
  });

export const RegisterSchema = z.object({
  firstName: required("Please enter your first name"),
  lastName: required("Please enter your last name"),
  email: EmailField,
  phone: z
    .string({ error: INVALID_MOBILE })
    .max(20, INVALID_MOBILE)
    .refine((v) => /^[\d\s().-]*$/.test(v) && v.replace(/\D/g, "").length === 10, INVALID_MOBILE)
    .transform(phoneDigits),
  centerId: required("Please choose your home clinic"),
  address: required("Please enter your address"),
  city: required("Please enter your city"),
  zip: z.string({ error: "Please enter a 5-digit ZIP code" }).trim().regex(/^\d{5}$/, "Please enter a 5-digit ZIP code"),
  password: NewPassword,
  referralCode: z.string().trim().max(40, "That referral code is too long").optional().transform((v) => (v ? v : null)),
  marketingEmail: z.literal("on").optional().transform(Boolean),
  marketingSms: z.literal("on").optional().transform(Boolean),
  ageConfirmed: z.literal("on", { error: ACCOUNT_MESSAGES.ageOfMajority }),
});

export const LoginSchema = z.object({
  email: EmailField,
  password: z.string({ error: "Please enter your password" }).min(1, "Please enter your password").max(PASSWORD_MAX_LENGTH, "That password is too long"),
});

/**
 * Reads a form into a plain object: each field once. A repeated field or a file is bad input.
 */
export function readForm(form: FormData, fields: readonly string[]): { values: Record<string, string | undefined>; problem: string | null } {
  const values: Record<string, string | undefined> = {};
  for (const field of fields) {
    const all = form.getAll(field);
    if (all.length > 1) return { values, problem: `The field ${field} was sent more than once.` };
    const value = all[0];
    if (value !== undefined && typeof value !== "string") return { values, problem: `The field ${field} must be text.` };
    if (typeof value === "string" && value.length > 8_192) return { values, problem: `The field ${field} is too long.` };
    values[field] = value;
  }
  return { values, problem: null };
}
