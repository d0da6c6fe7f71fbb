import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { useState } from "react";
import { PASSWORD_MAX_LENGTH, PASSWORD_RULES } from "~/domain/password-rules";
import { FieldError } from "~/components/field";
import { FieldMessage, useFocusFirst } from "~/components/forms";

type Props =
  | { meta: FieldMetadata<unknown, Record<string, unknown>, string[]>; label?: string }
  | { meta?: undefined; name?: string; label?: string; error?: string };

/**
 * A new-password input with the spec's rules listed under it; with JavaScript each rule is ticked as
 * it is met. In a schema form (`meta`) it never gets a value back from the server: give it a new
 * `key` after each failed submit to empty it.
 */
export function NewPasswordField(props: Props) {
  const [value, setValue] = useState("");
  const label = props.label ?? "Password";
  const focusFirst = useFocusFirst(props.meta?.name ?? "");
  const id = props.meta ? props.meta.id : (props.name ?? "password");
  const rulesId = `${id}-rules`;
  const input = props.meta
    ? { ...getInputProps(props.meta, { type: "password", value: false, ariaDescribedBy: rulesId }), autoFocus: focusFirst }
    : {
        id,
        name: id,
        type: "password",
        maxLength: PASSWORD_MAX_LENGTH,
        "aria-invalid": props.error ? true : undefined,
        "aria-describedby": `${rulesId}${props.error ? ` ${id}-error` : ""}`,
      };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input {...input} autoComplete="new-password" onChange={(event) => setValue(event.currentTarget.value)} />
      <ul className="password-rules" id={rulesId}>
        {PASSWORD_RULES.map((rule) => {
          const met = rule.test(value);
          return (
            <li key={rule.id} className={met ? "met" : undefined}>
              <span aria-hidden="true">{met ? "✓" : "•"}</span> {rule.text}
              {met ? <span className="visually-hidden"> (met)</span> : null}
            </li>
          );
        })}
      </ul>
      {props.meta ? <FieldMessage meta={props.meta} /> : <FieldError id={`${id}-error`} message={props.error} />}
    </div>
  );
}
