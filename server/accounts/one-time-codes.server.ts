import { createHash, randomInt } from "node:crypto";
import type { Services } from "../services";

/** One-time codes: 6 digits, 10 minutes, single use, the 5th wrong guess burns the code. */
export const CODE_TTL_MS = 10 * 60_000;
export const CODE_MAX_ATTEMPTS = 5;
export const CODE_RESEND_COOLDOWN_MS = 30_000;

export const CODE_MESSAGES = {
  invalid: "That code is not valid. Please check it or request a new one.",
  expired: "That code has expired. Please request a new one.",
  tooMany: "Too many wrong codes. Please request a new one.",
} as const;

function codeHash(key: string, code: string): string {
  return createHash("sha256").update(`${key.trim().toLowerCase()}:${code}`).digest("hex");
}

/** Where a code goes: the contact on file, never one the visitor typed for someone else's record. */
export type CodeRecipient = { email: string | null; phone: string | null };

/**
 * Sends a new code to the contact on file, by email and by text when there is a mobile number. A
 * second code within the cooldown is not sent. `key` names the code (an email, or a guest).
 */
export async function sendOneTimeCode(
  services: Services,
  key: string,
  to: CodeRecipient,
  clock: () => number = Date.now,
): Promise<"sent" | "cooldown"> {
  const { oneTimeCodes } = services.stores;
  const existing = await oneTimeCodes.get(key);
  if (existing && clock() - existing.sentAt < CODE_RESEND_COOLDOWN_MS) return "cooldown";
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  await oneTimeCodes.put({
    email: key,
    codeHash: codeHash(key, code),
    expiresAt: clock() + CODE_TTL_MS,
    attempts: 0,
    sentAt: clock(),
  });
  const body = `Your Glow Clinic code is ${code}. It expires in 10 minutes. If you did not ask for it, ignore this message.`;
  if (to.email)
    await services.notifier.send({
      channel: "email",
      kind: "one-time-code",
      to: to.email,
      subject: "Your Glow Clinic code",
      body,
    });
  if (to.phone)
    await services.notifier.send({ channel: "sms", kind: "one-time-code", to: to.phone, subject: "Code", body });
  return "sent";
}

/** Checks a code once; a right code is used up, a wrong one counts against it. */
export async function checkOneTimeCode(
  services: Services,
  key: string,
  code: string,
  clock: () => number = Date.now,
): Promise<{ ok: true } | { ok: false; message: string }> {
  const { oneTimeCodes } = services.stores;
  const record = await oneTimeCodes.get(key);
  if (!record) return { ok: false, message: CODE_MESSAGES.invalid };
  if (record.expiresAt <= clock() || record.attempts >= CODE_MAX_ATTEMPTS) {
    await oneTimeCodes.delete(key);
    return { ok: false, message: CODE_MESSAGES.expired };
  }
  if (record.codeHash !== codeHash(key, code.trim())) {
    const attempts = await oneTimeCodes.countWrongGuess(key);
    if (attempts >= CODE_MAX_ATTEMPTS) {
      await oneTimeCodes.delete(key);
      return { ok: false, message: CODE_MESSAGES.tooMany };
    }
    return { ok: false, message: CODE_MESSAGES.invalid };
  }
  await oneTimeCodes.delete(key);
  return { ok: true };
}

/** "m•••@example.com": enough for the owner to recognise, too little to learn someone's address. */
export function maskEmail(email: string): string {
  const [local, domain] = email.split("@");
  return `${local.slice(0, 1)}•••@${domain ?? ""}`;
}

/** "•••-•••-0199". */
export function maskPhone(phone: string): string {
  return `•••-•••-${phone.replace(/\D/g, "").slice(-4)}`;
}

export function maskedContacts(to: CodeRecipient): string[] {
  return [...(to.email ? [maskEmail(to.email)] : []), ...(to.phone ? [maskPhone(to.phone)] : [])];
}
