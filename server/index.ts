import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { ServerBuild } from "react-router";
import type { startPaymentReconciler as StartPaymentReconciler } from "./booking/reconcile.server";
import type { createServices as CreateServices, Services } from "./context.server";
import { sandboxApiKey, secureDataDir } from "./data-dir.server";
import { EnvError, parseEnv, type Env } from "./env.server";
import { isFromThisMachine } from "./loopback.server";
import { logger } from "./observability/logger.server";
import { refuseLargeBodies } from "./request-body";
import { createSpaSandbox, type SpaSandbox } from "./spa-sandbox/index";

/** Longer request targets get a 414 page before any routing (the spec's "huge query string"). */
const MAX_URL_LENGTH = 4096;
const SANDBOX_MOUNT = "/spa-sandbox";

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

const env = readEnv();
secureDataDir(env.DATA_DIR);

function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

const isDevelopment = env.NODE_ENV === "development";
const app = express();
app.disable("x-powered-by");
app.set("trust proxy", env.TRUST_PROXY);

let services: Services | undefined;
let resolveServices: (services: Services) => void;
const servicesReady = new Promise<Services>((resolve) => {
  resolveServices = resolve;
});
let sandbox: SpaSandbox | undefined;
let reconciler: { stop(): void } | undefined;

app.use((req, res, next) => {
  if (req.originalUrl.length > MAX_URL_LENGTH) {
    res
      .status(414)
      .type("html")
      .send(
        '<!doctype html><meta charset="utf-8"><title>Link too long</title><h1>That link is too long</h1><p>Please check the address, or <a href="/">go to the home page</a>.</p>',
      );
    return;
  }
  next();
});

// A path whose percent escapes do not decode (`/%`, `/login%zz`) is no page of this site; the router
// would fail on it while matching routes.
app.use((req, res, next) => {
  try {
    decodeURIComponent(req.path);
  } catch {
    res
      .status(400)
      .type("html")
      .send(
        '<!doctype html><meta charset="utf-8"><title>Bad link</title><h1>That link is not valid</h1><p>Please check the address, or <a href="/">go to the home page</a>.</p>',
      );
    return;
  }
  next();
});

app.get("/healthz", (_req, res) => {
  res.set("cache-control", "no-store").json({ status: services ? "ok" : "starting", uptimeSeconds: Math.round(process.uptime()) });
});

// The embedded spa back end, reached by the app over HTTP exactly like Zenoti.
if (!env.SPA_BASE_URL) {
  sandbox = createSpaSandbox({
    file: path.join(env.DATA_DIR, "spa-sandbox.sqlite"),
    apiKeys: [sandboxApiKey(env)],
    rateLimitPerMinute: env.SANDBOX_RATE_LIMIT_PER_MINUTE,
    holdSeconds: env.SANDBOX_HOLD_SECONDS,
  });
  app.use(SANDBOX_MOUNT, sandbox.router);
}

app.use((req, res, next) => {
  const nonce = randomBytes(16).toString("base64");
  res.locals.nonce = nonce;
  const scriptSrc = isDevelopment ? `'self' 'nonce-${nonce}' 'unsafe-eval'` : `'self' 'nonce-${nonce}' 'strict-dynamic'`;
  res.setHeader(
    "Content-Security-Policy",
    [
      "default-src 'self'",
      `script-src ${scriptSrc}`,
      // React Router's dev server injects styles; the built app only links stylesheets.
      isDevelopment ? "style-src 'self' 'unsafe-inline'" : "style-src 'self'",
      "img-src 'self' data:",
      isDevelopment ? "connect-src 'self' ws:" : "connect-src 'self'",
      "font-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      // Adding a card posts to the payment back end's hosted page, which is on its own origin.
      `form-action 'self' ${services?.hostedPaymentOrigins.join(" ") ?? ""}`.trim(),
      "frame-ancestors 'none'",
    ].join("; "),
  );
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
  res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()");
  if (req.secure) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  next();
});

