import { formatPhone } from "~/lib/phone";

/**
 * A mobile number typed as 3-3-4 digits with dashes, at most 10 digits. With JavaScript the
 * dashes appear as you type; without it the server accepts the digits however they are written.
 * A number the browser fills in with its country code keeps the national part (`phoneDigits`).
 */
export function PhoneInput(props: React.InputHTMLAttributes<HTMLInputElement>) {
  return (
    <input
      type="tel"
      inputMode="numeric"
      autoComplete="tel"
      maxLength={12}
      placeholder="512-555-0141"
      {...props}
      onInput={(event) => {
        const input = event.currentTarget;
        input.value = formatPhone(input.value);
      }}
    />
  );
}
