import type { HoneypotInputProps } from "remix-utils/honeypot/server";

/**
 * The trap of the public sign-up forms (registration, a password-reset code), decision 052: a
 * field people never see and robots fill in, and the time the form was made, encrypted, which a
 * robot cannot make up. The browser's half is remix-utils' `HoneypotInputs`
 * (`app/components/spam-trap.tsx`); this is the server's half, to the same rules and the same
 * sealed form time as remix-utils' `Honeypot` (AES-GCM under the SHA-256 of a seed, the 12-byte IV
 * before the ciphertext, in base64). remix-utils' server half needs `@oslojs/crypto`, which the
 * project does not install: when it does, `new Honeypot({ nameFieldName, validFromFieldName,
 * encryptionSeed })` per secret replaces the sealing below, and forms in flight stay readable.
 */
export type SpamTrap = {
  /** What the form's `HoneypotInputs` render: the field names and this moment, sealed. */
  inputProps(): Promise<HoneypotInputProps>;
  /** Whether a submission fell into the trap: the field filled or left out, or a form time missing, unreadable or still to come. */
  isSpam(formData: FormData): Promise<boolean>;
};

/** The trap field keeps the name it has always had: robots fill in a "website". */
export const SPAM_TRAP_FIELD = "website";
/** remix-utils' name for the sealed form time. */
export const FORM_TIME_FIELD = "from__confirm";

const IV_BYTES = 12;

async function sealingKey(seed: string): Promise<CryptoKey> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(seed));
  return crypto.subtle.importKey("raw", digest, { name: "AES-GCM" }, false, ["encrypt", "decrypt"]);
}

async function seal(key: CryptoKey, text: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, new TextEncoder().encode(text));
  return Buffer.concat([iv, new Uint8Array(sealed)]).toString("base64");
}

/** The text sealed under one of the keys, or null when none of them opens it. */
async function unseal(keys: readonly CryptoKey[], value: string): Promise<string | null> {
  const bytes = Buffer.from(value, "base64");
  if (bytes.length <= IV_BYTES) return null;
  for (const key of keys) {
    try {
      const opened = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv: bytes.subarray(0, IV_BYTES) },
        key,
        bytes.subarray(IV_BYTES),
      );
      return new TextDecoder().decode(opened);
    } catch {
      // Not sealed under this key: the next (older) secret may open it.
    }
  }
  return null;
}

/**
 * `secrets` are the session secrets, newest first: every instance seals with the same key, and a
 * form made just before the secrets rotated is still read afterwards. Each key is derived from its
 * secret with a label of its own, so it is never the cookie's.
 */
export function createSpamTrap(secrets: readonly string[], clock: () => number = Date.now): SpamTrap {
  const keys = Promise.all(secrets.map((secret) => sealingKey(`spam-trap:${secret}`)));
  return {
    async inputProps() {
      const [newest] = await keys;
      return {
        nameFieldName: SPAM_TRAP_FIELD,
        validFromFieldName: FORM_TIME_FIELD,
        encryptedValidFrom: await seal(newest, String(clock())),
      };
    },
    async isSpam(formData) {
      const trap = formData.get(SPAM_TRAP_FIELD);
      const formTime = formData.get(FORM_TIME_FIELD);
      // remix-utils' rule: a submission with neither field never had the trap (a form of another
      // page, a client of the JSON API) and is judged by its own checks.
      if (trap === null && formTime === null) return false;
      if (trap !== "") return true;
      if (typeof formTime !== "string" || formTime === "") return true;
      const made = Number(await unseal(await keys, formTime));
      return !Number.isSafeInteger(made) || made <= 0 || made > clock();
    },
  };
}
