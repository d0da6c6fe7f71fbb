// Made by `npm run forms` from the form schemas of app/domain (decisions 057 and 063): change a schema, then run it.
import { formContract } from "~/lib/form-contract";
import type { PaymentSchema as Schema } from "../booking-forms";

export const PaymentSchema = formContract<typeof Schema>("PaymentSchema", {
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
});
