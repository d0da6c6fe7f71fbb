import type { ComponentProps } from "react";
import { SelectField } from "~/components/forms";
import { LANGUAGES, NO_LANGUAGE } from "~/domain/account-forms";

type Meta = ComponentProps<typeof SelectField>["meta"];

/** The optional language of the registration and profile forms: the spec's choices, none by default. */
export function LanguageSelect({ meta }: { meta: Meta }) {
  return (
    <SelectField meta={meta} label="Language">
      {[NO_LANGUAGE, ...LANGUAGES].map((choice) => (
        <option key={choice.value} value={String(choice.value)}>
          {choice.label}
        </option>
      ))}
    </SelectField>
  );
}
