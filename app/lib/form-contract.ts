import type { getZodConstraint } from "@conform-to/zod/v4";
import type { z } from "zod";

/** The HTML constraints of one field: `required`, lengths, a pattern. */
export type Constraint = ReturnType<typeof getZodConstraint>[string];

/**
 * What the browser needs of a form's schema: its name and its fields' HTML constraints, without the
 * schema itself. The schema stays on the server, which parses every submit; the page carries no zod
 * (decision 057). `app/domain/form-contracts.ts` gives one per form (`FORMS`, each in its own
 * module of app/domain/contracts, decision 063), made by `npm run forms` from the schemas; its test
 * fails when one is out of date.
 */
export type FormContract<Schema extends z.ZodType> = {
  readonly schema: string;
  readonly constraint: Readonly<Record<string, Constraint>>;
  /** Types only: the fields' names and values. */
  readonly fields?: Schema;
};

// Marked for the bundler as free of side effects: a contract no page of a chunk uses is left out of it.
/* @__NO_SIDE_EFFECTS__ */
export function formContract<Schema extends z.ZodType>(
  schema: string,
  constraint: Record<string, Constraint>,
): FormContract<Schema> {
  return { schema, constraint };
}
