import { z } from "zod";
import { createRedisClient, redisReachability } from "../redis/redis-client.server";
import type { SharedCatalogStore } from "./shared-catalog.server";

export type RedisSharedCatalogOptions = {
  url: string;
  /**
   * Keeps these keys apart from anything else in the same database. Its version goes up when the
   * shape of a stored value (`Center`, `Service`, `Therapist`) changes, so that during a rolling
   * deploy no instance reads a copy written by another release.
   */
  keyPrefix?: string;
  /** How long one command may take before it counts as an outage: the back end is the fallback. */
  commandTimeoutMs?: number;
};

export const DEFAULT_KEY_PREFIX = "glow:catalog:v1";

const SharedCopySchema = z.object({ fetchedAt: z.number(), value: z.unknown() });

/**
 * The catalog copies in Redis, shared by every instance (decision 029). A copy is one JSON string,
 * `{ fetchedAt, value }`, at `<prefix>:copy:<key>`, kept for the fresh and the stale time; the
 * refresh of the copy fetched at T is locked at `<prefix>:lock:<key>:<T>` (SET NX PX). The values
 * are the public catalog (clinics, treatments, nurses' names); neither they nor the keys are logged.
 *
 * A lost or slow Redis never holds a page: no offline queue, a short command timeout, and every
 * failure reads as "no copy" (or "the lock is yours", so this instance refreshes itself).
 */
export async function createRedisSharedCatalog(options: RedisSharedCatalogOptions): Promise<SharedCatalogStore> {
  const prefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  const client = createRedisClient(options.url, options.commandTimeoutMs ?? 250);
  const state = redisReachability({
    lost: "catalog cache: Redis unreachable; each instance calls the back end itself until it is back",
    back: "catalog cache: Redis reachable again",
    level: "warn",
  });
  client.on("error", (error) => state.lost(error));
  client.on("ready", () => state.back());
  await client.connect().catch((error: unknown) => state.lost(error));

  const copyKey = (key: string) => `${prefix}:copy:${key}`;

  return {
    kind: "redis",
    async get(key) {
      let json: string | null;
      try {
        json = await client.get(copyKey(key));
        state.back();
      } catch (error) {
        state.lost(error);
        return null;
      }
      if (json === null) return null;
      try {
        const parsed = SharedCopySchema.safeParse(JSON.parse(json));
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },
    async set(key, copy, keepMs) {
      try {
        await client.set(copyKey(key), JSON.stringify(copy), "PX", Math.max(1, Math.ceil(keepMs)));
        state.back();
      } catch (error) {
        state.lost(error);
      }
    },
    async lock(key, fetchedAt, ms) {
      try {
        const taken = await client.set(
          `${prefix}:lock:${key}:${fetchedAt}`,
          "1",
          "PX",
          Math.max(1, Math.ceil(ms)),
          "NX",
        );
        state.back();
        return taken === "OK";
      } catch (error) {
        state.lost(error);
        return true;
      }
    },
    async close() {
      if (client.status === "ready") await client.quit().catch(() => client.disconnect());
      else client.disconnect();
    },
  };
}
