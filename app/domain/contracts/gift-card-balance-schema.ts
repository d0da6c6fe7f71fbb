// Made by `npm run forms` from the form schemas of app/domain (decisions 057 and 063): change a schema, then run it.
import { formContract } from "~/lib/form-contract";
import type { GiftCardBalanceSchema as Schema } from "../purchases";

export const GiftCardBalanceSchema = formContract<typeof Schema>("GiftCardBalanceSchema", {
  number: { required: true, maxLength: 40 },
});
