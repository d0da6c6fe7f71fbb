import { z } from "zod";

/**
 * The pieces of Zenoti's answers read leniently (decision 015), shared by the catalog, membership
 * and sales readers. Zenoti's element shapes are only partly public, and one list answers for every
 * clinic or every service: an optional block of the wrong shape reads as absent rather than turning
 * the whole answer into an error.
 */

/** An optional block: absent, null, or of the wrong shape, it reads as null. */
export function optional<T extends z.ZodType>(schema: T) {
  return schema.nullish().catch(null);
}

/** An optional text. */
export const text = optional(z.string());

/** The list itself must be there; null (Zenoti's "nothing") reads as empty. Its elements are parsed one by one. */
export const list = z
  .array(z.unknown())
  .nullable()
  .transform((items) => items ?? []);
