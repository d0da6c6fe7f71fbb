import type { Analytics, AnalyticsEvent, EventProperties } from "../../server/analytics/analytics.server";

/** An analytics adapter for tests: keeps every event recorded, so a test can say which were. */
export function createRecordingAnalytics(): Analytics & { events: AnalyticsEvent<EventProperties>[] } {
  const events: AnalyticsEvent<EventProperties>[] = [];
  return {
    kind: "off",
    events,
    record(event) {
      events.push(event as AnalyticsEvent<EventProperties>);
    },
    flush: async () => {},
    close: async () => {},
    stats: () => ({ queued: 0, sent: events.length, dropped: 0, failedBatches: 0 }),
  };
}
