import { defineConfig, devices } from "@playwright/test";
import { EMBEDDED_AVAILABILITY_GUEST_ID } from "./server/embedded-defaults";
import { chromiumLaunchOptions } from "./scripts/chromium.mjs";

const PORT = Number(process.env.E2E_PORT ?? 4173);
/** The main test server, which the browser tests reach at `localhost`; some also at `127.0.0.1`. */
export const APP_PORT = PORT;
/** A second server whose sandbox holds slots for 4 seconds, for the hold-expiry journey. */
export const SHORT_HOLD_PORT = PORT + 1;
/** A third server whose spa back end is unreachable, for the outage pages. */
export const NO_BACKEND_PORT = PORT + 2;
/** The sandbox behind a fault-injecting proxy (its control path is /__faults), and a server using it. */
export const FAULT_BACKEND_PORT = PORT + 3;
export const FAULTS_PORT = PORT + 4;
export const FAULT_BACKEND_KEY = "fault-backend-api-key";
/** A server whose sandbox allows Zenoti's 60 calls a minute; its spec spends them all itself. */
export const RATE_LIMITED_PORT = PORT + 5;
/**
 * Several instances: one Redis, and two app servers on one data directory (one SQLite store, one
 * embedded sandbox file, one outbox) sharing their counters through that Redis.
 */
export const REDIS_PORT = PORT + 6;
export const MULTI_A_PORT = PORT + 7;
export const MULTI_B_PORT = PORT + 8;
const MULTI_SESSION_SECRETS = "e2e-multi-instance-secret-0123456789abcdef";
/**
 * The strictest tenant Zenoti's public evidence shows (decision 035): cards as a bare array, HHmm
 * hours, time zones with an id and no name, top-level errors, guest search across centers off,
 * preferences only when asked for. Four of the sandbox's five zone ids are set; Phoenix's is not, so
 * its clinic is refused.
 */
export const STRICT_TENANT_PORT = PORT + 9;
export const STRICT_TENANT_ZONE_IDS = "4=America/Los_Angeles,10=America/Denver,11=America/Chicago,20=America/New_York";
/**
 * Every test server on the embedded sandbox hashes passwords at the low cost it allows (decision 061):
 * the runs make hundreds of accounts, and at the standard cost each takes most of a second of processor.
 */
const TEST_PASSWORD_COST = { PASSWORD_HASH_COST: "low" } as const;
/** The test servers' sandbox key, so tests can look records up in the back end (from this machine only). */
export const E2E_SANDBOX_API_KEY = "e2e-sandbox-api-key";
/**
 * Debian's headless Chromium (the `chromium-headless-shell` package): the same engine as the full
 * browser without its window machinery, so each page costs about a third less processor time
 * (decision 053). `CHROMIUM_PATH` points the tests at another build, such as the full `/usr/bin/chromium`.
 */
const chromium = chromiumLaunchOptions("/usr/bin/chromium-headless-shell");

function traceMode(setting: string | undefined) {
  const modes = [
    "off",
    "on",
    "retain-on-failure",
    "on-first-retry",
    "on-all-retries",
    "retain-on-first-failure",
  ] as const;
  if (setting === undefined || setting === "") return "off";
  const mode = modes.find((known) => known === setting);
  if (!mode) throw new Error(`PW_TRACE is ${setting}; use one of ${modes.join(", ")}.`);
  return mode;
}

/** What the launcher prints once every test server answers. */
const TEST_SERVERS_READY = "every test server answers";

/** A server the browser tests use: it answers at `url` (or accepts on `port`) once started. */
type TestServer = {
  name: string;
  command: string;
  env?: Record<string, string>;
  url?: string;
  port?: number;
  /** The servers that must answer before this one starts. */
  after?: string[];
};

/**
 * The test servers. Each starts the way `npm run serve` does: server.js runs the production build in
 * production mode whatever NODE_ENV says.
 */