// Cross-site POSTs are refused: a form on another site cannot act for a signed-in visitor. The JSON
// API takes bearer tokens, not cookies, and is left to its callers.
app.use((req, res, next) => {
  if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS" || req.path.startsWith("/api/")) return next();
  const origin = req.get("origin");
  const site = req.get("sec-fetch-site");
  const sameOrigin = !origin || origin === "null" ? site !== "cross-site" : hostOf(origin) === req.get("host");
  if (!sameOrigin) {
    res.status(403).type("html").send('<!doctype html><meta charset="utf-8"><title>Not allowed</title><h1>That form came from another site</h1><p>For your safety we did not act on it. <a href="/">Go to the home page</a>.</p>');
    return;
  }
  next();
});

app.use(compression());

async function loadBuild(): Promise<ServerBuild | (() => Promise<ServerBuild>)> {
  if (isDevelopment) {
    const vite = await import("vite");
    const viteServer = await vite.createServer({ server: { middlewareMode: true } });
    app.use(viteServer.middlewares);
    return () => viteServer.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>;
  }
  const buildDir = path.resolve(import.meta.dirname, isBundled() ? "." : "../build");
  app.use("/assets", express.static(path.join(buildDir, "client/assets"), { immutable: true, maxAge: "1y", index: false }));
  app.use(express.static(path.join(buildDir, "client"), { maxAge: "1h", index: false }));
  return (await import(path.join(buildDir, "server/index.js"))) as ServerBuild;
}

/** True when running as build/server.js (bundled), false when run from source with tsx. */
function isBundled(): boolean {
  return path.basename(import.meta.dirname) === "build";
}

const build = await loadBuild();

type EntryModule = { createServices: typeof CreateServices; startPaymentReconciler: typeof StartPaymentReconciler };

/** The services factory and background work come from the app's own server build (see app/entry.server.tsx). */
async function entryModule(): Promise<EntryModule> {
  const serverBuild = typeof build === "function" ? await build() : build;
  return serverBuild.entry.module as unknown as EntryModule;
}

app.all(
  "/{*splat}",
  // Bodies are limited before React Router reads them (server/request-body.ts).
  refuseLargeBodies,
  createRequestHandler({
    build,
    mode: isDevelopment ? "development" : "production",
    getLoadContext: async (req, res) => ({
      services: await servicesReady,
      nonce: res.locals.nonce as string,
      clientIp: req.ip ?? "unknown",
      fromThisMachine: isFromThisMachine(req),
    }),
  }),
);

app.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
  // Express and its parsers mark the client's mistakes (a bad escape, a body too large) with a 4xx.
  const status = (error as { status?: unknown }).status;
  if (typeof status === "number" && status >= 400 && status < 500) {
    if (res.headersSent) return next(error);
    res
      .status(status)
      .type("html")
      .send('<!doctype html><meta charset="utf-8"><title>Bad request</title><h1>We could not read that request</h1><p><a href="/">Home</a></p>');
    return;
  }
  logger.error("unhandled request error", { error: error instanceof Error ? error.message : String(error) });
  if (res.headersSent) return next(error);
  res
    .status(500)
    .type("html")
    .send('<!doctype html><meta charset="utf-8"><title>Something went wrong</title><h1>Something went wrong, please try again</h1><p><a href="/">Home</a></p>');
});

const server = app.listen(env.PORT, env.HOST, async () => {
  const { port } = server.address() as AddressInfo;
  const { createServices, startPaymentReconciler } = await entryModule();
  services = await createServices(env, { sandboxBaseUrl: `http://127.0.0.1:${port}${SANDBOX_MOUNT}` });
  resolveServices(services);
  // Payment attempts a dead request left unfinished are finished or undone (docs/decisions/008).
  reconciler = startPaymentReconciler(services);
  logger.info("listening", {
    url: `http://localhost:${port}`,
    spa: env.SPA_BASE_URL ? "zenoti" : "sandbox",
    store: services.store.kind,
    geocoder: services.geocoder.kind,
  });
});
server.keepAliveTimeout = 65_000;

let shuttingDown = false;
function shutdown(signal: string) {
  if (shuttingDown) return;
  shuttingDown = true;
  logger.info("shutting down", { signal });
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  server.close(async () => {
    reconciler?.stop();
    await services?.store.close();
    sandbox?.close();
    process.exit(0);
  });
  server.closeIdleConnections();
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
