import { describe, expect, it } from "vitest";
import { z } from "zod";
import { LoginSchema, RegisterSchema, ResetPasswordSchema } from "~/domain/account-forms";
import { formConstraint } from "./form-constraint";

describe("a form's HTML constraints from its schema", () => {
  it("required fields, lengths and patterns, as the browser reads them", () => {
    const register = formConstraint(RegisterSchema);
    expect(register.firstName).toEqual({ required: true, minLength: 1, maxLength: 50 });
    expect(register.zip).toMatchObject({ required: true, maxLength: 5, pattern: "\\d{5}" });
    expect(register.referralCode).toEqual({ required: false, maxLength: 40 });
    expect(register.ageConfirmed).toEqual({ required: true });
    expect(formConstraint(LoginSchema).password).toMatchObject({ required: true, maxLength: 128 });
  });

  it("a pattern works as an HTML pattern, which matches the whole value", () => {
    const pattern = new RegExp(`^(?:${formConstraint(ResetPasswordSchema).code.pattern})$`, "v");
    expect(pattern.test("123456")).toBe(true);
    expect(pattern.test("12345")).toBe(false);
    expect(pattern.test("1234567")).toBe(false);
  });

  it("a pattern that is not anchored at both ends still means what the schema says", () => {
    const schema = z.object({
      code: z.string({ error: "Please enter a code" }).regex(/^GLOW|VIP$/, "Please enter a code"),
    });
    const pattern = new RegExp(`^(?:${formConstraint(schema).code.pattern})$`, "v");
    for (const value of ["GLOW", "GLOW50", "MYVIP", "VIP"]) expect(pattern.test(value), value).toBe(true);
    for (const value of ["50GLOW", "VIPS", ""]) expect(pattern.test(value), value).toBe(false);
  });
});