function listTestServers(): TestServer[] {
  return [
    {
      name: "app",
      // The production build on a fresh data directory: the sandbox seeds itself on start.
      command: `rm -rf .e2e-data && node server.js`,
      // Every booking step kept by what it shows is rendered again and compared here (decision 034):
      // a page whose render reads something that changed between two requests with the same data (a
      // clock, a random value) fails the test that loads it again. The other servers serve kept pages
      // as production does.
      env: {
        PORT: String(PORT),
        HOST: "127.0.0.1",
        DATA_DIR: ".e2e-data",
        LOG_LEVEL: "warn",
        SANDBOX_API_KEY: E2E_SANDBOX_API_KEY,
        RENDER_MEMO_VERIFY: "1",
        ...TEST_PASSWORD_COST,
        // A recovery message is due as soon as its guest stops, whatever the hour (decision 059); the
        // spec runs the pass through /dev/recovery-messages rather than wait for its minute.
        RECOVERY_DELAY_MINUTES: "0",
        RECOVERY_NIGHT_HOURS: "off",
      },
      url: `http://localhost:${PORT}/healthz`,
    },
    {
      name: "short-hold",
      command: `rm -rf .e2e-data-short-hold && node server.js`,
      env: {
        PORT: String(SHORT_HOLD_PORT),
        HOST: "127.0.0.1",
        DATA_DIR: ".e2e-data-short-hold",
        LOG_LEVEL: "warn",
        SANDBOX_HOLD_SECONDS: "4",
        SANDBOX_API_KEY: E2E_SANDBOX_API_KEY,
        ...TEST_PASSWORD_COST,
      },
      url: `http://localhost:${SHORT_HOLD_PORT}/healthz`,
    },
    {
      name: "no-backend",
      command: `rm -rf .e2e-data-no-backend && node server.js`,
      env: {
        PORT: String(NO_BACKEND_PORT),
        HOST: "127.0.0.1",
        DATA_DIR: ".e2e-data-no-backend",
        LOG_LEVEL: "error",
        // Nothing listens on port 9 here: every call to the back end fails at once.
        SPA_BASE_URL: "http://127.0.0.1:9",
        SPA_API_KEY: "unused",
        SPA_AVAILABILITY_GUEST_ID: EMBEDDED_AVAILABILITY_GUEST_ID,
        SESSION_SECRETS: "e2e-outage-secret-0123456789abcdef0123",
        SPA_TIMEOUT_MS: "1000",
        SMS_WEBHOOK_URL: `http://127.0.0.1:${FAULT_BACKEND_PORT}/__sms`,
      },
      url: `http://localhost:${NO_BACKEND_PORT}/healthz`,
    },
    {
      name: "fault-backend",
      // Started before the server that uses it (its `after`): it also seeds that server's store.
      command: `rm -rf .e2e-data-faults .e2e-data-fault-backend && npx tsx tests/helpers/fault-backend.ts`,
      env: {
        FAULT_PORT: String(FAULT_BACKEND_PORT),
        DATA_DIR: ".e2e-data-fault-backend",
        APP_STORE: ".e2e-data-faults/store.sqlite",
        SANDBOX_API_KEY: FAULT_BACKEND_KEY,
      },
      url: `http://127.0.0.1:${FAULT_BACKEND_PORT}/__faults`,
    },
    {
      name: "faults",
      after: ["fault-backend"],
      command: `node server.js`,
      env: {
        PORT: String(FAULTS_PORT),
        HOST: "127.0.0.1",
        DATA_DIR: ".e2e-data-faults",
        LOG_LEVEL: "error",
        SPA_BASE_URL: `http://127.0.0.1:${FAULT_BACKEND_PORT}/spa-sandbox`,
        SPA_API_KEY: FAULT_BACKEND_KEY,
        // The fault back end is a sandbox: it seeds the same availability guest.
        SPA_AVAILABILITY_GUEST_ID: EMBEDDED_AVAILABILITY_GUEST_ID,
        SESSION_SECRETS: "e2e-faults-secret-0123456789abcdef012345",
        // A real back end needs a way to send one-time codes: the fault proxy takes texts and forgets them.
        SMS_WEBHOOK_URL: `http://127.0.0.1:${FAULT_BACKEND_PORT}/__sms`,
      },
      url: `http://localhost:${FAULTS_PORT}/healthz`,
    },
    {
      name: "rate-limited",
      command: `rm -rf .e2e-data-rate-limited && node server.js`,
      env: {
        PORT: String(RATE_LIMITED_PORT),
        HOST: "127.0.0.1",
        DATA_DIR: ".e2e-data-rate-limited",
        LOG_LEVEL: "error",
        SANDBOX_API_KEY: E2E_SANDBOX_API_KEY,
        SANDBOX_RATE_LIMIT_PER_MINUTE: "60",
        ...TEST_PASSWORD_COST,
      },
      url: `http://localhost:${RATE_LIMITED_PORT}/healthz`,
    },
    {
      name: "redis",
      command: `redis-server --port ${REDIS_PORT} --bind 127.0.0.1 --save "" --appendonly no`,
      port: REDIS_PORT,
    },
    {
      name: "strict-tenant",
      command: `rm -rf .e2e-data-strict && node server.js`,
      env: {
        PORT: String(STRICT_TENANT_PORT),
        HOST: "127.0.0.1",
        DATA_DIR: ".e2e-data-strict",
        LOG_LEVEL: "error",
        SANDBOX_API_KEY: E2E_SANDBOX_API_KEY,
        SANDBOX_TENANT_PROFILE: "strict",
        SPA_TIME_ZONE_IDS: STRICT_TENANT_ZONE_IDS,
        ...TEST_PASSWORD_COST,
      },
      url: `http://localhost:${STRICT_TENANT_PORT}/healthz`,
    },
    ...[MULTI_A_PORT, MULTI_B_PORT].map((port, place) => ({
      name: place === 0 ? "multi-a" : "multi-b",
      // The first starts on a fresh directory and makes the sandbox's database; the second opens it.
      after: place === 0 ? ["redis"] : ["redis", "multi-a"],
      command: place === 0 ? `rm -rf .e2e-data-multi && node server.js` : `node server.js`,
      env: {
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: ".e2e-data-multi",
        LOG_LEVEL: "error",
        SANDBOX_API_KEY: E2E_SANDBOX_API_KEY,
        SESSION_SECRETS: MULTI_SESSION_SECRETS,
        REDIS_URL: `redis://127.0.0.1:${REDIS_PORT}`,
        ...TEST_PASSWORD_COST,
      },
      url: `http://localhost:${port}/healthz`,
    })),
  ];
}

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  workers: 2,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://localhost:${PORT}`,
    // A trace costs a third of a test's processor time even when the test passes and the trace is
    // thrown away, so it is recorded only when asked for: `PW_TRACE=retain-on-failure npx playwright
    // test ...` (decision 053). A failure still leaves its screenshot and the error's call log.
    trace: traceMode(process.env.PW_TRACE),
    screenshot: "only-on-failure",
    launchOptions: chromium,
  },
  projects: [
    {
      name: "js",
      // Tests tagged `@once` (`ONCE` in tests/e2e/fixtures.ts) run only without JavaScript (decision 053).
      grepInvert: /@once/,
      use: { ...devices["Desktop Chrome"], launchOptions: chromium, javaScriptEnabled: true },
    },
    { name: "no-js", use: { ...devices["Pixel 5"], launchOptions: chromium, javaScriptEnabled: false } },
  ],
  // One web server for Playwright: tests/helpers/start-test-servers.mjs starts the list below
  // together, each once those in its `after` answer, and prints its READY line when every one does
  // (they took about 20 s one after another). It refuses to start if any of their ports is in use.
  webServer: {
    command: "node tests/helpers/start-test-servers.mjs",
    env: { TEST_SERVERS: JSON.stringify(listTestServers()), TEST_SERVERS_READY },
    wait: { stdout: new RegExp(`^${TEST_SERVERS_READY}$`, "m") },
    timeout: 120_000,
  },
});
