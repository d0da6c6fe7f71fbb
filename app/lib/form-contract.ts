import type { getZodConstraint } from "@conform-to/zod/v4";
import type { z } from "zod";

/** The HTML constraints of one field: `required`, lengths, a pattern. */
export type Constraint = ReturnType<typeof getZodConstraint>[string];

/**
 * What the browser needs of a form's schema: its name and its fields' HTML constraints, without the
 * schema itself. The schema stays on the server, which parses every submit; the page carries no zod
 * (decision 057). `app/domain/form-contracts.ts` holds one per form, made by `npm run forms` from
 * the schemas; its test fails when one is out of date.
 */
export type FormContract<Schema extends z.ZodType> = {
  readonly schema: string;
  readonly constraint: Readonly<Record<string, Constraint>>;
  /** Types only: the fields' names and values. */
  readonly fields?: Schema;
};

export function formContract<Schema extends z.ZodType>(
  schema: string,
  constraint: Record<string, Constraint>,
): FormContract<Schema> {
  return { schema, constraint };
}
