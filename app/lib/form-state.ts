import type { FieldMetadata, FormMetadata, SubmissionResult } from "@conform-to/react";
import type { Constraint } from "~/lib/form-contract";

/**
 * A form's state when the server checks every submit (decision 063): what the page draws from its
 * server's last answer (`submission.reply()`), its default values and its contract's constraints,
 * in the shape of Conform's own metadata, so that Conform's helpers (`getInputProps`,
 * `getCollectionProps`, ...) and the pages read it as they read `useForm`'s. It follows Conform's
 * `useForm` (@conform-to/dom's form context) for what this app's forms use: the initial value is the
 * last answer's, else the defaults; a field's errors and validity come from the answer's; a new
 * answer replaces the errors and the status and leaves the initial values as they were (the inputs
 * keep what was typed); an answer with `initialValue: null` or a new form id starts afresh. Not
 * kept: the value as it is typed (`value` is the initial value, `dirty` false) and Conform's intents
 * (`form.update`, `form.reset`...), which would need its browser-side form context and which no
 * form here uses. Field names are flat (`email`, `addOn`), as every form contract's are.
 */
export type FormState = {
  readonly formId: string;
  readonly status: "error" | "success" | undefined;
  readonly initialValue: Readonly<Record<string, unknown>>;
  readonly error: Readonly<Record<string, string[] | null>>;
  readonly constraint: Readonly<Record<string, Constraint>>;
  /** The answer this state was last made from: a different one is a new answer. */
  readonly lastResult: SubmissionResult<string[]> | null | undefined;
};

/** A default value as Conform writes it into a form: text, a list of texts, or nothing. */
function serialize(value: unknown): unknown {
  if (isPlainObject(value))
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, serialize(item)]));
  if (Array.isArray(value)) return value.map(serialize);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "boolean") return value ? "on" : undefined;
  if (typeof value === "number" || typeof value === "bigint") return value.toString();
  return value ?? undefined;
}

/** Conform's `normalize`: empty texts, empty lists and `null` are no value. */
function normalize(value: unknown): unknown {
  if (isPlainObject(value)) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => [key, normalize(value[key])] as const)
      .filter(([, item]) => item !== undefined);
    return entries.length > 0 ? Object.fromEntries(entries) : undefined;
  }
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.map(normalize);
  if (value === "" || value === null) return undefined;
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return !!value && Object.getPrototypeOf(value) === Object.prototype;
}

/** `name` is the field `prefix` or one of its items or members (`addOn`, `addOn[0]`, `address.city`). */
function isPrefix(name: string, prefix: string): boolean {
  return prefix === "" || name === prefix || name.startsWith(`${prefix}[`) || name.startsWith(`${prefix}.`);
}

/** The state a page first draws: from the server's last answer, else from the defaults. */
export function initialFormState(options: {
  id: string;
  constraint: Readonly<Record<string, Constraint>>;
  defaultValue?: Record<string, unknown> | null;
  lastResult?: SubmissionResult<string[]> | null;
  /** Starting afresh: the answer is not drawn (Conform's reset). */
  resetting?: boolean;
}): FormState {
  const lastResult = options.resetting ? undefined : options.lastResult;
  const initialValue = lastResult?.initialValue ?? serialize(options.defaultValue ?? {});
  return {
    formId: options.id,
    status: lastResult?.status,
    initialValue: (normalize(initialValue) ?? {}) as Record<string, unknown>,
    error: lastResult?.error ?? {},
    constraint: options.constraint,
    lastResult: options.lastResult,
  };
}

/**
 * The state after the page's options change: a new answer from the server replaces the errors and
 * the status (a field whose error is `null` keeps its last), an answer with no values or a new form
 * id starts afresh, anything else leaves the state as it is.
 */
export function nextFormState(state: FormState, options: Parameters<typeof initialFormState>[0]): FormState {
  if (options.id !== state.formId) return initialFormState({ ...options, resetting: true });
  const result = options.lastResult;
  if (!result || result === state.lastResult) return state;
  if (result.initialValue === null) return initialFormState({ ...options, resetting: true });
  const error: Record<string, string[]> = {};
  for (const [name, messages] of Object.entries(result.error ?? {})) {
    const kept = messages === null ? state.error[name] : messages;
    if (kept) error[name] = kept;
  }
  return { ...state, status: result.status, error, lastResult: result };
}

/** The first field of the form, in the page's order, that the state holds an error for. */
export function firstFieldInError(form: HTMLFormElement, state: FormState): HTMLElement | undefined {
  for (const element of Array.from(form.elements)) {
    const isField =
      (element instanceof HTMLInputElement && !["submit", "button", "reset"].includes(element.type)) ||
      element instanceof HTMLSelectElement ||
      element instanceof HTMLTextAreaElement;
    if (isField && state.error[element.name]) return element;
  }
  return undefined;
}

type Fields = Record<string, unknown>;

function metadata(state: FormState, name: string) {
  const id = name ? `${state.formId}-${name}` : state.formId;
  const initialValue = name ? state.initialValue[name] : state.initialValue;
  const allErrors = Object.fromEntries(
    Object.entries(state.error).filter(([key, errors]) => isPrefix(key, name) && errors !== undefined),
  );
  return {
    id,
    name,
    errorId: `${id}-error`,
    descriptionId: `${id}-description`,
    key: undefined,
    initialValue,
    value: initialValue,
    defaultValue:
      typeof initialValue === "string" ? initialValue : Array.isArray(initialValue) ? initialValue[0] : undefined,
    defaultOptions:
      typeof initialValue === "string"
        ? [initialValue]
        : Array.isArray(initialValue) && initialValue.every((item) => typeof item === "string")
          ? initialValue
          : undefined,
    defaultChecked: initialValue === "on" ? true : undefined,
    errors: state.error[name],
    allErrors: name === "" ? state.error : allErrors,
    valid: Object.keys(name === "" ? state.error : allErrors).length === 0,
    dirty: false,
    getFieldset: () => fieldset(state, name),
  };
}

/** One field's metadata, as Conform's `fields.name`. */
export function fieldMetadata(state: FormState, name: string): FieldMetadata<unknown, Fields, string[]> {
  const initialValue = state.initialValue[name];
  return {
    ...metadata(state, name),
    ...state.constraint[name],
    formId: state.formId,
    getFieldList: () =>
      (Array.isArray(initialValue) ? initialValue : []).map((_, index) => fieldMetadata(state, `${name}[${index}]`)),
  } as unknown as FieldMetadata<unknown, Fields, string[]>;
}

/** The fields of the form (or of one field's members), each made when it is first read. */
function fieldset(state: FormState, prefix: string) {
  const made = new Map<string, FieldMetadata<unknown, Fields, string[]>>();
  return new Proxy({} as Record<string, FieldMetadata<unknown, Fields, string[]>>, {
    get(_, key) {
      if (typeof key !== "string") return undefined;
      const name = prefix ? `${prefix}.${key}` : key;
      if (!made.has(name)) made.set(name, fieldMetadata(state, name));
      return made.get(name);
    },
  });
}

/** The form's metadata, as Conform's `form`. */
export function formMetadata(state: FormState): FormMetadata<Fields, string[]> {
  return { ...metadata(state, ""), status: state.status, noValidate: true } as unknown as FormMetadata<
    Fields,
    string[]
  >;
}
