import { z } from "zod";
import { isReferralCode, normalizeReferralCode } from "./attribution";
import { ACCOUNT_MESSAGES } from "./accounts";
import { INVALID_EMAIL, INVALID_MOBILE } from "./guest";
import { failedPasswordRules, PASSWORD_MAX_LENGTH } from "./password-rules";
import { phoneDigits } from "~/lib/phone";

/**
 * The account forms' schemas, one per form (decision 013). Every check says what to do in its own
 * words (the spec's where it has them), so zod's own messages never reach a visitor. The order of
 * the fields is the order on the page: the first field with an error is the one focused.
 */

const tooLong = (max: number) => `Please use at most ${max} characters`;

/** A text that must be filled in, trimmed, with its message for missing and for too long. */
export const requiredText = (message: string, max: number) => z.string({ error: message }).trim().min(1, message).max(max, tooLong(max));

/** A checkbox: ticked sends "on", unticked sends nothing. */
const optionalCheckbox = (message: string) => z.literal("on", { error: message }).optional().transform(Boolean);

export const EmailField = z.string({ error: INVALID_EMAIL }).trim().max(254, INVALID_EMAIL).pipe(z.email(INVALID_EMAIL));

export const MobileField = z
  .string({ error: INVALID_MOBILE })
  .max(20, INVALID_MOBILE)
  .refine((v) => /^[\d\s().-]*$/.test(v) && v.replace(/\D/g, "").length === 10, INVALID_MOBILE)
  .transform(phoneDigits);

const ZIP_MESSAGE = "Please enter a 5-digit ZIP code";
export const ZipField = z.string({ error: ZIP_MESSAGE }).trim().max(5, ZIP_MESSAGE).regex(/^\d{5}$/, ZIP_MESSAGE);

export const NewPassword = z
  .string({ error: "Please enter a password" })
  .max(PASSWORD_MAX_LENGTH, tooLong(PASSWORD_MAX_LENGTH))
  .superRefine((value, ctx) => {
    const failed = failedPasswordRules(value);
    if (failed.length) ctx.addIssue({ code: "custom", message: `Your password needs: ${failed.join("; ")}` });
  });

export const RegisterSchema = z.object({
  firstName: requiredText("Please enter your first name", 50),
  lastName: requiredText("Please enter your last name", 50),
  email: EmailField,
  phone: MobileField,
  centerId: requiredText("Please choose your home clinic", 64),
  address: requiredText("Please enter your address", 120),
  city: requiredText("Please enter your city", 80),
  zip: ZipField,
  password: NewPassword,
  referralCode: z
    .string({ error: "That referral code is not valid" })
    .trim()
    .max(40, "That referral code is too long")
    .refine((v) => v === "" || isReferralCode(v), "That referral code is not valid. Codes look like MIA-7K3Q.")
    .optional()
    .transform((v) => (v ? normalizeReferralCode(v) : null)),
  marketingEmail: optionalCheckbox("Please tick the box for offers by email, or leave it empty"),
  marketingSms: optionalCheckbox("Please tick the box for offers by text, or leave it empty"),
  ageConfirmed: z.literal("on", { error: ACCOUNT_MESSAGES.ageOfMajority }),
});

export const LoginSchema = z.object({
  email: EmailField,
  password: z.string({ error: "Please enter your password" }).min(1, "Please enter your password").max(PASSWORD_MAX_LENGTH, "That password is too long"),
});

export const ForgotPasswordSchema = z.object({ email: EmailField });

export const CODE_MESSAGE = "Please enter the 6-digit code we sent you.";
/** A 6-digit one-time code as typed. */
export const OneTimeCodeField = z.string({ error: CODE_MESSAGE }).trim().max(6, CODE_MESSAGE).regex(/^\d{6}$/, CODE_MESSAGE);
export const ResetPasswordSchema = z.object({
  code: OneTimeCodeField,
  password: NewPassword,
});

/** Asking for another code: a button, nothing to fill in. */
export const ResendCodeSchema = z.object({});

export const ProfileDetailsSchema = z.object({
  firstName: requiredText("Please enter your first name", 50),
  lastName: requiredText("Please enter your last name", 50),
  phone: MobileField,
  address: requiredText("Please enter your address", 120),
  city: requiredText("Please enter your city", 80),
  zip: ZipField,
});

export const ConsentsSchema = z.object({
  marketingEmail: optionalCheckbox("Please tick the box for offers by email, or leave it empty"),
  marketingSms: optionalCheckbox("Please tick the box for offers by text, or leave it empty"),
});

export const ChangePasswordSchema = z.object({
  oldPassword: z.string({ error: ACCOUNT_MESSAGES.oldPassword }).max(PASSWORD_MAX_LENGTH, ACCOUNT_MESSAGES.oldPassword),
  password: NewPassword,
});
