import { Redis } from "ioredis";
import { logger } from "../observability/logger.server";

/**
 * A Redis connection for a shared layer that must never hold a request: no offline queue, one retry,
 * a short command timeout, and reconnection in the background. Connect it with `connect()`.
 */
export function createRedisClient(url: string, commandTimeoutMs: number): Redis {
  return new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: commandTimeoutMs,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(times * 100, 2_000),
  });
}

/** An error's kind, never the error itself: ioredis attaches the command, and with it the key. */
export function redisFailureReason(error: unknown): string {
  if (!(error instanceof Error)) return "unknown";
  const { code } = error as { code?: unknown };
  if (typeof code === "string") return code;
  if (error.message === "Command timed out") return "timeout";
  if (/not ready|isn't writeable/.test(error.message)) return "not connected";
  return error.name;
}

/**
 * Logs the change between reachable and not, once each way, whatever the number of requests: `lost`
 * says what the instance does without Redis, at the level that deserves.
 */
export function redisReachability(messages: { lost: string; back: string; level: "warn" | "error" }) {
  let reachable = true;
  return {
    lost(error: unknown) {
      if (!reachable) return;
      reachable = false;
      logger[messages.level](messages.lost, { reason: redisFailureReason(error) });
    },
    back() {
      if (reachable) return;
      reachable = true;
      logger.info(messages.back);
    },
  };
}
