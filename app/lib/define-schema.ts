/**
 * Makes a zod schema when its module loads, marked for the bundler as free of side effects: a page
 * that imports a module's messages or helpers but none of its schemas carries neither the schemas nor
 * zod (decision 057). Every schema and field a module of app/domain declares at its top level is made
 * through this; `scripts/check-client-build.mjs` fails a build whose browser code holds zod.
 */
/* @__NO_SIDE_EFFECTS__ */
export function defineSchema<Schema>(make: () => Schema): Schema {
  return make();
}
