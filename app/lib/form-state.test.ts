import { getCollectionProps, getInputProps, getSelectProps, type SubmissionResult } from "@conform-to/react";
import { describe, expect, it } from "vitest";
import { FORMS } from "~/domain/form-contracts";
import { fieldMetadata, formMetadata, initialFormState, nextFormState } from "./form-state";

const constraint = {
  email: { required: true, maxLength: 254 },
  password: { required: true, maxLength: 128 },
  addOn: { required: false, multiple: true },
};
const failed: SubmissionResult<string[]> = {
  status: "error",
  initialValue: { email: "ann@example.com", addOn: ["a", "b"], note: "" },
  error: { email: ["Enter a valid email"], "": ["Too many tries"] },
};

describe("a server-checked form's state, drawn as Conform draws it", () => {
  it("starts from the defaults, as texts, with no errors", () => {
    const state = initialFormState({ id: "login", constraint, defaultValue: { email: "a@b.c", remember: true, n: 3 } });
    const email = fieldMetadata(state, "email");
    expect(email.id).toBe("login-email");
    expect(email.errorId).toBe("login-email-error");
    expect(email.formId).toBe("login");
    expect(email.initialValue).toBe("a@b.c");
    expect(email.errors).toBeUndefined();
    expect(email.valid).toBe(true);
    expect(fieldMetadata(state, "remember").defaultChecked).toBe(true);
    expect(fieldMetadata(state, "n").initialValue).toBe("3");
    expect(formMetadata(state).status).toBeUndefined();
    expect(getInputProps(email, { type: "email" })).toEqual({
      id: "login-email",
      name: "email",
      form: "login",
      required: true,
      maxLength: 254,
      type: "email",
      defaultValue: "a@b.c",
    });
  });

  it("draws the server's answer: its values, its messages, the field marked and described", () => {
    const state = initialFormState({ id: "login", constraint, defaultValue: { email: "old@b.c" }, lastResult: failed });
    const form = formMetadata(state);
    expect(form.status).toBe("error");
    expect(form.errors).toEqual(["Too many tries"]);
    expect(form.allErrors).toEqual(failed.error);
    expect(form.valid).toBe(false);
    const email = form.getFieldset().email;
    expect(email.errors).toEqual(["Enter a valid email"]);
    expect(email.valid).toBe(false);
    expect(getInputProps(email, { type: "email" })).toMatchObject({
      defaultValue: "ann@example.com",
      "aria-invalid": true,
      "aria-describedby": "login-email-error",
    });
    // An empty text is no value, as Conform normalizes it.
    expect(fieldMetadata(state, "note").initialValue).toBeUndefined();
    const ticks = getCollectionProps(fieldMetadata(state, "addOn"), { type: "checkbox", options: ["a", "c"] });
    expect(ticks.map((tick) => tick.defaultChecked)).toEqual([true, false]);
    expect(getSelectProps(fieldMetadata(state, "addOn")).defaultValue).toEqual(["a", "b"]);
  });

  it("an item's error makes its list invalid", () => {
    const state = initialFormState({
      id: "f",
      constraint,
      lastResult: { status: "error", initialValue: {}, error: { "addOn[1]": ["No such add-on"] } },
    });
    expect(fieldMetadata(state, "addOn").valid).toBe(false);
    expect(fieldMetadata(state, "addOn").allErrors).toEqual({ "addOn[1]": ["No such add-on"] });
    expect(fieldMetadata(state, "add").valid).toBe(true);
  });

  it("a new answer replaces the messages and keeps the first values (the inputs keep what was typed)", () => {
    const first = initialFormState({ id: "login", constraint, lastResult: failed });
    expect(nextFormState(first, { id: "login", constraint, lastResult: failed })).toBe(first);
    const second: SubmissionResult<string[]> = {
      status: "error",
      initialValue: { email: "other@example.com" },
      error: { password: ["Enter your password"], email: null },
    };
    const next = nextFormState(first, { id: "login", constraint, lastResult: second });
    expect(next.error).toEqual({ password: ["Enter your password"], email: ["Enter a valid email"] });
    expect(fieldMetadata(next, "email").initialValue).toBe("ann@example.com");
    expect(nextFormState(next, { id: "login", constraint, lastResult: second })).toBe(next);
  });

  it("starts afresh for a new form id or an answer that resets the form", () => {
    const first = initialFormState({ id: "login", constraint, defaultValue: { email: "d@b.c" }, lastResult: failed });
    const other = nextFormState(first, {
      id: "register",
      constraint,
      defaultValue: { email: "d@b.c" },
      lastResult: failed,
    });
    expect(other.error).toEqual({});
    expect(fieldMetadata(other, "email").initialValue).toBe("d@b.c");
    const reset = nextFormState(first, {
      id: "login",
      constraint,
      defaultValue: { email: "d@b.c" },
      lastResult: { status: "success", initialValue: null },
    });
    expect(reset.error).toEqual({});
    expect(formMetadata(reset).status).toBeUndefined();
  });

  it("every form's fields have flat names, the only kind this state reads", () => {
    for (const contract of Object.values(FORMS))
      for (const name of Object.keys(contract.constraint)) expect(name).toMatch(/^[A-Za-z][A-Za-z0-9]*(\[\])?$/);
  });
});
