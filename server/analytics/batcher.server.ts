import { logger } from "../observability/logger.server";
import type { Analytics, AnalyticsStats } from "./analytics.server";
import { MAX_EVENT_BYTES, prepareEvent, type PreparedEvent } from "./events.server";

/**
 * The background half both adapters share: a bounded queue that drops its oldest events when
 * full, one batch delivered at a time, a send when a batch is full or after a short interval, and
 * a drain at `flush` and `close`. Adding an event is O(1) and never waits for the delivery.
 */

export type QueuedEvent = PreparedEvent & { seq: number };

/** A fixed ring of events, bounded by count and by bytes; pushing into a full ring drops from the front. */
export function createEventQueue(maxEvents: number, maxBytes: number) {
  const slots: (QueuedEvent | undefined)[] = new Array(maxEvents);
  let head = 0;
  let size = 0;
  let bytes = 0;
  const shift = (): QueuedEvent | undefined => {
    if (size === 0) return undefined;
    const event = slots[head];
    slots[head] = undefined;
    head = (head + 1) % maxEvents;
    size -= 1;
    bytes -= event!.bytes;
    return event;
  };
  return {
    get size() {
      return size;
    },
    get bytes() {
      return bytes;
    },
    peek: (): QueuedEvent | undefined => (size === 0 ? undefined : slots[head]),
    shift,
    /** Adds at the back; returns how many events were dropped from the front to make room. */
    push(event: QueuedEvent): number {
      let dropped = 0;
      while (size > 0 && (size >= maxEvents || bytes + event.bytes > maxBytes)) {
        shift();
        dropped += 1;
      }
      slots[(head + size) % maxEvents] = event;
      size += 1;
      bytes += event.bytes;
      return dropped;
    },
    /** Empties the queue; returns how many events it held. */
    clear(): number {
      const count = size;
      while (size > 0) shift();
      return count;
    },
  };
}

export type DropReason = "queueFull" | "tooLarge" | "invalid" | "undeliverable" | "afterClose";

/**
 * Counts lost events and says so in at most one warn line per interval, with the count per reason
 * and the last delivery failure (a status or an error code): never the events themselves.
 */
export function createDropLog(options: { adapter: string; intervalMs: number; clock: () => number }) {
  let pending: Partial<Record<DropReason, number>> = {};
  let lastFailure: string | undefined;
  let lastLoggedAt = -Infinity;
  let timer: NodeJS.Timeout | null = null;

  const write = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (Object.keys(pending).length === 0) return;
    lastLoggedAt = options.clock();
    logger.warn("analytics events dropped", { adapter: options.adapter, ...pending, lastFailure });
    pending = {};
    lastFailure = undefined;
  };

  return {
    count(reason: DropReason, events: number, failure?: string) {
      if (events <= 0) return;
      pending[reason] = (pending[reason] ?? 0) + events;
      if (failure) lastFailure = failure;
      if (timer) return;
      // A flood within one tick becomes one line, written once the flood has passed.
      const wait = Math.max(0, lastLoggedAt + options.intervalMs - options.clock());
      timer = setTimeout(write, wait);
      timer.unref();
    },
    /** Writes what is still pending now (at close). */
    write,
  };
}

export type Delivery = { ok: true } | { ok: false; failure: string };

export type BatcherOptions = {
  adapter: string;
  /** Most events and bytes one batch may hold; `overheadBytes` is what wraps the events (a body's envelope). */
  batch: { maxEvents: number; maxBytes: number; overheadBytes: number; separatorBytes: number };
  maxQueuedEvents: number;
  maxQueuedBytes: number;
  flushIntervalMs: number;
  logIntervalMs: number;
  clock: () => number;
  /**
   * Delivers one batch. `stop` is aborted when `close` runs out of time; the delivery then settles
   * at once (a request is aborted, a retry is not waited for). Never expected to throw.
   */
  deliver(batch: QueuedEvent[], stop: AbortSignal): Promise<Delivery>;
};

export const DEFAULT_CLOSE_TIMEOUT_MS = 5_000;

