/**
 * The schemas that are not a form's, each with what it reads instead. Every other zod schema a
 * module of app/domain exports under a name ending in "Schema" is a form's (decision 013): the form
 * schemas' test checks them all, and `npm run forms` makes each one's contract for the browser.
 */
export const NOT_FORMS: Record<string, string> = {
  VisitAttributionSchema: "the visit's attribution kept in the session, never posted",
};

/** The domain modules that are not read for form schemas: this one, and the contracts made from them. */
export const NOT_SCHEMA_MODULES = ["form-registry.ts", "form-contracts.ts"];
