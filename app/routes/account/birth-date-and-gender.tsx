import type { ComponentProps } from "react";
import { Field, SelectField } from "~/components/forms";
import { EARLIEST_BIRTH_DATE, GENDERS, OTHER_GENDER } from "~/domain/account-forms";

type Meta = ComponentProps<typeof Field>["meta"];

/**
 * The optional birth date (from the spec's earliest, 1940-01-01, to today) and gender of the
 * registration and profile forms. `otherGender`: the guest is filed as Other at a clinic (Zenoti's
 * 3), a choice kept for them though the form does not offer it.
 */
export function BirthDateAndGender({
  birthDate,
  gender,
  otherGender = false,
}: {
  birthDate: Meta;
  gender: Meta;
  otherGender?: boolean;
}) {
  return (
    <>
      <Field meta={birthDate} label="Birth date (optional)" type="date" min={EARLIEST_BIRTH_DATE} autoComplete="bday" />
      <SelectField meta={gender} label="Gender">
        {[...GENDERS, ...(otherGender ? [OTHER_GENDER] : [])].map((choice) => (
          <option key={choice.value} value={String(choice.value)}>
            {choice.label}
          </option>
        ))}
      </SelectField>
    </>
  );
}
