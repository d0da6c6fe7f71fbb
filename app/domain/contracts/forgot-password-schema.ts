// Made by `npm run forms` from the form schemas of app/domain (decisions 057 and 063): change a schema, then run it.
import { formContract } from "~/lib/form-contract";
import type { ForgotPasswordSchema as Schema } from "../account-forms";

export const ForgotPasswordSchema = formContract<typeof Schema>("ForgotPasswordSchema", {
  email: { required: true, maxLength: 254 },
});
