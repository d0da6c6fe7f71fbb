import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

/**
 * scrypt, memory-hard, at OWASP's suggestion: N=2^17, r=8, p=1 (128 MiB a hash). The parameters
 * are part of each stored hash, so hashes made with older ones still verify, and are replaced with
 * a new one at the next sign-in (see needsRehash).
 */
const N = 2 ** 17;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
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

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P);
  return `scrypt$${N}$${R}$${P}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = parseHash(stored);
  if (!parts) return false;
  const actual = await derive(password, parts.salt, parts.n, parts.r, parts.p);
  return actual.length === parts.key.length && timingSafeEqual(actual, parts.key);
}

/** True for a hash made with weaker parameters than today's: replace it once the password is known. */
export function needsRehash(stored: string): boolean {
  const parts = parseHash(stored);
  return !parts || parts.n < N || parts.r < R || parts.p < P;
}
