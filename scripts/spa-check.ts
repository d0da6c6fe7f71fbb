// npm run spa:check: the preflight of going live on a Zenoti organisation (decision 035,
// docs/operations.md). With SPA_BASE_URL it checks that tenant with the app's own settings; without,
// it checks the embedded sandbox as SANDBOX_TENANT_PROFILE answers (a sandbox of its own, in a
// temporary directory). Prints a readiness table; exits 1 when a check is a blocker.
import express from "express";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { hostedPageOrigins } from "../server/payments/hosted-pages.server";
import { spaAuth } from "../server/compose.server";
import { EnvError, parseEnv } from "../server/env.server";
import { formatPreflight, runPreflight, type PreflightTarget } from "../server/preflight/preflight.server";

// The table says what the log lines would; LOG_LEVEL shows them too.
process.env.LOG_LEVEL ??= "off";

let env: ReturnType<typeof parseEnv>;
try {
  env = parseEnv(process.env);
} catch (error) {
  if (!(error instanceof EnvError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(2);
}

let stop = async () => {};
let target: PreflightTarget;
if (env.SPA_BASE_URL) {
  target = {
    env,
    baseUrl: env.SPA_BASE_URL,
    auth: spaAuth(env),
    hostedPaymentOrigins: hostedPageOrigins(env.SPA_BASE_URL, env.HOSTED_PAYMENT_ORIGINS),
    embeddedHostedPath: null,
    publicOrigin: env.PUBLIC_URL ? new URL(env.PUBLIC_URL).origin : "https://shop.example",
  };
} else {
  const { createSpaSandbox } = await import("../server/spa-sandbox/index");
  const { tenantProfile } = await import("../server/spa-sandbox/tenant-profiles");
  const dir = mkdtempSync(path.join(tmpdir(), "spa-check-"));
  const key = "spa-check-key";
  const sandbox = createSpaSandbox({
    file: path.join(dir, "spa-sandbox.sqlite"),
    apiKeys: [key],
    tenant: tenantProfile(env.SANDBOX_TENANT_PROFILE),
    rateLimitPerMinute: env.SANDBOX_RATE_LIMIT_PER_MINUTE,
    hostedPagesOnCallerOrigin: true,
  });
  const app = express().use("/spa-sandbox", sandbox.router);
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.stdout.write(`The embedded sandbox as the "${env.SANDBOX_TENANT_PROFILE}" tenant (no SPA_BASE_URL set).\n\n`);
  target = {
    env,
    baseUrl: `${origin}/spa-sandbox`,
    auth: { type: "apikey", apiKey: key },
    hostedPaymentOrigins: env.HOSTED_PAYMENT_ORIGINS,
    embeddedHostedPath: "/spa-sandbox/hosted/",
    publicOrigin: origin,
  };
  stop = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  };
}

const rows = await runPreflight(target);
await stop();
process.stdout.write(`${formatPreflight(rows)}\n`);
process.exit(rows.some((row) => row.verdict === "blocker") ? 1 : 0);
