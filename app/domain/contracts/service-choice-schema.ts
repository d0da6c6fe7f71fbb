// Made by `npm run forms` from the form schemas of app/domain (decisions 057 and 063): change a schema, then run it.
import { formContract } from "~/lib/form-contract";
import type { ServiceChoiceSchema as Schema } from "../booking-forms";

export const ServiceChoiceSchema = formContract<typeof Schema>("ServiceChoiceSchema", {
  intent: { required: false, pattern: "total|continue" },
  service: { required: false },
  area: { required: true, multiple: true },
  "area[]": { required: true },
  addOn: { required: true, multiple: true },
  "addOn[]": { required: true },
  therapist: { required: false, maxLength: 64 },
});
