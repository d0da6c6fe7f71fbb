import { once } from "node:events";
import http from "node:http";
import https from "node:https";
import type { Analytics } from "./analytics.server";
import { type BatcherOptions, createQueuedAnalytics, type Delivery, type QueuedEvent } from "./batcher.server";

/** The product spec's limits for the collector (decision 026 says how each is read). */
export const MAX_BATCH_EVENTS = 10;
export const MAX_BATCH_BYTES = 450 * 1024;
/** The request body is streamed in pieces of at most this size; an event larger than one piece is never sent. */
export const CHUNK_BYTES = 64 * 1024;
export const TIMEOUT_MS = 5_000;
export const MAX_RETRY_DELAY_MS = 5_000;

/** First retry delay; each next one doubles, up to MAX_RETRY_DELAY_MS. */
export const RETRY_BASE_DELAY_MS = 1_000;
/** Tries per batch before it is dropped and counted: waits of 1, 2 and 4 s between them. */
export const MAX_ATTEMPTS = 4;
/** A batch that is not full is sent this long after its first event. */
export const FLUSH_INTERVAL_MS = 1_000;
/** Past either bound, the oldest queued events are dropped: a collector that is down holds no more memory than this. */
export const MAX_QUEUED_EVENTS = 1_000;
export const MAX_QUEUED_BYTES = 5 * 1024 * 1024;
/** At most one warn line about dropped events per this long. */
export const LOG_INTERVAL_MS = 60_000;

/** The wait after failed attempt number `attempt` (1-based): doubling, never more than `maxMs`. */
export function retryDelayMs(attempt: number, baseMs = RETRY_BASE_DELAY_MS, maxMs = MAX_RETRY_DELAY_MS): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
}

/** `{ batch, sentAt }` built from events already serialised, so no event is serialised twice. */
export function batchBody(eventsJson: readonly string[], sentAt: string): string {
  return `{"batch":[${eventsJson.join(",")}],"sentAt":${JSON.stringify(sentAt)}}`;
}

/** The body cut into consecutive pieces of at most `size` bytes, in order; views, not copies. */
export function chunkBody(body: Buffer, size = CHUNK_BYTES): Buffer[] {
  const chunks: Buffer[] = [];
  for (let start = 0; start < body.length; start += size) chunks.push(body.subarray(start, start + size));
  return chunks;
}

/** What wraps the events of a batch, with a `sentAt` as long as any ISO time. */
const BODY_OVERHEAD_BYTES = Buffer.byteLength(batchBody([], new Date(0).toISOString()));

export type CollectorPost = {
  url: string;
  headers: Record<string, string>;
  chunks: readonly Buffer[];
  signal: AbortSignal;
};
/** Posts one body and resolves with the HTTP status; rejects when no answer came (refused, reset, aborted). */
export type CollectorRequest = (post: CollectorPost) => Promise<number>;

/**
 * The default transport: node:http(s), the body written chunk by chunk (waiting for the socket to
 * drain between them), the answer read to its end so the connection can be reused.
 */
/** Connections to the collector are kept open between batches: a new connection per batch costs more than the batch. */
const keepAliveAgents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 4 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 4 }),
};
const parsedUrls = new Map<string, URL>();

export const streamToCollector: CollectorRequest = ({ url, headers, chunks, signal }) =>
  new Promise<number>((resolve, reject) => {
    let target = parsedUrls.get(url);
    if (!target) {
      target = new URL(url);
      parsedUrls.set(url, target);
    }
    const length = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    const secure = target.protocol === "https:";
    const request = (secure ? https : http).request(target, {
      method: "POST",
      headers: { ...headers, "content-length": String(length) },
      agent: secure ? keepAliveAgents.https : keepAliveAgents.http,
    });
    // Aborting destroys the request; one listener on the signal is cheaper than handing it to http.
    const abort = () => request.destroy(new Error("aborted"));
    if (signal.aborted) return abort();
    signal.addEventListener("abort", abort, { once: true });
    const settle = () => signal.removeEventListener("abort", abort);
    request.on("error", (error) => {
      settle();
      reject(error);
    });
    request.on("response", (response) => {
      response.on("error", reject);
      response.on("close", () => {
        settle();
        if (!response.complete) reject(new Error("answer cut short"));
      });
      response.on("end", () => resolve(response.statusCode ?? 0));
      response.resume();
    });
    if (chunks.length === 1) {
      request.end(chunks[0]);
      return;
    }
    (async () => {
      for (const chunk of chunks) {
        if (!request.write(chunk)) await once(request, "drain", { signal });
      }
      request.end();
    })().catch(reject);
  });

