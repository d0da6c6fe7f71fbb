// Made by `npm run forms` from the form schemas of app/domain (decisions 057 and 063): change a schema, then run it.
import { formContract } from "~/lib/form-contract";
import type { GiftCardSchema as Schema } from "../purchases";

export const GiftCardSchema = formContract<typeof Schema>("GiftCardSchema", {
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
});
