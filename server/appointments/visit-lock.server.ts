import { randomUUID } from "node:crypto";
import type { Services } from "../services";

/**
 * One change of a visit at a time, across every instance: a claim on the shared counters (Redis
 * when several instances run) with room for one. Zenoti moves a visit on every confirm it gets, so
 * two windows confirming at once would both "succeed" and all but the last be told a time the visit
 * does not have; in turn, each reads the visit as it is before changing it.
 */

/** Longer than a change takes (a read of the visits, a confirm, the messages); a lock left by a dead request lapses. */
export const VISIT_LOCK_MS = 30_000;
/** How often a waiting change looks again. */
const VISIT_LOCK_POLL_MS = 50;

export async function oneChangeAtATime<T>(
  services: Pick<Services, "rateLimiter">,
  visitKey: string,
  change: () => Promise<T>,
): Promise<T> {
  const key = `visit-change:${visitKey}`;
  const member = randomUUID();
  // Each lap waits for the one ahead to finish, or for its lock to lapse (then the claim succeeds).
  while ((await services.rateLimiter.claim(key, member, 1, VISIT_LOCK_MS)).limited) {
    await new Promise((resolve) => setTimeout(resolve, VISIT_LOCK_POLL_MS));
  }
  try {
    return await change();
  } finally {
    await services.rateLimiter.release(key, member);
  }
}