export type HttpAnalyticsOptions = {
  url: string;
  /** Sent as `authorization: Bearer <writeKey>` when set. */
  writeKey?: string;
  /** Keep `email` and `phone` in events (ANALYTICS_CONTACT_FIELDS). */
  includeContact: boolean;
  request?: CollectorRequest;
  /** Milliseconds since the epoch, for each event's timestamp and the batch's `sentAt`. */
  clock?: () => number;
  /** The overrides below exist so tests run fast; production uses the spec's defaults. */
  timeoutMs?: number;
  retryBaseDelayMs?: number;
  maxRetryDelayMs?: number;
  maxAttempts?: number;
  flushIntervalMs?: number;
  maxQueuedEvents?: number;
  maxQueuedBytes?: number;
  logIntervalMs?: number;
};

type Attempt = { ok: true } | { ok: false; retry: boolean; failure: string };

/** Resolves true after `ms`, or false as soon as `stop` is aborted. */
function pause(ms: number, stop: AbortSignal): Promise<boolean> {
  if (stop.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      stop.removeEventListener("abort", onStop);
      resolve(true);
    }, ms);
    // A retry pending is no reason to keep the process up; `close` holds it up for its own deadline.
    timer.unref();
    const onStop = () => {
      clearTimeout(timer);
      resolve(false);
    };
    stop.addEventListener("abort", onStop, { once: true });
  });
}

/**
 * The production adapter: events posted in batches to an HTTP collector, in the background, one
 * batch in flight at a time. A collector that is slow, down or failing costs the storefront nothing
 * but the events it loses, which are counted and logged (never their content). The server runs the
 * batches on a thread of their own (`createThreadedHttpAnalytics`); this one runs them on the
 * caller's, which is how the tests drive the batching with a transport of their own.
 */
export function createHttpAnalytics(options: HttpAnalyticsOptions): Analytics {
  return createQueuedAnalytics("http", { ...httpBatcherOptions(options), includeContact: options.includeContact });
}

/** The batches, retries and bounds of the HTTP adapter, on whichever thread its batcher runs. */
export function httpBatcherOptions(options: Omit<HttpAnalyticsOptions, "includeContact">): BatcherOptions {
  const clock = options.clock ?? Date.now;
  const send = options.request ?? streamToCollector;
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  const maxAttempts = options.maxAttempts ?? MAX_ATTEMPTS;
  const delay = (attempt: number) =>
    retryDelayMs(
      attempt,
      options.retryBaseDelayMs ?? RETRY_BASE_DELAY_MS,
      options.maxRetryDelayMs ?? MAX_RETRY_DELAY_MS,
    );
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.writeKey) headers.authorization = `Bearer ${options.writeKey}`;

  async function attempt(batch: QueuedEvent[], stop: AbortSignal): Promise<Attempt> {
    const body = Buffer.from(
      batchBody(
        batch.map((event) => event.json),
        new Date(clock()).toISOString(),
      ),
    );
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onStop = () => controller.abort();
    stop.addEventListener("abort", onStop, { once: true });
    try {
      const status = await send({ url: options.url, headers, chunks: chunkBody(body), signal: controller.signal });
      if (status >= 200 && status < 300) return { ok: true };
      // A refusal of the batch itself (400, 401, 413) will be refused again: not retried.
      return { ok: false, retry: status === 408 || status === 429 || status >= 500, failure: `status ${status}` };
    } catch (error) {
      const failure = timedOut
        ? "timeout"
        : stop.aborted
          ? "closed"
          : ((error as NodeJS.ErrnoException).code ?? "network");
      return { ok: false, retry: true, failure };
    } finally {
      clearTimeout(timer);
      stop.removeEventListener("abort", onStop);
    }
  }

  async function deliver(batch: QueuedEvent[], stop: AbortSignal): Promise<Delivery> {
    let failure = "closed";
    for (let number = 1; number <= maxAttempts; number += 1) {
      if (number > 1 && !(await pause(delay(number - 1), stop))) break;
      const result = await attempt(batch, stop);
      if (result.ok) return result;
      failure = result.failure;
      if (!result.retry || stop.aborted) break;
    }
    return { ok: false, failure };
  }

  return {
    adapter: "http",
    clock,
    batch: {
      maxEvents: MAX_BATCH_EVENTS,
      maxBytes: MAX_BATCH_BYTES,
      overheadBytes: BODY_OVERHEAD_BYTES,
      separatorBytes: 1,
    },
    maxQueuedEvents: options.maxQueuedEvents ?? MAX_QUEUED_EVENTS,
    maxQueuedBytes: options.maxQueuedBytes ?? MAX_QUEUED_BYTES,
    flushIntervalMs: options.flushIntervalMs ?? FLUSH_INTERVAL_MS,
    logIntervalMs: options.logIntervalMs ?? LOG_INTERVAL_MS,
    deliver,
  };
}
