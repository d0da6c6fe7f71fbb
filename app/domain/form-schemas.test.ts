import fs from "node:fs";
import path from "node:path";
import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  ageInWholeYears,
  BIRTH_DATE_MESSAGES,
  GENDER_MESSAGE,
  LoginSchema,
  ProfileDetailsSchema,
  RegisterSchema,
  LANGUAGE_MESSAGE,
  languageChoice,
  localToday,
} from "./account-forms";
import { sameFirstName } from "./accounts";
import { normalizeBookingDate } from "./booking";
import {
  bookingDateProblem,
  HoldSlotSchema,
  JUMP_DATE_MESSAGES,
  JumpToDateSchema,
  PaymentSchema,
  ServiceChoiceSchema,
} from "./booking-forms";
import { NOT_FORMS, NOT_SCHEMA_MODULES } from "./form-registry";

/** Every form's schema, read from the modules' exports so that a new one is checked without being listed here: none may ever show a visitor one of zod's own messages. */
const DOMAIN_MODULES = Object.fromEntries(
  Object.entries(import.meta.glob<Record<string, unknown>>(["./*.ts", "!./*.test.ts"], { eager: true })).filter(
    ([file]) => !NOT_SCHEMA_MODULES.includes(file.slice(2)),
  ),
);
const EXPORTED_SCHEMAS = Object.entries(DOMAIN_MODULES).flatMap(([file, exports]) =>
  Object.entries(exports)
    .filter(([name, value]) => name.endsWith("Schema") && value instanceof z.ZodType)
    .map(([name, schema]) => ({ file, name, schema: schema as z.ZodType })),
);
const FORM_SCHEMAS: Record<string, z.ZodObject> = Object.fromEntries(
  EXPORTED_SCHEMAS.filter(({ name }) => !(name in NOT_FORMS)).map(({ file, name, schema }) => {
    // Conform reads a form's fields from an object schema (checks on the whole form are refinements of it).
    if (!(schema instanceof z.ZodObject)) throw new Error(`${name} in ${file}: a form's schema is a z.object`);
    return [name, schema];
  }),
);

/** The source files of the app and the server, tests aside. */
function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .map((file) => path.join(dir, file));
}

