// Made by `npm run forms` from the form schemas of app/domain (decisions 057 and 063): change a schema, then run it.
import { formContract } from "~/lib/form-contract";
import type { ConfirmNewTimeSchema as Schema } from "../reschedule-forms";

export const ConfirmNewTimeSchema = formContract<typeof Schema>("ConfirmNewTimeSchema", {
  heldSlot: { required: true, pattern: "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}" },
});
