import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createOutboxNotifier } from "./notify/notifier.server";
import { openSandboxDb } from "./spa-sandbox/db";
import { generatedSecret, preparePrivateFile, sandboxApiKey, secureDataDir } from "./data-dir.server";

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

let root: string;
let umask: number;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "data-dir-"));
  // The most permissive umask: the modes must not depend on it.
  umask = process.umask(0);
});
afterEach(() => {
  process.umask(umask);
  fs.rmSync(root, { recursive: true, force: true });
});

describe("the data directory", () => {
  it("is created for the owner only, parents included", () => {
    const dir = path.join(root, "a", "data");
    secureDataDir(dir);
    expect(modeOf(dir)).toBe(0o700);
  });

  it("tightens a directory and files left readable by an earlier version", () => {
    const dir = path.join(root, "data");
    fs.mkdirSync(dir, { mode: 0o755 });
    fs.writeFileSync(path.join(dir, "store.sqlite"), "", { mode: 0o644 });
    fs.writeFileSync(path.join(dir, "session-secret"), "secret", { mode: 0o644 });
    secureDataDir(dir);
    expect(modeOf(dir)).toBe(0o700);
    expect(modeOf(path.join(dir, "store.sqlite"))).toBe(0o600);
    expect(modeOf(path.join(dir, "session-secret"))).toBe(0o600);
  });

  it("gives the SQLite files and their -wal and -shm files mode 0600", () => {
    const dir = path.join(root, "data");
    const sandbox = openSandboxDb(path.join(dir, "spa-sandbox.sqlite"));
    const outbox = createOutboxNotifier(path.join(dir, "outbox.sqlite"));
    preparePrivateFile(path.join(dir, "store.sqlite"));
    expect(modeOf(dir)).toBe(0o700);
    const files = fs.readdirSync(dir);
    expect(files).toEqual(
      expect.arrayContaining([
        "spa-sandbox.sqlite",
        "spa-sandbox.sqlite-wal",
        "spa-sandbox.sqlite-shm",
        "outbox.sqlite",
        "store.sqlite",
      ]),
    );
    for (const file of files) expect([file, modeOf(path.join(dir, file))]).toEqual([file, 0o600]);
    sandbox.close();
    outbox.close();
  });

  it("keeps a generated secret in a 0600 file and returns the same one next time", () => {
    const file = path.join(root, "data", "session-secret");
    const secret = generatedSecret(file, 48);
    expect(secret.length).toBeGreaterThanOrEqual(64);
    expect(modeOf(file)).toBe(0o600);
    expect(modeOf(path.dirname(file))).toBe(0o700);
    expect(generatedSecret(file, 48)).toBe(secret);
  });

  it("makes a sandbox API key per data directory unless one is configured", () => {
    const dir = path.join(root, "data");
    const key = sandboxApiKey({ DATA_DIR: dir, SANDBOX_API_KEY: undefined });
    expect(key).not.toBe("sandbox-api-key");
    expect(key.length).toBeGreaterThanOrEqual(32);
    expect(modeOf(path.join(dir, "sandbox-api-key"))).toBe(0o600);
    expect(sandboxApiKey({ DATA_DIR: dir, SANDBOX_API_KEY: undefined })).toBe(key);
    expect(sandboxApiKey({ DATA_DIR: dir, SANDBOX_API_KEY: "configured-key" })).toBe("configured-key");
  });
});
