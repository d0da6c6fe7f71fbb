import { HoneypotInputs, HoneypotProvider, type HoneypotProviderProps } from "remix-utils/honeypot/react";

/**
 * The hidden fields of a public form that robots fill in (decision 052), from what the route's
 * loader gave (`services.spamTrap.inputProps()`). Hidden by the site's stylesheet, so it holds
 * with or without JavaScript; the library's own inline style is allowed by its hash in the CSP.
 */
export function SpamTrapInputs({ trap }: { trap: Omit<HoneypotProviderProps, "children"> }) {
  return (
    <HoneypotProvider {...trap}>
      <HoneypotInputs label="Website" className="honeypot" />
    </HoneypotProvider>
  );
}
