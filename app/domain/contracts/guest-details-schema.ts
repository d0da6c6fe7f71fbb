// Made by `npm run forms` from the form schemas of app/domain (decisions 057 and 063): change a schema, then run it.
import { formContract } from "~/lib/form-contract";
import type { GuestDetailsSchema as Schema } from "../guest";

export const GuestDetailsSchema = formContract<typeof Schema>("GuestDetailsSchema", {
  firstName: { required: true, minLength: 1, maxLength: 50 },
  lastName: { required: true, minLength: 1, maxLength: 50 },
  email: { required: true, maxLength: 254 },
  phone: { required: true, maxLength: 20 },
  recoveryConsent: { required: false },
});
