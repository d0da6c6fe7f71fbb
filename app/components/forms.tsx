import {
  getFormProps,
  getInputProps,
  getSelectProps,
  type FieldMetadata,
  type FormMetadata,
  type SubmissionResult,
} from "@conform-to/react";
import { createContext, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { Form, useNavigation, type FormProps } from "react-router";
import type { z } from "zod";
import { CORRECT_ERRORS } from "~/domain/guest";
import type { FormContract } from "~/lib/form-contract";
import { firstFieldInError, formMetadata, initialFormState, nextFormState } from "~/lib/form-state";

/**
 * Forms are built with Conform on one zod schema (decision 013). The server parses every submit with
 * the schema and answers with `submission.reply()`. The page draws the form from the schema's
 * contract (`FORMS` in app/domain/form-contracts.ts): the inputs' `required`, lengths and patterns,
 * without zod itself, which stays on the server (decision 057). With JavaScript or without, a failed
 * submit comes back from the server with the fields filled in and the first invalid one focused
 * (by `useSchemaForm` in the browser, by `autofocus` on a whole page).
 */

type AnySchema = z.ZodType<Record<string, unknown>, Record<string, unknown>>;
type Fields = Record<string, unknown>;

/** `useLayoutEffect` in the browser; on the server, where it would warn, nothing runs. */
const useBrowserLayoutEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

export function useSchemaForm<Schema extends AnySchema>(
  contract: FormContract<Schema>,
  options: {
    id: string;
    lastResult?: SubmissionResult<string[]> | null;
    defaultValue?: Partial<Record<keyof z.input<Schema>, string | string[] | null>>;
  },
) {
  // No validation in the browser: every check is the server's, which answers a failed submit as it
  // does without JavaScript. The form is drawn from that answer with Conform's metadata and helpers,
  // without Conform's browser-side form context, which would only follow what is typed (decision 063).
  const stateOptions = {
    id: options.id,
    constraint: contract.constraint,
    defaultValue: options.defaultValue,
    lastResult: options.lastResult,
  };
  const [state, setState] = useState(() => initialFormState(stateOptions));
  const next = nextFormState(state, stateOptions);
  if (next !== state) setState(next);
  // After a new answer with mistakes, focus goes to the first field in error, in the page's order, as
  // Conform does (the summary takes it back when the form has a message of its own).
  const answered = useRef(state.lastResult);
  useBrowserLayoutEffect(() => {
    if (answered.current === state.lastResult) return;
    answered.current = state.lastResult;
    const formElement = document.forms.namedItem(state.formId);
    if (formElement && state.status === "error") firstFieldInError(formElement, state)?.focus();
  }, [state]);
  // Counts the server's answers: the error summary is made anew for each one (so it is announced each
  // time) and the password fields are emptied.
  const [answers, setAnswers] = useState({ last: options.lastResult, count: 0 });
  if (answers.last !== options.lastResult) setAnswers({ last: options.lastResult, count: answers.count + 1 });
  const form = useMemo(() => formMetadata(state), [state]) as unknown as FormMetadata<z.input<Schema>, string[]>;
  return {
    form: form as unknown as FormMetadata<Fields, string[]>,
    fields: form.getFieldset(),
    attempt: answers.count,
  };
}

/** The first field with an error, in the schema's order (which is the page's order). */
function firstInvalidField(form: FormMetadata<Fields, string[]>): string | undefined {
  return Object.entries(form.allErrors).find(([name, errors]) => name !== "" && errors?.length)?.[0];
}

/** The form's own messages: problems no field holds (no card to pick, an outage, a limit). */
function formMessages(form: FormMetadata<Fields, string[]>): string[] {
  return form.errors?.filter(Boolean) ?? [];
}

/**
 * The field focus goes to after a failed submit: the first message in page order. The summary is
 * above every field, so when it holds a message of the form's own, focus goes there and no field
 * takes it (the payment step with no card used to focus the street address under "Please add a
 * credit card"); else the first invalid field.
 */
function fieldToFocus(form: FormMetadata<Fields, string[]>): string | undefined {
  return formMessages(form).length > 0 ? undefined : firstInvalidField(form);
}

const FirstInvalidField = createContext<string | undefined>(undefined);

/**
 * Whether this field is the one to focus when the page comes back from a failed submit (for fields
 * drawn by hand, like a group of checkboxes or a password with its rules).
 */
export function useFocusFirst(name: string): true | undefined {
  return useContext(FirstInvalidField) === name ? true : undefined;
}

/**
 * A `<Form>` wired to its Conform form, with the one error summary at its top. Always `noValidate`:
 * the inputs carry `required` and their limits for assistive technology and the browser, but the
 * messages are ours, from the schema, with or without JavaScript.
 */
export function SchemaForm({
  schemaForm,
  children,
  summary = true,
  ...props
}: Omit<FormProps, "id" | "noValidate"> & {
  schemaForm: ReturnType<typeof useSchemaForm>;
  summary?: boolean;
}) {
  const { form, attempt } = schemaForm;
  return (
    <FirstInvalidField.Provider value={fieldToFocus(form)}>
      <Form method="post" {...props} {...getFormProps(form)} noValidate>
        {summary ? <ErrorSummary key={attempt} form={form} /> : null}
        {children}
      </Form>
    </FirstInvalidField.Provider>
  );
}

/**
 * The form's one announcement of a failed submit: the form's own message (an outage, a limit), and
 * that fields need correcting. The fields' messages sit next to them, read with each field. When
 * the form has a message of its own, it is the first in page order and focus comes here instead
 * of to a field (also after Conform has focused the first invalid field: this effect runs later).
 */
export function ErrorSummary({ form }: { form: FormMetadata<Fields, string[]> }) {
  const formErrors = formMessages(form);
  const fieldAtFault = firstInvalidField(form);
  const messages = [...formErrors, ...(fieldAtFault ? [CORRECT_ERRORS] : [])];
  const focusHere = formErrors.length > 0;
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Without JavaScript `autofocus` does this on load; in the browser it is made anew per submit.
    if (focusHere) ref.current?.focus();
  }, [focusHere]);
  if (!messages.length) return null;
  return (
    <div
      ref={ref}
      id={form.errorId}
      className="error-summary"
      role="alert"
      tabIndex={-1}
      autoFocus={focusHere || undefined}
    >
      {messages.map((message) => (
        <p key={message}>{message}</p>
      ))}
    </div>
  );
}

