import { useState } from "react";
import { PASSWORD_MAX_LENGTH, PASSWORD_RULES } from "~/domain/password-rules";
import { FieldError } from "~/components/field";

/**
 * A new-password input with the spec's rules listed under it; with JavaScript each rule is ticked
 * as it is met.
 */
export function NewPasswordField({ name = "password", label = "Password", error }: { name?: string; label?: string; error?: string }) {
  const [value, setValue] = useState("");
  return (
    <div className="field">
      <label htmlFor={name}>{label}</label>
      <input
        id={name}
        name={name}
        type="password"
        autoComplete="new-password"
        maxLength={PASSWORD_MAX_LENGTH}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${name}-rules${error ? ` ${name}-error` : ""}`}
        onChange={(event) => setValue(event.currentTarget.value)}
      />
      <ul className="password-rules" id={`${name}-rules`}>
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
      <FieldError id={`${name}-error`} message={error} />
    </div>
  );
}
