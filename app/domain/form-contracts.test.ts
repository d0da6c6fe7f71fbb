import { describe, expect, it } from "vitest";
import { formConstraint } from "~/lib/form-constraint";
import { formSchemas } from "../../scripts/form-contracts";
import { FORMS } from "./form-contracts";

describe("the forms' contracts the browser draws them from", () => {
  it("are the constraints of today's schemas, one for every form: run `npm run forms` after changing a schema", async () => {
    const schemas = await formSchemas();
    expect(schemas.length).toBeGreaterThan(10);
    expect(Object.keys(FORMS).sort()).toEqual(schemas.map((s) => s.name).sort());
    for (const { name, schema } of schemas) {
      const contract = FORMS[name as keyof typeof FORMS];
      expect(contract.schema).toBe(name);
      expect(contract.constraint, `${name}'s contract`).toEqual(formConstraint(schema));
    }
  });
});
