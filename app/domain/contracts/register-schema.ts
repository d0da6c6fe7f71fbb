// Made by `npm run forms` from the form schemas of app/domain (decisions 057 and 063): change a schema, then run it.
import { formContract } from "~/lib/form-contract";
import type { RegisterSchema as Schema } from "../account-forms";

export const RegisterSchema = formContract<typeof Schema>("RegisterSchema", {
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
});
