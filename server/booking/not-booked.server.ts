import { z } from "zod";
import { requestSession, type RequestContext } from "../request-context.server";

/**
 * What became of a booking that ended without an appointment (a payment that failed, a hold that
 * ran out, an attempt nobody finished), said on the booking step the visitor is sent back to. It
 * rides in the encrypted session as a flash: never in the address, where a link could make a page
 * say a booking failed that never existed, and never in a toast that fades before it is read.
 */
export const NotBookedSchema = z.object({
  kind: z.enum(["payment-failed", "hold-expired", "not-finished"]),
  /** The time that was held, clinic-local ("YYYY-MM-DDTHH:mm:ss"), now let go. */
  slot: z.string().max(19).optional(),
  /** Where the visitor goes on: the time step with their choices, or the clinic's treatments (the employee flow). */
  resume: z.enum(["time", "service"]),
});
export type NotBooked = z.infer<typeof NotBookedSchema>;

/** Said on the next booking step this browser opens that shows it (the time or the treatment step). */
export function flashNotBooked(context: RequestContext, notBooked: NotBooked) {
  requestSession(context).flash("notBooked", notBooked);
}

/** Reads and clears what is waiting to be said; anything that is not one is dropped. */
export function takeNotBooked(context: RequestContext): NotBooked | null {
  const parsed = NotBookedSchema.safeParse(requestSession(context).get("notBooked"));
  return parsed.success ? parsed.data : null;
}