export function createBatcher(options: BatcherOptions) {
  const { batch: limits } = options;
  const queue = createEventQueue(options.maxQueuedEvents, options.maxQueuedBytes);
  const drops = createDropLog({ adapter: options.adapter, intervalMs: options.logIntervalMs, clock: options.clock });
  const stop = new AbortController();
  const counts = { sent: 0, dropped: 0, failedBatches: 0 };
  let lastSeq = 0;
  /** Events up to this one are sent even if they do not fill a batch (the interval passed, or a flush asked). */
  let drainThrough = 0;
  let inFlightFirstSeq: number | null = null;
  let inFlightEvents = 0;
  let running: Promise<void> | null = null;
  let intervalTimer: NodeJS.Timeout | null = null;
  let soonTimer: NodeJS.Immediate | null = null;
  let closing: Promise<void> | null = null;
  let waiters: { through: number; resolve: () => void }[] = [];

  const drop = (reason: DropReason, events: number, failure?: string) => {
    counts.dropped += events;
    drops.count(reason, events, failure);
  };

  const oldestPending = () => inFlightFirstSeq ?? queue.peek()?.seq ?? Infinity;
  const settled = (through: number) => stop.signal.aborted || oldestPending() > through;
  const settleWaiters = () => {
    if (waiters.length === 0) return;
    const done = waiters.filter((waiter) => settled(waiter.through));
    waiters = waiters.filter((waiter) => !settled(waiter.through));
    for (const waiter of done) waiter.resolve();
  };

  stop.signal.addEventListener("abort", settleWaiters);

  const fullBatchQueued = () =>
    queue.size >= limits.maxEvents ||
    limits.overheadBytes + queue.bytes + (queue.size - 1) * limits.separatorBytes >= limits.maxBytes;
  const shouldSend = () => queue.size > 0 && (fullBatchQueued() || queue.peek()!.seq <= drainThrough);

  /** From the front of the queue, as many events as fit in one batch (at least one: no event is larger than a batch). */
  const takeBatch = (): QueuedEvent[] => {
    const batch: QueuedEvent[] = [];
    let bytes = limits.overheadBytes;
    while (queue.size > 0 && batch.length < limits.maxEvents) {
      const added = queue.peek()!.bytes + (batch.length > 0 ? limits.separatorBytes : 0);
      if (batch.length > 0 && bytes + added > limits.maxBytes) break;
      batch.push(queue.shift()!);
      bytes += added;
    }
    return batch;
  };

  async function pump() {
    while (!stop.signal.aborted && shouldSend()) {
      const batch = takeBatch();
      inFlightFirstSeq = batch[0].seq;
      inFlightEvents = batch.length;
      let delivery: Delivery;
      try {
        delivery = await options.deliver(batch, stop.signal);
      } catch {
        delivery = { ok: false, failure: "error" };
      }
      inFlightFirstSeq = null;
      inFlightEvents = 0;
      if (delivery.ok) {
        counts.sent += batch.length;
      } else {
        counts.failedBatches += 1;
        drop("undeliverable", batch.length, delivery.failure);
      }
      settleWaiters();
    }
  }

  function startSending() {
    if (running || stop.signal.aborted) return;
    if (intervalTimer) clearTimeout(intervalTimer);
    intervalTimer = null;
    running = pump().finally(() => {
      running = null;
      if (shouldSend()) startSending();
      else if (queue.size > 0) armInterval();
      settleWaiters();
    });
  }

  function armInterval() {
    if (intervalTimer || running || closing) return;
    intervalTimer = setTimeout(() => {
      intervalTimer = null;
      drainThrough = lastSeq;
      startSending();
    }, options.flushIntervalMs);
    // Waiting events never keep the process alive; `close` is how a shutdown sends them.
    intervalTimer.unref();
  }

  /** Sends everything added up to now; resolves once each of those events is sent or dropped. */
  function drain(): Promise<void> {
    const through = lastSeq;
    if (settled(through)) return Promise.resolve();
    drainThrough = Math.max(drainThrough, through);
    startSending();
    return new Promise((resolve) => {
      waiters.push({ through, resolve });
      settleWaiters();
    });
  }

  return {
    /** Queues a prepared event; O(1), never throws, never starts a delivery in the caller's turn. */
    add(event: PreparedEvent) {
      if (closing) return drop("afterClose", 1);
      lastSeq += 1;
      const overflow = queue.push({ ...event, seq: lastSeq });
      if (overflow > 0) {
        drop("queueFull", overflow);
        settleWaiters();
      }
      if (fullBatchQueued()) {
        if (!running && !soonTimer) {
          soonTimer = setImmediate(() => {
            soonTimer = null;
            startSending();
          });
        }
      } else {
        armInterval();
      }
    },
    drop,
    flush: drain,
    /** Sends what is queued within `timeoutMs`, then stops: what is left is dropped and counted. */
    close(timeoutMs = DEFAULT_CLOSE_TIMEOUT_MS): Promise<void> {
      closing ??= (async () => {
        if (intervalTimer) clearTimeout(intervalTimer);
        intervalTimer = null;
        // Not unref'd: a shutdown waits for the drain, up to this deadline.
        const deadline = setTimeout(() => stop.abort(), timeoutMs);
        try {
          await drain();
          await running;
        } finally {
          clearTimeout(deadline);
          stop.abort();
          if (soonTimer) clearImmediate(soonTimer);
          soonTimer = null;
          drop("undeliverable", queue.clear());
          settleWaiters();
          drops.write();
        }
      })();
      return closing;
    },
    stats: (): AnalyticsStats => ({ queued: queue.size, ...counts }),
    /** Events of the batch being delivered (not in `queued`). */
    inFlight: () => inFlightEvents,
  };
}

/**
 * An adapter made of a batcher: `record` sanitises and queues, and an event the allow-list refuses
 * by name, that is too large, or that cannot even be read is counted as dropped, never thrown.
 */
export function createQueuedAnalytics(
  kind: Analytics["kind"],
  options: BatcherOptions & { includeContact: boolean; onClosed?: () => Promise<void> },
): Analytics {
  const batcher = createBatcher(options);
  const sanitize = { includeContact: options.includeContact, clock: options.clock };
  let closed: Promise<void> | null = null;
  return {
    kind,
    record(event) {
      try {
        const prepared = prepareEvent(event, sanitize);
        if (!prepared) batcher.drop("invalid", 1);
        else if (prepared.bytes > MAX_EVENT_BYTES) batcher.drop("tooLarge", 1);
        else batcher.add(prepared);
      } catch {
        // A getter that throws, a proxy: the caller's response must not fail over analytics.
        batcher.drop("invalid", 1);
      }
    },
    flush: () => batcher.flush(),
    close(timeoutMs) {
      closed ??= batcher.close(timeoutMs).then(() => options.onClosed?.());
      return closed;
    },
    stats: () => batcher.stats(),
  };
}
