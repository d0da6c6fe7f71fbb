import { z } from "zod";
import { defineSchema } from "~/lib/define-schema";
import { PAGE_OUT_OF_DATE } from "./booking-forms";

/**
 * The reschedule page's forms. Choosing a new time is the time step's own form (HoldSlotSchema);
 * confirming names the held time it was shown, so a page older than the hold is caught.
 */
const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

export const ConfirmNewTimeSchema = defineSchema(() =>
  z.object({
    heldSlot: z.string({ error: PAGE_OUT_OF_DATE }).regex(LOCAL_TIME, PAGE_OUT_OF_DATE),
  }),
);
