// Made by `npm run forms` from the form schemas of app/domain (decisions 057 and 063): change a schema, then run it.
import { formContract } from "~/lib/form-contract";
import type { LoginSchema as Schema } from "../account-forms";

export const LoginSchema = formContract<typeof Schema>("LoginSchema", {
  email: { required: true, maxLength: 254 },
  password: { required: true, minLength: 1, maxLength: 128 },
});
