import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

/** scrypt's work factors: memory is 128 * n * r bytes. */
export type PasswordCost = { n: number; r: number; p: number };

/**
 * scrypt, memory-hard, at OWASP's suggestion: N=2^17, r=8, p=1 (128 MiB a hash). The parameters
 * are part of each stored hash, so hashes made with older ones still verify, and are replaced with
 * a new one at the next sign-in (see needsRehash).
 */
export const STANDARD_COST: PasswordCost = { n: 2 ** 17, r: 8, p: 1 };
/**
 * For test servers on the embedded sandbox only (`PASSWORD_HASH_COST=low`, refused with a real back
 * end): the same code at 1/128 of the work, so a browser-test run does not spend minutes of
 * processor on the hundreds of accounts it makes (decision 061).
 */
export const LOW_COST: PasswordCost = { n: 2 ** 10, r: 8, p: 1 };
const KEY_LENGTH = 32;

/** The cost a `PASSWORD_HASH_COST` setting names. */
export function passwordCost(setting: "standard" | "low"): PasswordCost {
  return setting === "low" ? LOW_COST : STANDARD_COST;
}
/** Stored hashes with a larger cost are refused rather than computed (a broken or hostile record). */
const MAX_N = 2 ** 20;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  // scrypt needs 128 * N * r bytes, plus 128 * r * p for its block mixing; leave a margin over both.
  const maxmem = 128 * n * r + 128 * r * p + 1024 * 1024;
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, { N: n, r, p, maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

type HashParts = { n: number; r: number; p: number; salt: Buffer; key: Buffer };

function parseHash(stored: string): HashParts | null {
  const [scheme, n, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !key) return null;
  const parts = {
    n: Number(n),
    r: Number(r),
    p: Number(p),
    salt: Buffer.from(salt, "base64url"),
    key: Buffer.from(key, "base64url"),
  };
  const powerOfTwo = Number.isInteger(parts.n) && parts.n > 1 && (parts.n & (parts.n - 1)) === 0;
  if (
    !powerOfTwo ||
    parts.n > MAX_N ||
    !Number.isInteger(parts.r) ||
    parts.r < 1 ||
    parts.r > 32 ||
    !Number.isInteger(parts.p) ||
    parts.p < 1 ||
    parts.p > 16
  )
    return null;
  return parts;
}

export async function hashPassword(password: string, cost: PasswordCost = STANDARD_COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost.n, cost.r, cost.p);
  return `scrypt$${cost.n}$${cost.r}$${cost.p}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = parseHash(stored);
  if (!parts) return false;
  const actual = await derive(password, parts.salt, parts.n, parts.r, parts.p);
  return actual.length === parts.key.length && timingSafeEqual(actual, parts.key);
}

/** True for a hash made with weaker parameters than `cost`: replace it once the password is known. */
export function needsRehash(stored: string, cost: PasswordCost = STANDARD_COST): boolean {
  const parts = parseHash(stored);
  return !parts || parts.n < cost.n || parts.r < cost.r || parts.p < cost.p;
}
