import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { logger } from "../observability/logger.server";
import type { Analytics, AnalyticsStats } from "./analytics.server";
import { createBatcher, createDropLog, DEFAULT_CLOSE_TIMEOUT_MS } from "./batcher.server";
import { type CapturedEvent, capturedLength, captureEvent, MAX_EVENT_BYTES, serializeEvent } from "./events.server";
import { httpBatcherOptions, type HttpAnalyticsOptions, LOG_INTERVAL_MS } from "./http-analytics.server";

/**
 * The HTTP adapter with its batches on a thread of their own (decision 026). A request only
 * captures its event (the allow-list, a copy) and puts it in a small outbox; the outbox goes to
 * the collector thread in one message per HANDOFF_EVENTS events or HANDOFF_INTERVAL_MS, and that
 * thread does the rest: the bounded queue, the batches of ten, the posts, the retries and the drop
 * log, with the batcher and the delivery of `createHttpAnalytics`. Posting a batch costs more CPU
 * than serving a cached page for ten visitors, so on the request thread it was most of what
 * analytics cost, and a busy instance sent fewer events than it recorded.
 *
 * This module is also the thread's entry: loaded by the thread, it starts the batcher (see the end
 * of the file). `vite.config.ts` gives the analytics modules a chunk of their own, so the thread
 * loads these few modules and never the rest of the server.
 */

/** The settings the collector thread is started with; plain data, copied to the thread. */
export type ThreadedHttpAnalyticsOptions = Pick<
  HttpAnalyticsOptions,
  | "url"
  | "writeKey"
  | "includeContact"
  | "timeoutMs"
  | "retryBaseDelayMs"
  | "maxRetryDelayMs"
  | "maxAttempts"
  | "flushIntervalMs"
  | "maxQueuedEvents"
  | "maxQueuedBytes"
  | "logIntervalMs"
> & {
  /**
   * The thread's scheduling priority: `lowest` (the default, THREAD_NICE) lets a saturated machine
   * serve requests first; `process` keeps the process's own, for the tests of what is delivered,
   * which a busy machine must not starve.
   */
  priority?: "lowest" | "process";
};

/** Events handed to the thread in one message: the cost of a message is shared by this many page views. */
export const HANDOFF_EVENTS = 100;
/** An outbox that is not full is handed over this long after its first event; the batches' own wait (one second) starts there. */
export const HANDOFF_INTERVAL_MS = 50;
/**
 * Hand-overs the thread has not yet taken in: past this many (the thread's queue size in events),
 * the outbox is dropped and counted instead of posted, so a thread starved of CPU on a saturated
 * machine cannot make its messages pile up in memory.
 */
export const MAX_PENDING_HANDOFFS = 10;
/** How long `close` waits for the thread past its own deadline before stopping it. */
const CLOSE_GRACE_MS = 1_000;
/** The thread's heap: its queue is bounded (MAX_QUEUED_BYTES), so more than this is a fault. */
const THREAD_HEAP_MB = 64;

const ROLE = "analytics-collector";

type ToThread =
  | { type: "events"; events: CapturedEvent[] }
  | { type: "flush"; id: number }
  | { type: "close"; id: number; timeoutMs: number };
/**
 * `taken`: a hand-over was queued; `done`: a flush or close finished. Both carry the thread's counts
 * and the size of the batch it is sending, so that a thread that dies leaves a count of what it held.
 */
type FromThread =
  | { type: "taken"; stats: AnalyticsStats; inFlight: number }
  | { type: "done"; id: number; stats: AnalyticsStats; inFlight: number };

const NO_STATS: AnalyticsStats = { queued: 0, sent: 0, dropped: 0, failedBatches: 0 };

/**
 * The thread's code: this module's file. The built server's chunk is plain JavaScript; the source
 * (the dev server, the unit tests) is TypeScript, which the thread loads through tsx's API, as
 * Node 20 does not hand a loader registered with `--import` to a worker's entry.
 */
function startThread(options: ThreadedHttpAnalyticsOptions, entry = new URL(import.meta.url)): Worker {
  const settings = { workerData: { role: ROLE, options }, resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB } };
  if (!entry.pathname.endsWith(".ts")) return new Worker(entry, settings);
  const href = JSON.stringify(entry.href);
  return new Worker(`import("tsx/esm/api").then(({ tsImport }) => tsImport(${href}, ${href}))`, {
    ...settings,
    eval: true,
  });
}

