/**
 * The id of the guest the embedded sandbox seeds for reading open times, the default of
 * SPA_AVAILABILITY_GUEST_ID when no back end is configured. Fixed, so that a server pointed at
 * another copy of the sandbox (the tests' fault back end) can name it. Kept apart from the sandbox's
 * code, which the production start does not load (decision 010).
 */
export const EMBEDDED_AVAILABILITY_GUEST_ID = "6f1d2c3b-9a8e-4b7c-a6d5-e4f3a2b1c0d9";
