// Made by `npm run forms` from the form schemas of app/domain (decisions 057 and 063): change a schema, then run it.
import { formContract } from "~/lib/form-contract";
import type { ResendCodeSchema as Schema } from "../account-forms";

export const ResendCodeSchema = formContract<typeof Schema>("ResendCodeSchema", {});
