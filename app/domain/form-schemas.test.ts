import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  ChangePasswordSchema,
  ConsentsSchema,
  ForgotPasswordSchema,
  LoginSchema,
  ProfileDetailsSchema,
  RegisterSchema,
  ResetPasswordSchema,
} from "./account-forms";
import { HoldSlotSchema, PaymentSchema, ServiceChoiceSchema } from "./booking-forms";
import { GuestDetailsSchema } from "./guest";

/** Every form's schema: none may ever show a visitor one of zod's own messages. */
const FORM_SCHEMAS: Record<string, z.ZodObject> = {
  RegisterSchema,
  LoginSchema,
  ForgotPasswordSchema,
  ResetPasswordSchema,
  ProfileDetailsSchema,
  ConsentsSchema,
  ChangePasswordSchema,
  GuestDetailsSchema,
  ServiceChoiceSchema,
  HoldSlotSchema,
  PaymentSchema,
};

/** What zod says when a check has no message of its own, in the words of its default locale. */
const ZOD_DEFAULT = /Invalid input|expected .*received|Too (big|small)|Invalid (string|email|option|literal|key|element|value|format)|Unrecognized key|must match pattern/i;

/**
 * Any issue without a message of its own gets this one from the parse's error map (a check's or a
 * schema's own message comes first), so it finds even defaults the pattern above does not know.
 */
const NO_MESSAGE = "NO MESSAGE OF ITS OWN";
const noOwnMessage = () => NO_MESSAGE;

const LONG = "x".repeat(10_000);
/** What a form post can carry for one field: nothing, blanks, too much, nonsense, twice, a file. */
const FORM_VALUES: (string | string[] | File)[] = ["", "   ", "x", "on", "yes", "12", "@", "a@b", "123456789012345", LONG, ["a", "b"], new File(["x"], "x.txt")];
/** And what a JSON body can carry besides. */
const JSON_VALUES: unknown[] = [undefined, null, 0, 12, true, false, {}, [], ["a"], "", " ", "x", "on", LONG];

function formDataWith(values: Record<string, string | string[] | File>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(values)) {
    for (const one of Array.isArray(value) ? value : [value]) form.append(name, one);
  }
  return form;
}

function formErrors(schema: z.ZodObject, values: Record<string, string | string[] | File>): Record<string, string[]> {
  const submission = parseWithZod(formDataWith(values), { schema, error: noOwnMessage });
  return submission.status === "error" ? Object.fromEntries(Object.entries(submission.error ?? {}).map(([name, messages]) => [name, messages ?? []])) : {};
}

function formMessages(schema: z.ZodObject, values: Record<string, string | string[] | File>): string[] {
  return Object.values(formErrors(schema, values)).flat();
}

function jsonMessages(schema: z.ZodObject, body: Record<string, unknown>): string[] {
  const result = schema.safeParse(body, { error: noOwnMessage });
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

function expectOwnMessages(messages: string[], what: string) {
  for (const message of messages) {
    expect(message, what).not.toBe(NO_MESSAGE);
    expect(message, what).not.toMatch(ZOD_DEFAULT);
  }
}

describe("every form schema says what is wrong in its own words", () => {
  for (const [name, schema] of Object.entries(FORM_SCHEMAS)) {
    const fields = Object.keys(schema.shape);

    it(`${name}: an empty form`, () => {
      const messages = formMessages(schema, {});
      expectOwnMessages(messages, "empty form");
      expectOwnMessages(jsonMessages(schema, {}), "empty body");
    });

    it(`${name}: each field with bad form values`, () => {
      let seen = 0;
      for (const field of fields) {
        for (const value of FORM_VALUES) {
          const messages = formMessages(schema, { [field]: value });
          seen += messages.length;
          expectOwnMessages(messages, `${field}=${String(value).slice(0, 20)}`);
        }
      }
      expect(seen).toBeGreaterThan(0);
    });

    it(`${name}: each field with bad JSON values`, () => {
      for (const field of fields) {
        for (const value of JSON_VALUES) expectOwnMessages(jsonMessages(schema, { [field]: value }), `${field}=${JSON.stringify(value)?.slice(0, 20)}`);
      }
    });
  }

  it("the check itself catches a schema that leaves a message to zod", () => {
    const careless = z.object({ name: z.string().trim().min(1, "Please enter your name").max(5) });
    expect(formMessages(careless, { name: "far too long" })).toEqual([NO_MESSAGE]);
    expect(z.string().max(5).safeParse("far too long").error?.issues[0].message).toMatch(ZOD_DEFAULT);
  });
});

describe("the account schemas' messages", () => {
  it("a too-long name says how long it may be", () => {
    expect(formMessages(ProfileDetailsSchema, { firstName: "M".repeat(60) })).toContain("Please use at most 50 characters");
    expect(formMessages(RegisterSchema, { lastName: "M".repeat(51) })).toContain("Please use at most 50 characters");
  });

  it("the spec's texts for a bad email and a bad mobile number", () => {
    const messages = formMessages(RegisterSchema, { email: "not-an-email", phone: "512-555" });
    expect(messages).toContain("The email address you entered is not valid. Please check the email and try again");
    expect(messages).toContain("Mobile number you entered is not valid. Please check the number and try again");
  });

  it("a field sent twice is refused like any bad value", () => {
    expect(formMessages(LoginSchema, { email: ["a@example.com", "b@example.com"], password: "x" })).toEqual([
      "The email address you entered is not valid. Please check the email and try again",
    ]);
  });
});

describe("the booking schemas' messages", () => {
  it("confirming without a card, an address, a state or the policy says each once, in the spec's words", () => {
    expect(formErrors(PaymentSchema, { intent: "confirm", address: "100 Main St" })).toEqual({
      // No card to pick is the form's own message; the address's is told at its first bad field.
      "": ["Please add a credit card to continue booking"],
      city: ["Please add a billing address to continue"],
      state: ["Please select state"],
      policy: ["Please agree to the cancellation policy"],
    });
  });

  it("the other buttons keep the address without asking for it; only Apply needs a code", () => {
    expect(formErrors(PaymentSchema, { intent: "add-card" })).toEqual({});
    expect(formErrors(PaymentSchema, { intent: "remove-promo" })).toEqual({});
    expect(formErrors(PaymentSchema, { intent: "apply-promo", promo: "  " })).toEqual({ promo: ["Promo Code cannot be empty"] });
  });

  it("a time or a treatment that is not one of ours is the form's problem", () => {
    expect(formErrors(HoldSlotSchema, { slot: "tomorrow" })).toEqual({ "": ["Please choose a time from the list."] });
    expect(formErrors(HoldSlotSchema, { slot: "2026-12-01T10:30:00" })).toEqual({});
    expect(formErrors(ServiceChoiceSchema, { area: "a" })).toEqual({ "": ["Please select a service"] });
  });
});