/** A field's message, next to it and named by its `aria-describedby`; the summary does the announcing. */
export function FieldMessage({ meta }: { meta: FieldMetadata<unknown, Fields, string[]> }) {
  const message = meta.errors?.[0];
  if (!message) return null;
  return (
    <p className="field-error" id={meta.errorId}>
      {message}
    </p>
  );
}

type InputType = Parameters<typeof getInputProps>[1]["type"];

/** A labelled input of a schema form, its message next to it. */
export function Field({
  meta,
  label,
  hint,
  type = "text",
  as: Input = "input",
  ...props
}: Omit<React.InputHTMLAttributes<HTMLInputElement>, "type" | "name" | "id" | "defaultValue"> & {
  meta: FieldMetadata<unknown, Fields, string[]>;
  label: string;
  hint?: React.ReactNode;
  type?: Exclude<InputType, "checkbox" | "radio">;
  as?: React.ElementType;
}) {
  const hintId = hint ? `${meta.id}-hint` : undefined;
  return (
    <div className="field">
      <label htmlFor={meta.id}>{label}</label>
      <Input
        {...getInputProps(meta, { type, ariaDescribedBy: hintId })}
        autoFocus={useFocusFirst(meta.name)}
        {...props}
      />
      {hint ? (
        <div className="hint" id={hintId}>
          {hint}
        </div>
      ) : null}
      <FieldMessage meta={meta} />
    </div>
  );
}

/** A labelled `<select>` of a schema form. */
export function SelectField({
  meta,
  label,
  children,
  ...props
}: Omit<React.SelectHTMLAttributes<HTMLSelectElement>, "name" | "id" | "defaultValue"> & {
  meta: FieldMetadata<unknown, Fields, string[]>;
  label: string;
}) {
  return (
    <div className="field">
      <label htmlFor={meta.id}>{label}</label>
      <select {...getSelectProps(meta)} autoFocus={useFocusFirst(meta.name)} {...props}>
        {children}
      </select>
      <FieldMessage meta={meta} />
    </div>
  );
}

/** A checkbox with its label around it, of a schema form; `value` is what a tick sends ("on"). */
export function CheckboxField({
  meta,
  value,
  children,
  ...props
}: Omit<React.InputHTMLAttributes<HTMLInputElement>, "type" | "name" | "id" | "value" | "defaultChecked"> & {
  meta: FieldMetadata<unknown, Fields, string[]>;
  value?: string;
  children: React.ReactNode;
}) {
  return (
    <div className="field">
      <label className="check">
        <input {...getInputProps(meta, { type: "checkbox", value })} autoFocus={useFocusFirst(meta.name)} {...props} />{" "}
        <span>{children}</span>
      </label>
      <FieldMessage meta={meta} />
    </div>
  );
}

/**
 * The buttons of a one-time-code form: its own submit, and "Send a new code", which submits the
 * separate resend form (`resendFormId`) so that asking for a code never sends what was typed.
 */
export function CodeFormActions({
  intent,
  label,
  resendFormId,
}: {
  intent: string;
  label: string;
  resendFormId: string;
}) {
  const navigation = useNavigation();
  return (
    <p className="actions">
      <button type="submit" name="intent" value={intent} disabled={navigation.state !== "idle"}>
        {label}
      </button>
      <button type="submit" form={resendFormId} name="intent" value="resend" className="button-secondary">
        Send a new code
      </button>
    </p>
  );
}
