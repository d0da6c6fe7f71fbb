// Made by `npm run forms` from the form schemas of app/domain (decisions 057 and 063): change a schema, then run it.
import { formContract } from "~/lib/form-contract";
import type { WaitlistJoinSchema as Schema } from "../waitlist";

export const WaitlistJoinSchema = formContract<typeof Schema>("WaitlistJoinSchema", {
  clinic: { required: true, minLength: 1, maxLength: 64 },
  days: { required: true, multiple: true },
  "days[]": { required: true },
  parts: { required: true, multiple: true },
  "parts[]": { required: true, pattern: "morning|afternoon|evening" },
  therapist: { required: false, maxLength: 64 },
  contact: { required: true, minLength: 1, maxLength: 254 },
  consent: { required: true },
});
