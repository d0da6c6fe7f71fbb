// Made by `npm run forms` from the form schemas of app/domain (decisions 057 and 063): change a schema, then run it.
import { formContract } from "~/lib/form-contract";
import type { CancelVisitSchema as Schema } from "../cancel-forms";

export const CancelVisitSchema = formContract<typeof Schema>("CancelVisitSchema", {
  reasonId: { required: true, minLength: 1, maxLength: 64 },
  comment: { required: true, minLength: 1, maxLength: 500 },
});
