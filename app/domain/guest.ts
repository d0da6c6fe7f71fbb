import { z } from "zod";
import { isPhoneNumber, phoneDigits } from "~/lib/phone";

/** Tags every new guest gets (spec section 5). */
export const BASE_TAGS = ["Booking Lead", "NBF"] as const;

export const INVALID_EMAIL = "The email address you entered is not valid. Please check the email and try again";
export const INVALID_MOBILE = "Mobile number you entered is not valid. Please check the number and try again";
export const CORRECT_ERRORS = "Please correct the errors below.";

export const GuestDetailsSchema = z.object({
  firstName: z
    .string({ error: "Please enter your first name" })
    .trim()
    .min(1, "Please enter your first name")
    .max(50, "Please use at most 50 characters"),
  lastName: z
    .string({ error: "Please enter your last name" })
    .trim()
    .min(1, "Please enter your last name")
    .max(50, "Please use at most 50 characters"),
  email: z.string({ error: INVALID_EMAIL }).trim().max(254, INVALID_EMAIL).pipe(z.email(INVALID_EMAIL)),
  phone: z
    .string({ error: INVALID_MOBILE })
    .max(20, INVALID_MOBILE)
    .refine(isPhoneNumber, INVALID_MOBILE)
    .transform((value) => phoneDigits(value)),
});

export type GuestDetailsInput = z.infer<typeof GuestDetailsSchema>;

/** Field errors of a form submission, first message per field. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    errors[key] ??= issue.message;
  }
  return errors;
}
