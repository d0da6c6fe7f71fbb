import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { FORMS } from "~/domain/form-contracts";
import { useSchemaForm } from "./forms";

// `useSchemaForm` draws a form from the server's answer without Conform's browser-side form context
// (decision 063): the page it draws must be the page Conform's `useForm` draws from the same answer.

type Options = {
  id: string;
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue?: Record<string, string | string[] | null>;
};
type Contract = (typeof FORMS)[keyof typeof FORMS];

const READ = ["id", "name", "errorId", "descriptionId", "formId", "initialValue", "defaultValue", "errors", "valid"];

function draw(form: Record<string, unknown>, fields: Record<string, Record<string, unknown>>, names: string[]) {
  const read = (meta: Record<string, unknown>) => JSON.stringify(READ.map((key) => meta[key]));
  return (
    <form {...getFormProps(form as never)}>
      <output data-form={JSON.stringify([form.id, form.errors, form.allErrors, form.status, form.valid])} />
      {names.map((name) => (
        <span key={name} data-meta={read(fields[name])}>
          <input {...getInputProps(fields[name] as never, { type: "text" })} />
          <input {...getInputProps(fields[name] as never, { type: "checkbox", value: "a" })} />
        </span>
      ))}
    </form>
  );
}

function WithConform({ contract, options, names }: { contract: Contract; options: Options; names: string[] }) {
  const [form, fields] = useForm({
    id: options.id,
    lastResult: options.lastResult,
    defaultValue: options.defaultValue,
    constraint: contract.constraint,
    shouldValidate: "onSubmit",
  });
  return draw(form as never, fields as never, names);
}

function WithSchemaForm({ contract, options, names }: { contract: Contract; options: Options; names: string[] }) {
  const { form, fields } = useSchemaForm(contract as never, options as never);
  return draw(form as never, fields as never, names);
}

describe("a form drawn by useSchemaForm, beside the same form drawn by Conform's useForm", () => {
  for (const [schema, contract] of Object.entries(FORMS)) {
    const names = Object.keys(contract.constraint).filter((name) => !name.endsWith("[]"));
    const values = Object.fromEntries(names.map((name, index) => [name, index % 3 === 0 ? ["a", "b"] : `v${index}`]));
    const cases: Record<string, Options> = {
      "with nothing": { id: "f" },
      "with defaults": { id: "f", defaultValue: { ...values, [names[0]]: "", [names.at(-1)!]: null } },
      "after a failed submit": {
        id: "f",
        defaultValue: values,
        lastResult: {
          status: "error",
          initialValue: { ...values, [names[0]]: "" },
          error: { "": ["The form's own message"], [names.at(-1)!]: ["Wrong"], [`${names[0]}[1]`]: ["Wrong item"] },
        },
      },
    };
    for (const [label, options] of Object.entries(cases))
      it(`${schema}, ${label}`, () => {
        const conform = renderToString(<WithConform contract={contract} options={options} names={names} />);
        const ours = renderToString(<WithSchemaForm contract={contract} options={options} names={names} />);
        expect(ours).toBe(conform);
      });
  }
});
