import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { useState } from "react";
import { PASSWORD_RULES } from "~/domain/password-rules";
import { FieldMessage, useFocusFirst } from "~/components/forms";

/**
 * A new-password input of a schema form with the spec's rules listed under it; with JavaScript each
 * rule is ticked as it is met. It never gets a value back from the server: give it a new `key` after
 * each failed submit to empty it.
 */
export function NewPasswordField({
  meta,
  label = "Password",
}: {
  meta: FieldMetadata<unknown, Record<string, unknown>, string[]>;
  label?: string;
}) {
  const [value, setValue] = useState("");
  const rulesId = `${meta.id}-rules`;
  return (
    <div className="field">
      <label htmlFor={meta.id}>{label}</label>
      <input
        {...getInputProps(meta, { type: "password", value: false, ariaDescribedBy: rulesId })}
        autoComplete="new-password"
        autoFocus={useFocusFirst(meta.name)}
        onChange={(event) => setValue(event.currentTarget.value)}
      />
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
      <FieldMessage meta={meta} />
    </div>
  );
}
