import type { AnalyticsEvent, EventProperties } from "./events.server";

export { EVENT_NAMES, MAX_EVENT_BYTES, sanitizeProperties } from "./events.server";
export type { AnalyticsEvent, EventName, EventProperties, RecordedEvent } from "./events.server";

/** Counts since the adapter was made. `dropped` counts events, whatever lost them (a full queue, a failed batch, a close out of time). */
export type AnalyticsStats = {
  /** Events waiting to be sent (not counting the batch in flight). */
  queued: number;
  /** Events the collector accepted, or lines written. */
  sent: number;
  dropped: number;
  /** Batches given up on after their attempts; their events are in `dropped`. */
  failedBatches: number;
};

/**
 * What the storefront records about a visit: the steps of a booking, an account or a purchase.
 * Recording never slows a response and never fails one: events are queued in memory and sent in
 * the background, and an event that cannot be kept is counted, not thrown (decision 026).
 */
export interface Analytics {
  readonly kind: "http" | "file" | "off";
  /** Queues the event: synchronous, constant time, never throws, never waits for the network. */
  record<P extends EventProperties>(event: AnalyticsEvent<P>): void;
  /** Resolves once every event recorded so far is sent, written or dropped. */
  flush(): Promise<void>;
  /** At shutdown: sends what is queued within `timeoutMs` (5 s by default), then stops; later events are dropped. */
  close(timeoutMs?: number): Promise<void>;
  stats(): AnalyticsStats;
}

/** Records nothing; for tests and for code that needs an `Analytics` it will not use. */
export function createNoAnalytics(): Analytics {
  return {
    kind: "off",
    record() {},
    flush: async () => {},
    close: async () => {},
    stats: () => ({ queued: 0, sent: 0, dropped: 0, failedBatches: 0 }),
  };
}
