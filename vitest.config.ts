import { defineConfig } from "vitest/config";
import path from "node:path";

const TEST_TIMEOUT_MS = 20_000;

export default defineConfig({
  resolve: {
    alias: {
      "~": path.resolve(import.meta.dirname, "app"),
      "#server": path.resolve(import.meta.dirname, "server"),
    },
  },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "tests/helpers/**/*.test.ts"],
    setupFiles: ["./tests/setup-unit.ts"],
    environment: "node",
    // Test files in one worker share the modules they import (decision 061): importing the app's
    // server modules afresh for each of some 130 files was half the suite's processor time. No test
    // mocks a module, and each builds its own services, stores and sandbox.
    isolate: false,
    // One worker per core. Vitest's default leaves one core to its main process, which on a
    // two-core machine ran every file one after another: 177 s against 105 s with two (decision 053).
    maxWorkers: "100%",
    // A 2-core machine running password hashing (scrypt, 128 MiB each) next to other files can be
    // slow; this is a safety net against hangs, not a speed check.
    testTimeout: TEST_TIMEOUT_MS,
    // The same net for the hooks that start sandboxes and servers (vitest's own default is 10 s).
    hookTimeout: TEST_TIMEOUT_MS,
    // A poll for what the code does in the background waits as long as the test may (decision 047).
    expect: { poll: { timeout: TEST_TIMEOUT_MS } },
  },
});
