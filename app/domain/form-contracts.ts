// Made by `npm run forms` from the form schemas of app/domain (decision 057): change a schema, then run it.
import { formContract } from "~/lib/form-contract";
import type {
  ChangePasswordSchema,
  ConsentsSchema,
  ForgotPasswordSchema,
  LoginSchema,
  ProfileDetailsSchema,
  RegisterSchema,
  ResendCodeSchema,
  ResetPasswordSchema,
} from "./account-forms";
import type {
  HoldSlotSchema,
  JumpToDateSchema,
  PaymentSchema,
  ResendGuestCodeSchema,
  ServiceChoiceSchema,
  VerifyGuestSchema,
} from "./booking-forms";
import type { CancelVisitSchema } from "./cancel-forms";
import type { GuestDetailsSchema } from "./guest";
import type { BuyItemSchema, GiftCardBalanceSchema, GiftCardSchema } from "./purchases";
import type { ConfirmNewTimeSchema } from "./reschedule-forms";
import type { WaitlistJoinSchema } from "./waitlist";

/** Each form's fields and their HTML constraints, by its schema's name: what `useSchemaForm` draws a form from. */
export const FORMS = {
  BuyItemSchema: formContract<typeof BuyItemSchema>("BuyItemSchema", {
    clinic: { required: true, pattern: "[a-z0-9-]{1,80}" },
    itemId: { required: true, minLength: 1, maxLength: 64 },
    price: { required: true },
    purchaseKey: {
      required: true,
      pattern:
        "[\\s\\S]*(?:^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$)[\\s\\S]*",
    },
  }),
  CancelVisitSchema: formContract<typeof CancelVisitSchema>("CancelVisitSchema", {
    reasonId: { required: true, minLength: 1, maxLength: 64 },
    comment: { required: true, minLength: 1, maxLength: 500 },
  }),
  ChangePasswordSchema: formContract<typeof ChangePasswordSchema>("ChangePasswordSchema", {
    oldPassword: { required: true, maxLength: 128 },
    password: { required: true, maxLength: 128 },
  }),
  ConfirmNewTimeSchema: formContract<typeof ConfirmNewTimeSchema>("ConfirmNewTimeSchema", {
    heldSlot: { required: true, pattern: "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}" },
  }),
  ConsentsSchema: formContract<typeof ConsentsSchema>("ConsentsSchema", {
    marketingEmail: { required: false },
    marketingSms: { required: false },
  }),
  ForgotPasswordSchema: formContract<typeof ForgotPasswordSchema>("ForgotPasswordSchema", {
    email: { required: true, maxLength: 254 },
  }),
  GiftCardBalanceSchema: formContract<typeof GiftCardBalanceSchema>("GiftCardBalanceSchema", {
    number: { required: true, maxLength: 40 },
  }),
  GiftCardSchema: formContract<typeof GiftCardSchema>("GiftCardSchema", {
    clinic: { required: true, pattern: "[a-z0-9-]{1,80}" },
    templateId: { required: true, minLength: 1, maxLength: 64 },
    customAmount: { required: false, maxLength: 12 },
    occasionId: { required: true, minLength: 1, maxLength: 64 },
    recipientName: { required: true, minLength: 1, maxLength: 80 },
    recipientEmail: { required: true, maxLength: 254 },
    message: { required: false, maxLength: 250 },
    deliveryDate: { required: true, pattern: "\\d{4}-\\d{2}-\\d{2}" },
    purchaseKey: {
      required: true,
      pattern:
        "[\\s\\S]*(?:^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$)[\\s\\S]*",
    },
  }),
  GuestDetailsSchema: formContract<typeof GuestDetailsSchema>("GuestDetailsSchema", {
    firstName: { required: true, minLength: 1, maxLength: 50 },
    lastName: { required: true, minLength: 1, maxLength: 50 },
    email: { required: true, maxLength: 254 },
    phone: { required: true, maxLength: 20 },
    recoveryConsent: { required: false },
  }),
  HoldSlotSchema: formContract<typeof HoldSlotSchema>("HoldSlotSchema", { slot: { required: false } }),
  JumpToDateSchema: formContract<typeof JumpToDateSchema>("JumpToDateSchema", {
    date: { required: true, minLength: 1 },
  }),
  LoginSchema: formContract<typeof LoginSchema>("LoginSchema", {
    email: { required: true, maxLength: 254 },
    password: { required: true, minLength: 1, maxLength: 128 },
  }),
  PaymentSchema: formContract<typeof PaymentSchema>("PaymentSchema", {
    intent: {
      required: true,
      pattern:
        "add\\x2dcard|apply\\x2dpromo|apply\\x2dcoupon|remove\\x2dpromo|use\\x2dpackage|stop\\x2dpackage|confirm|cancel\\x2dbooking",
    },
    payKey: { required: false, maxLength: 64 },
    shownDue: { required: false, pattern: "\\d{1,9}" },
    card: { required: false, maxLength: 64 },
    address: { required: false, maxLength: 120 },
    city: { required: false, maxLength: 80 },
    state: { required: false, maxLength: 2 },
    zip: { required: false, maxLength: 10 },
    promo: { required: false, maxLength: 32 },
    coupon: { required: false, maxLength: 32 },
    policy: { required: false },
  }),
  ProfileDetailsSchema: formContract<typeof ProfileDetailsSchema>("ProfileDetailsSchema", {
    firstName: { required: true, minLength: 1, maxLength: 50 },
    lastName: { required: true, minLength: 1, maxLength: 50 },
    phone: { required: true, maxLength: 20 },
    address: { required: true, minLength: 1, maxLength: 120 },
    city: { required: true, minLength: 1, maxLength: 80 },
    zip: { required: true, maxLength: 5, pattern: "\\d{5}" },
    birthDate: { required: false },
    gender: { required: false, pattern: "0|1|3|\\x2d1" },
    language: { required: false, pattern: "0|1" },
  }),
  RegisterSchema: formContract<typeof RegisterSchema>("RegisterSchema", {
    firstName: { required: true, minLength: 1, maxLength: 50 },
    lastName: { required: true, minLength: 1, maxLength: 50 },
    email: { required: true, maxLength: 254 },
    phone: { required: true, maxLength: 20 },
    centerId: { required: true, minLength: 1, maxLength: 64 },
    address: { required: true, minLength: 1, maxLength: 120 },
    city: { required: true, minLength: 1, maxLength: 80 },
    zip: { required: true, maxLength: 5, pattern: "\\d{5}" },
    birthDate: { required: false },
    gender: { required: false, pattern: "0|1|3|\\x2d1" },
    language: { required: false, pattern: "0|1" },
    password: { required: true, maxLength: 128 },
    referralCode: { required: false, maxLength: 40 },
    marketingEmail: { required: false },
    marketingSms: { required: false },
    ageConfirmed: { required: true },
  }),
  ResendCodeSchema: formContract<typeof ResendCodeSchema>("ResendCodeSchema", {}),
  ResendGuestCodeSchema: formContract<typeof ResendGuestCodeSchema>("ResendGuestCodeSchema", {}),
  ResetPasswordSchema: formContract<typeof ResetPasswordSchema>("ResetPasswordSchema", {
    code: { required: true, maxLength: 6, pattern: "\\d{6}" },
    password: { required: true, maxLength: 128 },
  }),
  ServiceChoiceSchema: formContract<typeof ServiceChoiceSchema>("ServiceChoiceSchema", {
    intent: { required: false, pattern: "total|continue" },
    service: { required: false },
    area: { required: true, multiple: true },
    "area[]": { required: true },
    addOn: { required: true, multiple: true },
    "addOn[]": { required: true },
    therapist: { required: false, maxLength: 64 },
  }),
  VerifyGuestSchema: formContract<typeof VerifyGuestSchema>("VerifyGuestSchema", {
    code: { required: true, maxLength: 6, pattern: "\\d{6}" },
  }),
  WaitlistJoinSchema: formContract<typeof WaitlistJoinSchema>("WaitlistJoinSchema", {
    clinic: { required: true, minLength: 1, maxLength: 64 },
    days: { required: true, multiple: true },
    "days[]": { required: true },
    parts: { required: true, multiple: true },
    "parts[]": { required: true, pattern: "morning|afternoon|evening" },
    therapist: { required: false, maxLength: 64 },
    contact: { required: true, minLength: 1, maxLength: 254 },
    consent: { required: true },
  }),
};
