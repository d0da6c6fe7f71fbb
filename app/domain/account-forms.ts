import { z } from "zod";
import { defineSchema } from "~/lib/define-schema";
import { isReferralCode, normalizeReferralCode } from "./attribution";
import { ACCOUNT_MESSAGES } from "./accounts";
import { EmailField, MobileField } from "./guest";
import { failedPasswordRules, PASSWORD_MAX_LENGTH } from "./password-rules";

/**
 * The account forms' schemas, one per form (decision 013). Every check says what to do in its own
 * words (the spec's where it has them), so zod's own messages never reach a visitor. The order of
 * the fields is the order on the page: the first field with an error is the one focused.
 */

const tooLong = (max: number) => `Please use at most ${max} characters`;

/** A text that must be filled in, trimmed, with its message for missing and for too long. */
export const requiredText = (message: string, max: number) =>
  z.string({ error: message }).trim().min(1, message).max(max, tooLong(max));

/** A checkbox: ticked sends "on", unticked sends nothing. */
const optionalCheckbox = (message: string) => z.literal("on", { error: message }).optional().transform(Boolean);

const ZIP_MESSAGE = "Please enter a 5-digit ZIP code";
export const ZipField = defineSchema(() =>
  z
    .string({ error: ZIP_MESSAGE })
    .trim()
    .max(5, ZIP_MESSAGE)
    .regex(/^\d{5}$/, ZIP_MESSAGE),
);

/** The spec's earliest birth date (section 5): a guest born before it is refused. */
export const EARLIEST_BIRTH_DATE = "1940-01-01";

export const BIRTH_DATE_MESSAGES = {
  format: "Please enter your birth date as a date, for example 1990-04-18",
  early: "Please enter a birth date on or after January 1, 1940",
  future: "Your birth date cannot be in the future",
  required: "Please enter your birth date: our clinics need it for your record",
} as const;

