// Made by `npm run forms` from the form schemas of app/domain (decisions 057 and 063): change a schema, then run it.

/** Each form's fields and their HTML constraints, by its schema's name: what `useSchemaForm` draws a form from. */
export * as FORMS from "./contracts";
