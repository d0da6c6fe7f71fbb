/** A labelled input with its error next to it, announced to screen readers. */
export function Field({
  name,
  label,
  error,
  hint,
  focus,
  as: Input = "input",
  ...props
}: React.InputHTMLAttributes<HTMLInputElement> & {
  name: string;
  label: string;
  error?: string;
  hint?: React.ReactNode;
  focus?: boolean;
  as?: React.ElementType;
}) {
  const describedBy = [error ? `${name}-error` : null, hint ? `${name}-hint` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={name}>{label}</label>
      <Input id={name} name={name} aria-invalid={error ? true : undefined} aria-describedby={describedBy} autoFocus={focus} {...props} />
      {hint ? (
        <div className="hint" id={`${name}-hint`}>
          {hint}
        </div>
      ) : null}
      <FieldError id={`${name}-error`} message={error} />
    </div>
  );
}

/** A message about the whole form, announced when it appears. */
export function FormError({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p className="field-error" role="alert">
      {message}
    </p>
  );
}

/** A field's message, next to it, referenced by the field's aria-describedby and announced. */
export function FieldError({ id, message }: { id: string; message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p className="field-error" id={id} role="alert">
      {message}
    </p>
  );
}
