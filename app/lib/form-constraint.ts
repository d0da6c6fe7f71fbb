import { getZodConstraint } from "@conform-to/zod/v4";
import { z } from "zod";

type Constraint = ReturnType<typeof getZodConstraint>[string];

const cache = new WeakMap<z.ZodType, Record<string, Constraint>>();

/**
 * The HTML constraints of a form's fields (`required`, `minLength`, `maxLength`, `pattern`) from its
 * schema. Conform's `getZodConstraint` gives `required`, but up to @conform-to/zod 1.21.1 it reads
 * lengths and patterns from where zod kept them before 4.6, so with zod 4.6 they come back empty
 * (edmundhung/conform#1341). Zod's own JSON Schema of the form's input has them; this adds them.
 */
export function formConstraint(schema: z.ZodType): Record<string, Constraint> {
  const known = cache.get(schema);
  if (known) return known;
  const constraint: Record<string, Constraint> = { ...getZodConstraint(schema) };
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, { type?: string; minLength?: number; maxLength?: number; pattern?: string }>;
  };
  for (const [name, property] of Object.entries(json.properties ?? {})) {
    if (property.type !== "string") continue;
    const field: Constraint = { ...constraint[name] };
    if (property.minLength !== undefined) field.minLength ??= property.minLength;
    if (property.maxLength !== undefined) field.maxLength ??= property.maxLength;
    if (property.pattern !== undefined) field.pattern ??= htmlPattern(property.pattern);
    constraint[name] = field;
  }
  cache.set(schema, constraint);
  return constraint;
}

/**
 * An HTML `pattern` must match the whole value, where a zod regex finds a match anywhere: a simple
 * regex anchored at both ends drops its anchors, any other may match inside the value.
 */
function htmlPattern(source: string): string {
  if (/^\^[^|]*\$$/.test(source) && !source.endsWith("\\$")) return source.slice(1, -1);
  return `[\\s\\S]*(?:${source})[\\s\\S]*`;
}