/** `threadEntry` is for the tests of a thread that fails: by default the thread runs this module. */
export function createThreadedHttpAnalytics(options: ThreadedHttpAnalyticsOptions, threadEntry?: URL): Analytics {
  const clock = Date.now;
  const thread = startThread(options, threadEntry);
  const drops = createDropLog({ adapter: "http", intervalMs: options.logIntervalMs ?? LOG_INTERVAL_MS, clock });
  let droppedHere = 0;
  let threadStats = NO_STATS;
  let threadInFlight = 0;
  let outbox: CapturedEvent[] = [];
  let handoffTimer: NodeJS.Timeout | null = null;
  /** The sizes of the hand-overs posted and not yet taken, oldest first. */
  const untaken: number[] = [];
  const untakenEvents = () => untaken.reduce((sum, size) => sum + size, 0);
  let stopped: string | null = null;
  let closing: Promise<void> | null = null;
  let nextId = 0;
  const replies = new Map<number, () => void>();

  const drop = (reason: Parameters<typeof drops.count>[0], events: number, failure?: string) => {
    droppedHere += events;
    drops.count(reason, events, failure);
  };

  /**
   * The thread is gone (it failed, ran out of memory, or was stopped at close): what it held, as of
   * its last report, and what was on its way to it are counted as lost; later events are counted as
   * lost too, and messages it left behind are not read.
   */
  const threadStopped = (why: string) => {
    if (stopped) return;
    stopped = why;
    if (!closing) logger.error("analytics collector thread stopped", { why });
    const lost = threadStats.queued + threadInFlight + untakenEvents() + outbox.length;
    drop("undeliverable", lost, why);
    threadStats = { ...threadStats, queued: 0 };
    threadInFlight = 0;
    untaken.length = 0;
    outbox = [];
    for (const resolve of replies.values()) resolve();
    replies.clear();
  };
  thread.on("error", (error) => threadStopped((error as NodeJS.ErrnoException).code ?? error.name));
  thread.on("exit", (code) => threadStopped(`exit ${code}`));
  thread.on("message", (message: FromThread) => {
    if (stopped) return;
    threadStats = message.stats;
    threadInFlight = message.inFlight;
    if (message.type === "taken") untaken.shift();
    else {
      replies.get(message.id)?.();
      replies.delete(message.id);
    }
  });
  // Waiting events never keep the process up; `close` is how a shutdown sends them. (After the
  // listener: listening on a worker's messages refs it again.)
  thread.unref();

  const post = (message: ToThread) => {
    if (!stopped) thread.postMessage(message);
  };

  const handOff = () => {
    if (handoffTimer) clearTimeout(handoffTimer);
    handoffTimer = null;
    if (outbox.length === 0) return;
    if (untaken.length >= MAX_PENDING_HANDOFFS) drop("queueFull", outbox.length);
    else if (!stopped) {
      untaken.push(outbox.length);
      thread.postMessage({ type: "events", events: outbox } satisfies ToThread);
    }
    outbox = [];
  };

  /** Hands the outbox over, then asks the thread for `message`; resolves on its answer (or at once when it is gone). */
  const ask = (message: { type: "flush" } | { type: "close"; timeoutMs: number }) => {
    handOff();
    if (stopped) return Promise.resolve();
    nextId += 1;
    const id = nextId;
    return new Promise<void>((resolve) => {
      replies.set(id, resolve);
      post({ ...message, id });
    });
  };

  return {
    kind: "http",
    record(event) {
      if (closing) return drop("afterClose", 1);
      try {
        // The allow-list and the copy happen here, in the request; the id and the JSON on the thread.
        const captured = captureEvent(event, { includeContact: options.includeContact, clock });
        if (!captured) return drop("invalid", 1);
        // Refused here rather than on the thread, so that no outbox holds more than its events' limit.
        if (capturedLength(captured) > MAX_EVENT_BYTES) return drop("tooLarge", 1);
        if (stopped) return drop("undeliverable", 1, stopped);
        outbox.push(captured);
      } catch {
        // A getter that throws, a proxy: the caller's response must not fail over analytics.
        return drop("invalid", 1);
      }
      if (outbox.length >= HANDOFF_EVENTS) handOff();
      else if (!handoffTimer) {
        handoffTimer = setTimeout(handOff, HANDOFF_INTERVAL_MS);
        handoffTimer.unref();
      }
    },
    flush: () => ask({ type: "flush" }),
    close(timeoutMs = DEFAULT_CLOSE_TIMEOUT_MS) {
      closing ??= (async () => {
        let deadline: NodeJS.Timeout | undefined;
        const outOfTime = new Promise<void>((resolve) => {
          deadline = setTimeout(resolve, timeoutMs + CLOSE_GRACE_MS);
        });
        await Promise.race([ask({ type: "close", timeoutMs }), outOfTime]);
        clearTimeout(deadline);
        // Done: the thread counted what it could not send. Out of time: what it held is counted here.
        threadStopped("closed");
        await thread.terminate();
        drops.write();
      })();
      return closing;
    },
    stats: () => ({
      queued: threadStats.queued + untakenEvents() + outbox.length,
      sent: threadStats.sent,
      dropped: threadStats.dropped + droppedHere,
      failedBatches: threadStats.failedBatches,
    }),
  };
}

/**
 * The collector thread's scheduling priority (a nice value, 19 the lowest): on a machine with CPU
 * to spare it sends every event; on one that is saturated, the requests go first and the thread's
 * bounded queue drops its oldest events, counted and logged.
 */
const THREAD_NICE = 19;

/** Linux gives each thread its own nice value; elsewhere, or when refused, the thread keeps the process's. */
function lowerThisThreadsPriority() {
  try {
    const threadId = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (Number.isInteger(threadId) && threadId > 0) setPriority(threadId, THREAD_NICE);
  } catch {
    // not Linux, or not allowed
  }
}

/** The collector thread: the HTTP adapter's batcher, fed with events already captured. */
function runCollectorThread(options: ThreadedHttpAnalyticsOptions) {
  if (options.priority !== "process") lowerThisThreadsPriority();
  const port = parentPort!;
  const batcher = createBatcher(httpBatcherOptions(options));
  port.on("message", async (message: ToThread) => {
    if (message.type === "events") {
      for (const captured of message.events) {
        const prepared = serializeEvent(captured);
        if (prepared.bytes > MAX_EVENT_BYTES) batcher.drop("tooLarge", 1);
        else batcher.add(prepared);
      }
      port.postMessage({ type: "taken", stats: batcher.stats(), inFlight: batcher.inFlight() } satisfies FromThread);
      return;
    }
    if (message.type === "flush") await batcher.flush();
    else await batcher.close(message.timeoutMs);
    port.postMessage({
      type: "done",
      id: message.id,
      stats: batcher.stats(),
      inFlight: batcher.inFlight(),
    } satisfies FromThread);
  });
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === ROLE) {
  runCollectorThread((workerData as { options: ThreadedHttpAnalyticsOptions }).options);
}
