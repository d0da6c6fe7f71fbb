import type { RequestHandler } from "express";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { ServerBuild } from "react-router";
import { createApp, SANDBOX_MOUNT } from "./app";
import { paymentAttemptsPass } from "./booking/reconcile.server";
import { recoveryMessagesPass } from "./booking/recovery.server";
import { createErrorReporter, createServices } from "./compose.server";
import { sandboxApiKey, secureDataDir } from "./data-dir.server";
import { EnvError, parseEnv, type Env } from "./env.server";
import { startPeriodicPasses, type PeriodicPasses } from "./jobs/periodic-passes.server";
import { logger } from "./observability/logger.server";
import { errorReporter, setErrorReporter } from "./observability/error-reporter.server";
import { unfinishedPurchasesPass } from "./purchases/reconcile.server";
import { affiliateClicksPass, referralRewardsPass } from "./referrals/passes.server";
import { waitlistPass } from "./waitlist/pass.server";
import type { Services } from "./services";
import type { SpaSandbox } from "./spa-sandbox/index";

/** How long shutdown waits for the analytics queue and the lead webhooks in flight to drain. */
const SHUTDOWN_DRAIN_MS = 5_000;

export type StartOptions = {
  mode: "development" | "production";
  build: ServerBuild | (() => Promise<ServerBuild>);
  assets: RequestHandler;
  /** Runs last on shutdown (development closes its Vite server there). */
  onClose?: () => Promise<void>;
};

function readEnv(): Env {
  try {
    return parseEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * The sandbox's code is loaded only when it is the back end: with SPA_BASE_URL set, none of it runs
 * or even loads (the build keeps it in chunks of its own, which scripts/check-server-build.mjs checks).
 */
async function openSandbox(env: Env): Promise<SpaSandbox> {
  const { createSpaSandbox } = await import("./spa-sandbox/index");
  const { tenantProfile } = await import("./spa-sandbox/tenant-profiles");
  return createSpaSandbox({
    tenant: tenantProfile(env.SANDBOX_TENANT_PROFILE),
    file: path.join(env.DATA_DIR, "spa-sandbox.sqlite"),
    apiKeys: [sandboxApiKey(env)],
    rateLimitPerMinute: env.SANDBOX_RATE_LIMIT_PER_MINUTE,
    holdSeconds: env.SANDBOX_HOLD_SECONDS,
    // Mounted in this app: a visitor reaches its hosted pages on the app's public origin.
    hostedPagesOnCallerOrigin: true,
  });
}

/**
 * Reads the configuration, listens, then builds the services (the sandbox's address needs the port)
 * and starts the background work; stops it all in order on SIGTERM or SIGINT.
 */
export async function startServer({ mode, build, assets, onClose }: StartOptions): Promise<void> {
  const env = readEnv();
  secureDataDir(env.DATA_DIR);
  // First, so that anything failing from here on is reported (decision 027).
  setErrorReporter(await createErrorReporter(env));

  let services: Services | undefined;
  let resolveServices: (services: Services) => void = () => {};
  const servicesReady = new Promise<Services>((resolve) => {
    resolveServices = resolve;
  });
  let passes: PeriodicPasses | undefined;
  const sandbox = env.SPA_BASE_URL ? undefined : await openSandbox(env);

  const app = createApp({
    env,
    mode,
    build,
    assets,
    sandbox: sandbox?.router,
    services: () => services,
    servicesReady,
  });

  // Express 5 calls this with the error when the port cannot be had (taken, or not allowed).
  const server = app.listen(env.PORT, env.HOST, async (error?: NodeJS.ErrnoException) => {
    if (error) {
      const hint =
        error.code === "EADDRINUSE" ? " another process is using it; stop it or set PORT to a free port" : "";
      process.stderr.write(
        `Cannot listen on ${env.HOST}:${env.PORT} (${error.code ?? error.message}):${hint || " check HOST and PORT"}.\n`,
      );
      process.exit(1);
    }
    const { port } = server.address() as AddressInfo;
    services = await createServices(env, { sandboxBaseUrl: `http://127.0.0.1:${port}${SANDBOX_MOUNT}` });
    resolveServices(services);
    // Each feature's background pass (docs/decisions/048): payment attempts a dead request left
    // unfinished are finished or undone (008), paid purchases finished (031), referral rewards and
    // ad clicks followed (032), recovery messages for unfinished bookings sent (059).
    passes = startPeriodicPasses([
      paymentAttemptsPass(services),
      unfinishedPurchasesPass(services),
      referralRewardsPass(services),
      affiliateClicksPass(services),
      recoveryMessagesPass(services),
      waitlistPass(services),
    ]);
    logger.info("listening", {
      url: `http://localhost:${port}`,
      mode,
      spa: env.SPA_BASE_URL ? "zenoti" : "sandbox",
      stores: services.stores.kind,
      geocoder: services.geocoder.kind,
    });
  });
  server.keepAliveTimeout = 65_000;

  let shuttingDown = false;
  function shutdown(signal: string) {
    if (shuttingDown) return;
    shuttingDown = true;
    logger.info("shutting down", { signal });
    const force = setTimeout(() => process.exit(1), 10_000 + SHUTDOWN_DRAIN_MS);
    force.unref();
    server.close(async () => {
      passes?.stop();
      // What the requests just finished left in the background: events, leads, error reports.
      await Promise.all([
        services?.analytics.close(SHUTDOWN_DRAIN_MS),
        services?.leads.close(SHUTDOWN_DRAIN_MS),
        errorReporter().flush(2_000),
      ]);
      await Promise.all([services?.rateLimiter.close(), services?.catalog.close(), services?.callGovernor?.close()]);
      await services?.stores.close();
      sandbox?.close();
      await onClose?.();
      process.exit(0);
    });
    server.closeIdleConnections();
  }
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}
