import fs, { type FileHandle } from "node:fs/promises";
import path from "node:path";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../data-dir.server";
import type { Analytics } from "./analytics.server";
import { createQueuedAnalytics, type Delivery, type QueuedEvent } from "./batcher.server";

/** Lines are written in groups of at most this many, or this many bytes. */
export const FILE_WRITE_EVENTS = 500;
export const FILE_WRITE_BYTES = 1024 * 1024;
/** Lines that do not fill a group wait this long at most. */
export const FILE_FLUSH_INTERVAL_MS = 1_000;
const MAX_QUEUED_EVENTS = 5_000;
const MAX_QUEUED_BYTES = 16 * 1024 * 1024;
const LOG_INTERVAL_MS = 60_000;

export type FileAnalyticsOptions = {
  /** Keep `email` and `phone` in events (ANALYTICS_CONTACT_FIELDS). */
  includeContact?: boolean;
  /** Milliseconds since the epoch: each event's timestamp, and so the day file it goes to. */
  clock?: () => number;
  flushIntervalMs?: number;
  maxQueuedEvents?: number;
};

/** The file of a UTC day: `events-YYYY-MM-DD.jsonl`. */
export function eventsFileName(timestamp: string): string {
  return `events-${timestamp.slice(0, 10)}.jsonl`;
}

/** Makes the directory for the owner only; an existing one is tightened unless it is a shared (sticky) one. */
async function preparePrivateDir(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const stat = await fs.stat(dir);
  if ((stat.mode & 0o1000) === 0 && (stat.mode & 0o777) !== PRIVATE_DIR_MODE) await fs.chmod(dir, PRIVATE_DIR_MODE);
}

/**
 * The embedded default: each event one JSON line in a file per UTC day under `dir`, appended in
 * the background in groups (a request never waits for the disk). The files may hold contact
 * fields when `includeContact` is set, so they are made 0600 in a 0700 directory.
 */
export function createFileAnalytics(dir: string, options: FileAnalyticsOptions = {}): Analytics {
  let current: { name: string; file: FileHandle } | null = null;
  let dirReady = false;

  async function closeCurrent() {
    const open = current;
    current = null;
    await open?.file.close().catch(() => undefined);
  }

  async function fileFor(name: string): Promise<FileHandle> {
    if (current?.name === name) return current.file;
    await closeCurrent();
    if (!dirReady) {
      await preparePrivateDir(dir);
      dirReady = true;
    }
    const file = await fs.open(path.join(dir, name), "a", PRIVATE_FILE_MODE);
    // The mode given to open is reduced by the umask, and an existing file keeps its own.
    await file.chmod(PRIVATE_FILE_MODE);
    current = { name, file };
    return file;
  }

  async function deliver(batch: QueuedEvent[]): Promise<Delivery> {
    try {
      let start = 0;
      while (start < batch.length) {
        const name = eventsFileName(batch[start].timestamp);
        let end = start + 1;
        while (end < batch.length && eventsFileName(batch[end].timestamp) === name) end += 1;
        const file = await fileFor(name);
        await file.appendFile(
          batch
            .slice(start, end)
            .map((event) => `${event.json}\n`)
            .join(""),
        );
        start = end;
      }
      return { ok: true };
    } catch (error) {
      // Open again on the next batch: the directory may have been removed or the disk freed.
      await closeCurrent();
      dirReady = false;
      return { ok: false, failure: (error as NodeJS.ErrnoException).code ?? "write failed" };
    }
  }

  return createQueuedAnalytics("file", {
    adapter: "file",
    includeContact: options.includeContact ?? false,
    clock: options.clock ?? Date.now,
    batch: { maxEvents: FILE_WRITE_EVENTS, maxBytes: FILE_WRITE_BYTES, overheadBytes: 0, separatorBytes: 1 },
    maxQueuedEvents: options.maxQueuedEvents ?? MAX_QUEUED_EVENTS,
    maxQueuedBytes: MAX_QUEUED_BYTES,
    flushIntervalMs: options.flushIntervalMs ?? FILE_FLUSH_INTERVAL_MS,
    logIntervalMs: LOG_INTERVAL_MS,
    deliver,
    onClosed: closeCurrent,
  });
}
