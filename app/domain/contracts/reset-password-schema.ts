// Made by `npm run forms` from the form schemas of app/domain (decisions 057 and 063): change a schema, then run it.
import { formContract } from "~/lib/form-contract";
import type { ResetPasswordSchema as Schema } from "../account-forms";

export const ResetPasswordSchema = formContract<typeof Schema>("ResetPasswordSchema", {
  code: { required: true, maxLength: 6, pattern: "\\d{6}" },
  password: { required: true, maxLength: 128 },
});
