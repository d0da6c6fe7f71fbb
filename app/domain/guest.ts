import { z } from "zod";
import { defineSchema } from "~/lib/define-schema";
import { isPhoneNumber, phoneDigits } from "~/lib/phone";

/** Tags every new guest gets (spec section 5). */
export const BASE_TAGS = ["Booking Lead", "NBF"] as const;

export const INVALID_EMAIL = "The email address you entered is not valid. Please check the email and try again";
export const INVALID_MOBILE = "Mobile number you entered is not valid. Please check the number and try again";
export const CORRECT_ERRORS = "Please correct the errors below.";

/** An email address, trimmed, in our words when it is not one. */
export const EmailField = defineSchema(() =>
  z.string({ error: INVALID_EMAIL }).trim().max(254, INVALID_EMAIL).pipe(z.email(INVALID_EMAIL)),
);

/** A US mobile number as typed (spaces, dashes, a leading 1), kept as its ten digits. */
export const MobileField = defineSchema(() =>
  z
    .string({ error: INVALID_MOBILE })
    .max(20, INVALID_MOBILE)
    .refine(isPhoneNumber, INVALID_MOBILE)
    .transform(phoneDigits),
);

const FirstNameField = defineSchema(() =>
  z
    .string({ error: "Please enter your first name" })
    .trim()
    .min(1, "Please enter your first name")
    .max(50, "Please use at most 50 characters"),
);

const LastNameField = defineSchema(() =>
  z
    .string({ error: "Please enter your last name" })
    .trim()
    .min(1, "Please enter your last name")
    .max(50, "Please use at most 50 characters"),
);

/** The box a guest ticks for one message with a link back to a booking they leave unfinished (decision 059). */
export const RECOVERY_CONSENT_LABEL =
  "If I don't finish, send one reminder to my inbox with a link back to this booking and the nearest open times.";

/** The guest's details on the booking's details step, and whether they want the recovery message (unticked by default). */
export const GuestDetailsSchema = defineSchema(() =>
  z.object({
    firstName: FirstNameField,
    lastName: LastNameField,
    email: EmailField,
    phone: MobileField,
    recoveryConsent: z
      .literal("on", { error: "Please tick the box for the reminder, or leave it empty" })
      .optional()
      .transform(Boolean),
  }),
);

/** The details themselves, as the booking keeps them (the consent is not one of them). */
export type GuestDetailsInput = Omit<z.infer<typeof GuestDetailsSchema>, "recoveryConsent">;

/** Field errors of a form submission, first message per field. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    errors[key] ??= issue.message;
  }
  return errors;
}
