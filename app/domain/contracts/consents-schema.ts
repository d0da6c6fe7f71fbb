// Made by `npm run forms` from the form schemas of app/domain (decisions 057 and 063): change a schema, then run it.
import { formContract } from "~/lib/form-contract";
import type { ConsentsSchema as Schema } from "../account-forms";

export const ConsentsSchema = formContract<typeof Schema>("ConsentsSchema", {
  marketingEmail: { required: false },
  marketingSms: { required: false },
});
