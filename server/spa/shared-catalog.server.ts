/** A catalog value as some instance fetched it from the back end, and when (its clock, in ms). */
export type SharedCopy = { value: unknown; fetchedAt: number };

/**
 * The catalog copies every instance can read (decision 029), under each instance's own cache: an
 * instance that finds a fresh copy here calls the back end for nothing. None of its methods throws:
 * a store that cannot be reached reads as empty, and each instance then calls the back end itself.
 */
export type SharedCatalogStore = {
  /** "redis" is shared by every instance; "none" keeps nothing, so each instance calls for itself. */
  readonly kind: "none" | "redis";
  /** The copy last written for `key`, or null: none, unreadable, or the store unreachable. */
  get(key: string): Promise<SharedCopy | null>;
  /** Writes a copy for the other instances, kept for `keepMs`. */
  set(key: string, copy: SharedCopy, keepMs: number): Promise<void>;
  /**
   * Takes the refresh of the copy of `key` fetched at `fetchedAt`, for at most `ms`: false when
   * another instance has it. Naming the copy it replaces, the lock needs no release: the next copy
   * has a lock of its own, and one whose refresh failed is tried again once the lock expires. True
   * when the store cannot be reached, so that an outage never leaves a key without anyone to refresh it.
   */
  lock(key: string, fetchedAt: number, ms: number): Promise<boolean>;
  /** At shutdown: lets go of any connection. */
  close(): Promise<void>;
};

/** Without a shared store: nothing found, nothing kept, every refresh this instance's own. */
export const noSharedCatalog: SharedCatalogStore = {
  kind: "none",
  get: async () => null,
  set: async () => {},
  lock: async () => true,
  close: async () => {},
};
