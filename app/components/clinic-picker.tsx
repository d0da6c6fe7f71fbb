import { Form } from "react-router";

export const UNKNOWN_CLINIC_MESSAGE = "No clinic has that address. Please choose one from the list.";

/**
 * The clinic a page shows (its plans, packages or gift cards): a plain GET form, so the choice is in
 * the address and works without JavaScript; an unknown clinic in a link is said next to the list.
 */
export function ClinicPicker({
  clinics,
  selected,
  unknownClinic,
  submitLabel,
}: {
  clinics: { slug: string; name: string }[];
  selected: string | null;
  unknownClinic: boolean;
  submitLabel: string;
}) {
  return (
    <Form method="get" className="inline-form zip-search" aria-label="Choose a clinic">
      <label htmlFor="clinic">Clinic</label>
      <div className="inline-field">
        <select
          id="clinic"
          name="clinic"
          defaultValue={selected ?? ""}
          key={selected ?? ""}
          aria-invalid={unknownClinic || undefined}
          aria-describedby={unknownClinic ? "clinic-error" : undefined}
        >
          <option value="" disabled>
            Choose a clinic
          </option>
          {clinics.map((c) => (
            <option key={c.slug} value={c.slug}>
              {c.name}
            </option>
          ))}
        </select>
        <button type="submit" className="button">
          {submitLabel}
        </button>
      </div>
      {unknownClinic ? (
        <p id="clinic-error" className="field-error" role="alert">
          {UNKNOWN_CLINIC_MESSAGE}
        </p>
      ) : null}
    </Form>
  );
}