describe("the registry of form schemas", () => {
  it("holds the exported schemas of every form module but the ones named as not a form's", () => {
    // One from each module that has forms: the modules are all read.
    expect(Object.keys(FORM_SCHEMAS)).toEqual(
      expect.arrayContaining([
        "LoginSchema",
        "PaymentSchema",
        "GuestDetailsSchema",
        "GiftCardSchema",
        "CancelVisitSchema",
        "ConfirmNewTimeSchema",
      ]),
    );
    expect(Object.keys(FORM_SCHEMAS)).not.toContain("VisitAttributionSchema");
    // An exception for a schema that is gone is deleted, not kept.
    for (const name of Object.keys(NOT_FORMS))
      expect(EXPORTED_SCHEMAS.map((exported) => exported.name)).toContain(name);
  });

  it("every schema a form is parsed or drawn with is one of them: none is declared outside app/domain", () => {
    const root = path.resolve(import.meta.dirname, "../..");
    const used = new Set<string>();
    for (const file of [...sourceFiles(path.join(root, "app")), ...sourceFiles(path.join(root, "server"))]) {
      const source = fs.readFileSync(file, "utf8");
      for (const call of source.matchAll(
        /\b(?:useSchemaForm\(FORMS\.|(?:parseSubmission|parseWithZod)\((?:[^(),]|\([^()]*\))*,\s*(?:\{\s*schema:\s*)?)(\w+)/g,
      ))
        used.add(call[1]);
    }
    // Not a form's: the form helpers pass their parameter on, and the outage answer keeps any form's
    // fields as typed (server/unavailable.server.ts).
    for (const passedOn of ["schema", "AnyForm"]) used.delete(passedOn);
    expect(used.size).toBeGreaterThan(0);
    for (const name of used) expect(Object.keys(FORM_SCHEMAS), `${name} is handed to a form helper`).toContain(name);
  });
});

/** What zod says when a check has no message of its own, in the words of its default locale. */
const ZOD_DEFAULT =
  /Invalid input|expected .*received|Too (big|small)|Invalid (string|email|option|literal|key|element|value|format)|Unrecognized key|must match pattern/i;

/**
 * Any issue without a message of its own gets this one from the parse's error map (a check's or a
 * schema's own message comes first), so it finds even defaults the pattern above does not know.
 */
const NO_MESSAGE = "NO MESSAGE OF ITS OWN";
const noOwnMessage = () => NO_MESSAGE;

const LONG = "x".repeat(10_000);
/** What a form post can carry for one field: nothing, blanks, too much, nonsense, twice, a file. */
const FORM_VALUES: (string | string[] | File)[] = [
  "",
  "   ",
  "x",
  "on",
  "yes",
  "12",
  "@",
  "a@b",
  "123456789012345",
  LONG,
  ["a", "b"],
  new File(["x"], "x.txt"),
];
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
  return submission.status === "error"
    ? Object.fromEntries(Object.entries(submission.error ?? {}).map(([name, messages]) => [name, messages ?? []]))
    : {};
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
      if (fields.length === 0) {
        // A form that is only a button (send the code again) takes any post as it is.
        for (const value of FORM_VALUES) expect(formErrors(schema, { anything: value })).toEqual({});
        return;
      }
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
        for (const value of JSON_VALUES)
          expectOwnMessages(
            jsonMessages(schema, { [field]: value }),
            `${field}=${JSON.stringify(value)?.slice(0, 20)}`,
          );
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
    expect(formMessages(ProfileDetailsSchema, { firstName: "M".repeat(60) })).toContain(
      "Please use at most 50 characters",
    );
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

describe("birth date and gender (spec sections 3 and 5, decision 039)", () => {
  const birthDate = (value: string) => formErrors(ProfileDetailsSchema, { birthDate: value }).birthDate ?? [];
  const valid = (values: Record<string, string>) => {
    const submission = parseWithZod(
      formDataWith({
        firstName: "Mia",
        lastName: "Rivera",
        phone: "512-555-0177",
        address: "1 Elm St",
        city: "Austin",
        zip: "78701",
        ...values,
      }),
      { schema: ProfileDetailsSchema },
    );
    if (submission.status !== "success") throw new Error(JSON.stringify(submission.error));
    return submission.value;
  };

  it("a birth date is optional: none given is null, never a made-up date", () => {
    expect(valid({})).toMatchObject({ birthDate: null, gender: -1 });
    expect(valid({ birthDate: "" })).toMatchObject({ birthDate: null });
    expect(RegisterSchema.shape.birthDate.parse("")).toBeNull();
  });

  it("from 1940-01-01, the spec's earliest, to today", () => {
    // Today read once, so that a run across midnight compares one day with itself.
    const today = localToday();
    expect(valid({ birthDate: "1940-01-01" }).birthDate).toBe("1940-01-01");
    expect(valid({ birthDate: today }).birthDate).toBe(today);
    expect(birthDate("1939-12-31")).toEqual([BIRTH_DATE_MESSAGES.early]);
    const nextYear = `${Number(today.slice(0, 4)) + 1}${today.slice(4)}`;
    expect(birthDate(nextYear.endsWith("02-29") ? nextYear.replace("02-29", "03-01") : nextYear)).toEqual([
      BIRTH_DATE_MESSAGES.future,
    ]);
  });

  it("a date that is not a day of the calendar says how to write one", () => {
    for (const bad of ["1990-02-30", "18/04/1991", "1991-4-18", "yesterday", "1991-04-18T00:00"])
      expect(birthDate(bad), bad).toEqual([BIRTH_DATE_MESSAGES.format]);
  });

  it("the age is in whole years, one more on the birthday", () => {
    expect(ageInWholeYears("1990-06-15", "2026-06-14")).toBe(35);
    expect(ageInWholeYears("1990-06-15", "2026-06-15")).toBe(36);
    expect(ageInWholeYears("1988-02-29", "2027-02-28")).toBe(38);
    expect(ageInWholeYears("1988-02-29", "2027-03-01")).toBe(39);
  });

  it("gender is one of the spec's choices (or Zenoti's Other, kept for a guest filed so)", () => {
    expect(valid({ gender: "1" }).gender).toBe(1);
    expect(valid({ gender: "0" }).gender).toBe(0);
    expect(valid({ gender: "-1" }).gender).toBe(-1);
    expect(valid({ gender: "3" }).gender).toBe(3);
    expect(formErrors(RegisterSchema, { gender: "2" }).gender).toEqual([GENDER_MESSAGE]);
  });

  it("two first names are the same name whatever their case, accents and spaces", () => {
    expect(sameFirstName("José ", "jose")).toBe(true);
    expect(sameFirstName("Mia", "Mía")).toBe(true);
    expect(sameFirstName("Mia", "Lena")).toBe(false);
    expect(sameFirstName("", " ")).toBe(false);
  });
});

describe("language (spec section 3: Select Language=0, English-US=1; decision 043)", () => {
  const profile = {
    firstName: "Mia",
    lastName: "Rivera",
    phone: "512-555-0177",
    address: "1 Elm St",
    city: "Austin",
    zip: "78701",
  };
  const parsed = (values: Record<string, string>) =>
    parseWithZod(formDataWith({ ...profile, ...values }), { schema: ProfileDetailsSchema });

  it("is optional: nothing chosen, or “Select language”, is none, never the 0 of the spec's list", () => {
    for (const values of [{}, { language: "0" }] as Record<string, string>[]) {
      const submission = parsed(values);
      expect(submission.status).toBe("success");
      if (submission.status === "success") expect(submission.value.language).toBeNull();
    }
    expect(RegisterSchema.shape.language.parse(undefined)).toBeNull();
  });

  it("English (US) is 1", () => {
    const submission = parsed({ language: "1" });
    expect(submission.status === "success" && submission.value.language).toBe(1);
    expect(RegisterSchema.shape.language.parse("1")).toBe(1);
  });

  it("a value the list does not offer is refused with a message of its own, on both forms", () => {
    for (const bad of ["2", "-1", "en-US", "1.0", " 1"]) {
      expect(formErrors(ProfileDetailsSchema, { language: bad }).language, bad).toEqual([LANGUAGE_MESSAGE]);
      expect(formErrors(RegisterSchema, { language: bad }).language, bad).toEqual([LANGUAGE_MESSAGE]);
    }
  });

  it("the profile offers the language on file only when the list has it", () => {
    expect(languageChoice(1)).toBe(1);
    expect(languageChoice(54)).toBeNull();
    expect(languageChoice(null)).toBeNull();
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
    expect(formErrors(PaymentSchema, { intent: "apply-promo", promo: "  " })).toEqual({
      promo: ["Promo Code cannot be empty"],
    });
  });

  it("a time or a treatment that is not one of ours is the form's problem", () => {
    expect(formErrors(HoldSlotSchema, { slot: "tomorrow" })).toEqual({ "": ["Please choose a time from the list."] });
    expect(formErrors(HoldSlotSchema, { slot: "2026-12-01T10:30:00" })).toEqual({});
    expect(formErrors(ServiceChoiceSchema, { area: "a" })).toEqual({ "": ["Please select a service"] });
  });
});

describe("jump to a date (decision 054)", () => {
  // A Tuesday's four weeks: Tuesday 1 December to Monday 28 December 2026.
  const range = { first: "2026-12-01", last: "2026-12-28" };

  it("asks for a real date in the form, and the dates offered at the field", () => {
    expect(formErrors(JumpToDateSchema, {})).toEqual({ date: [JUMP_DATE_MESSAGES.missing] });
    expect(formErrors(JumpToDateSchema, { date: " " })).toEqual({ date: [JUMP_DATE_MESSAGES.missing] });
    for (const garbage of ["tomorrow", "2026-02-30", "2026-13-01", "12/08/2026", "2026-12-8"])
      expect(formErrors(JumpToDateSchema, { date: garbage }), garbage).toEqual({ date: [JUMP_DATE_MESSAGES.invalid] });
    expect(formErrors(JumpToDateSchema, { date: "2026-12-08" })).toEqual({});
  });

  it("refuses a past date or one past the horizon, naming the first or last day offered", () => {
    expect(bookingDateProblem("2026-11-30", range)).toBe(
      "That date has passed. Please choose Tuesday, December 1 or later.",
    );
    expect(bookingDateProblem("2026-12-29", range)).toBe(
      "Times can be booked up to Monday, December 28. Please choose that day or an earlier one.",
    );
    expect(bookingDateProblem("2026-12-01", range)).toBeNull();
    expect(bookingDateProblem("2026-12-28", range)).toBeNull();
    expect(bookingDateProblem("garbage", range)).toBe(JUMP_DATE_MESSAGES.invalid);
  });

  it("counts a Sunday as the Monday after it, as the step moves it", () => {
    // Sunday 27 December is Monday 28, the last day; Sunday 3 January would be Monday 4, past it.
    expect(bookingDateProblem("2026-12-27", range)).toBeNull();
    expect(bookingDateProblem("2027-01-03", { first: "2026-12-01", last: "2027-01-02" })).toBe(
      JUMP_DATE_MESSAGES.far("2027-01-02"),
    );
    // Agrees with the step's own rule for every day around the range.
    for (let day = 20; day <= 62; day++) {
      const date = new Date(Date.UTC(2026, 10, day)).toISOString().slice(0, 10);
      expect(bookingDateProblem(date, range) === null, date).toBe(normalizeBookingDate(date, "2026-12-01") !== null);
    }
  });
});
