import { logger } from "../observability/logger.server";
import type { Stores, WaitlistSignal } from "./stores.server";

/**
 * Notes for the waitlist's pass that a time may open at a clinic on a day (decision 058): a visit
 * cancelled or moved, a hold that runs out. Features that free a time call it; it never fails
 * their work: a note that cannot be written is logged, and the periodic check finds the time later.
 */
export async function noteTimeMayOpen(stores: Pick<Stores, "waitlist">, signal: WaitlistSignal): Promise<void> {
  try {
    await stores.waitlist.signal(signal);
  } catch (error) {
    logger.warn("waitlist note not written", { error: error instanceof Error ? error.message : String(error) });
  }
}
