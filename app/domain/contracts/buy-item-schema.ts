// Made by `npm run forms` from the form schemas of app/domain (decisions 057 and 063): change a schema, then run it.
import { formContract } from "~/lib/form-contract";
import type { BuyItemSchema as Schema } from "../purchases";

export const BuyItemSchema = formContract<typeof Schema>("BuyItemSchema", {
  clinic: { required: true, pattern: "[a-z0-9-]{1,80}" },
  itemId: { required: true, minLength: 1, maxLength: 64 },
  price: { required: true },
  purchaseKey: {
    required: true,
    pattern:
      "[\\s\\S]*(?:^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$)[\\s\\S]*",
  },
});