/** A real day of the calendar written YYYY-MM-DD (what a date input sends). */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** Today where the form is filled in or read, YYYY-MM-DD. */
export function localToday(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** Age in whole years on `today` (both YYYY-MM-DD): one more on each birthday, a 29 February one on 1 March. */
export function ageInWholeYears(birthDate: string, today: string): number {
  const years = Number(today.slice(0, 4)) - Number(birthDate.slice(0, 4));
  return today.slice(5) < birthDate.slice(5) ? years - 1 : years;
}

/**
 * A birth date, optional (decision 039): empty is null, never a made-up date. When given, a real
 * date from 1940-01-01 (the spec's earliest) to today.
 */
export const BirthDateField = defineSchema(() =>
  z
    .string({ error: BIRTH_DATE_MESSAGES.format })
    .trim()
    .superRefine((value, ctx) => {
      if (value === "") return;
      if (!isCalendarDate(value)) ctx.addIssue({ code: "custom", message: BIRTH_DATE_MESSAGES.format });
      else if (value < EARLIEST_BIRTH_DATE) ctx.addIssue({ code: "custom", message: BIRTH_DATE_MESSAGES.early });
      else if (value > localToday()) ctx.addIssue({ code: "custom", message: BIRTH_DATE_MESSAGES.future });
    })
    .optional()
    .transform((value) => value || null),
);

/**
 * Zenoti's guest genders (personal_info.gender): the spec's three choices, and Zenoti's Other (3),
 * kept for a guest a clinic filed so. Not given is Not specified.
 */
export const GENDERS = [
  { value: 1, label: "Male" },
  { value: 0, label: "Female" },
  { value: -1, label: "Not specified" },
] as const;
export const OTHER_GENDER = { value: 3, label: "Other" } as const;
export const GENDER_MESSAGE = "Please choose Male, Female or Not specified";
export const GENDER_REQUIRED = "Please choose Male or Female: our clinics need it for your record";
export const GenderField = defineSchema(() =>
  z
    .enum(["1", "0", "-1", "3"], { error: GENDER_MESSAGE })
    .optional()
    .transform((value) => (value === undefined ? -1 : Number(value))),
);

/**
 * The spec's language choices (section 3: Select Language=0, English-US=1). "Select language" is
 * none given: never sent to the back end as if 0 were a language (decision 043).
 */
export const NO_LANGUAGE = { value: 0, label: "Select language" } as const;
export const LANGUAGES = [{ value: 1, label: "English (US)" }] as const;
export type Language = (typeof LANGUAGES)[number]["value"];
export const LANGUAGE_MESSAGE = "Please choose a language from the list, or leave it at “Select language”";
const LANGUAGE_VALUES = [NO_LANGUAGE, ...LANGUAGES].map((l) => String(l.value)) as [string, ...string[]];
/** Optional: none chosen is null. */
export const LanguageField = defineSchema(() =>
  z
    .enum(LANGUAGE_VALUES, { error: LANGUAGE_MESSAGE })
    .optional()
    .transform((value): Language | null => LANGUAGES.find((l) => String(l.value) === value)?.value ?? null),
);

/** The language choice for a language the back end holds, or none for one the form does not offer. */
export function languageChoice(language: number | null): Language | null {
  return LANGUAGES.find((l) => l.value === language)?.value ?? null;
}

export const NewPassword = defineSchema(() =>
  z
    .string({ error: "Please enter a password" })
    .max(PASSWORD_MAX_LENGTH, tooLong(PASSWORD_MAX_LENGTH))
    .superRefine((value, ctx) => {
      const failed = failedPasswordRules(value);
      if (failed.length) ctx.addIssue({ code: "custom", message: `Your password needs: ${failed.join("; ")}` });
    }),
);

export const RegisterSchema = defineSchema(() =>
  z.object({
    firstName: requiredText("Please enter your first name", 50),
    lastName: requiredText("Please enter your last name", 50),
    email: EmailField,
    phone: MobileField,
    centerId: requiredText("Please choose your home clinic", 64),
    address: requiredText("Please enter your address", 120),
    city: requiredText("Please enter your city", 80),
    zip: ZipField,
    birthDate: BirthDateField,
    gender: GenderField,
    language: LanguageField,
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
  }),
);

export const LoginSchema = defineSchema(() =>
  z.object({
    email: EmailField,
    password: z
      .string({ error: "Please enter your password" })
      .min(1, "Please enter your password")
      .max(PASSWORD_MAX_LENGTH, "That password is too long"),
  }),
);

export const ForgotPasswordSchema = defineSchema(() => z.object({ email: EmailField }));

export const CODE_MESSAGE = "Please enter the 6-digit code we sent you.";
/** A 6-digit one-time code as typed. */
export const OneTimeCodeField = defineSchema(() =>
  z
    .string({ error: CODE_MESSAGE })
    .trim()
    .max(6, CODE_MESSAGE)
    .regex(/^\d{6}$/, CODE_MESSAGE),
);
export const ResetPasswordSchema = defineSchema(() =>
  z.object({
    code: OneTimeCodeField,
    password: NewPassword,
  }),
);

/** Asking for another code: a button, nothing to fill in. */
export const ResendCodeSchema = defineSchema(() => z.object({}));

export const ProfileDetailsSchema = defineSchema(() =>
  z.object({
    firstName: requiredText("Please enter your first name", 50),
    lastName: requiredText("Please enter your last name", 50),
    phone: MobileField,
    address: requiredText("Please enter your address", 120),
    city: requiredText("Please enter your city", 80),
    zip: ZipField,
    birthDate: BirthDateField,
    gender: GenderField,
    language: LanguageField,
  }),
);

export const ConsentsSchema = defineSchema(() =>
  z.object({
    marketingEmail: optionalCheckbox("Please tick the box for offers by email, or leave it empty"),
    marketingSms: optionalCheckbox("Please tick the box for offers by text, or leave it empty"),
  }),
);

export const ChangePasswordSchema = defineSchema(() =>
  z.object({
    oldPassword: z
      .string({ error: ACCOUNT_MESSAGES.oldPassword })
      .max(PASSWORD_MAX_LENGTH, ACCOUNT_MESSAGES.oldPassword),
    password: NewPassword,
  }),
);
