// Made by `npm run forms` from the form schemas of app/domain (decisions 057 and 063): change a schema, then run it.
import { formContract } from "~/lib/form-contract";
import type { ResendGuestCodeSchema as Schema } from "../booking-forms";

export const ResendGuestCodeSchema = formContract<typeof Schema>("ResendGuestCodeSchema", {});
