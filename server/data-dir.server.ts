import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Env } from "./env.server";

/**
 * The data directory holds guests' records, the outbox, the session secret and the sandbox key: only
 * the account the app runs as may read it. Modes are set with chmod after creating, so they do not
 * depend on the process umask.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates the directory (and missing parents) for the owner only; an existing one is left as it is. */
function ensurePrivateDir(dir: string): void {
  if (fs.existsSync(dir)) return;
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  fs.chmodSync(dir, PRIVATE_DIR_MODE);
}

/**
 * Run once at start: the data directory becomes 0700 and every file directly in it 0600, which
 * also tightens files left by an earlier version. A shared directory (sticky bit, like /tmp) is
 * never changed: that would lock its other users out.
 */
export function secureDataDir(dir: string): void {
  ensurePrivateDir(dir);
  const stat = fs.statSync(dir);
  if ((stat.mode & 0o1000) === 0 && (stat.mode & 0o777) !== PRIVATE_DIR_MODE) fs.chmodSync(dir, PRIVATE_DIR_MODE);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(dir, entry.name);
    if ((fs.statSync(file).mode & 0o777) !== PRIVATE_FILE_MODE) fs.chmodSync(file, PRIVATE_FILE_MODE);
  }
}

/**
 * Makes sure a SQLite file exists with mode 0600 before SQLite opens it: SQLite gives its -wal,
 * -shm and journal files the mode of the database file.
 */
export function preparePrivateFile(file: string): void {
  ensurePrivateDir(path.dirname(file));
  fs.closeSync(fs.openSync(file, "a", PRIVATE_FILE_MODE));
  fs.chmodSync(file, PRIVATE_FILE_MODE);
}

/** Writes a new secret file (0600); fails if it exists, so two starts never overwrite each other's. */
function writePrivateFile(file: string, content: string): void {
  ensurePrivateDir(path.dirname(file));
  const fd = fs.openSync(file, "wx", PRIVATE_FILE_MODE);
  try {
    fs.fchmodSync(fd, PRIVATE_FILE_MODE);
    fs.writeFileSync(fd, content);
  } finally {
    fs.closeSync(fd);
  }
}

/** A random secret made on first use and kept in a file only the owner may read. */
export function generatedSecret(file: string, bytes: number): string {
  if (!fs.existsSync(file)) {
    try {
      writePrivateFile(file, randomBytes(bytes).toString("base64url"));
    } catch (error) {
      // Another process made it first: read theirs.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  return fs.readFileSync(file, "utf8").trim();
}

/** The embedded sandbox's API key: the configured one, or one made on first start. */
export function sandboxApiKey(env: Pick<Env, "SANDBOX_API_KEY" | "DATA_DIR">): string {
  return env.SANDBOX_API_KEY ?? generatedSecret(path.join(env.DATA_DIR, "sandbox-api-key"), 32);
}
