import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { randomBytes, randomUUID } from "node:crypto";
import { createRequestHandler as createRouterHandler, type ServerBuild } from "react-router";
import type { Services } from "./services";
import type { Env } from "./env.server";
import { contentSecurityPolicy, nonceSource, type CspOptions } from "./csp.server";
import { isFromThisMachine } from "./loopback.server";
import { browserReportingOrigins, errorReporter } from "./observability/error-reporter.server";
import { loggablePath, logger, withRequestId } from "./observability/logger.server";
import { checkReadiness } from "./observability/readiness.server";
import { createPageCache, type PageCache } from "./page-cache.server";
import { createRenderMemo } from "./render-memo.server";
import { refuseLargeBodies } from "./request-body";
import { createRequestContext } from "./request-context.server";
import { requestOrigin } from "./site.server";

/** A request id a proxy in front already gave is kept when it looks like one; otherwise one is made. */
const REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;

/** A document a visitor asked for and got: not a file, not a data request of the client router, not a probe. */
function isPageView(req: Request, res: Response): boolean {
  if (req.method !== "GET" || res.statusCode !== 200) return false;
  if (!String(res.getHeader("content-type") ?? "").startsWith("text/html")) return false;
  return !/\.data$|^\/(assets|spa-sandbox|dev)\//.test(req.path);
}

/** A kept booking-step page is dropped this long after it was made: a signed-in guest's page is theirs, and not kept in memory for long. */
const RENDER_MEMO_TTL_MS = 10 * 60 * 1000;

/** Longer request targets get a 414 page before any routing (the spec's "huge query string"). */
const MAX_URL_LENGTH = 4096;
export const SANDBOX_MOUNT = "/spa-sandbox";

export type AppOptions = {
  env: Env;
  mode: "development" | "production";
  /** The app's server build: the module itself in production, a loader that follows edits in development. */
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** Serves the browser's files: the built client in production, Vite's middleware in development. */
  assets: RequestHandler;
  /** The embedded spa back end's routes, when no back end is configured. */
  sandbox?: RequestHandler;
  /** The services once they are built (they need the listening port); undefined while starting. */
  services: () => Services | undefined;
  /** Resolves when the services are built; requests wait for it. */
  servicesReady: Promise<Services>;
};

function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

/** The render cache of public pages: each is rendered as a visitor without a session would see it. */
function createPublicPageCache(
  build: AppOptions["build"],
  servicesReady: Promise<Services>,
  services: () => Services | undefined,
  csp: () => CspOptions,
  env: Env,
): PageCache {
  const handle = createRouterHandler(build, "production");
  return createPageCache({
    async render(url) {
      const nonce = randomBytes(16).toString("base64");
      const context = createRequestContext({
        services: await servicesReady,
        nonce,
        clientIp: "render-cache",
        fromThisMachine: false,
        wholeDocument: true,
      });
      const response = await handle(new Request(url, { headers: { accept: "text/html" } }), context);
      return { response, nonce };
    },
    catalogVersion: () => services()?.catalog.version() ?? -1,
    csp,
    maxAgeMs: env.PAGE_CACHE_SECONDS * 1000,
  });
}

/** The Express app: the checks every request passes, the sandbox when embedded, then React Router. */
export function createApp({ env, mode, build, assets, sandbox, services, servicesReady }: AppOptions): Express {
  const isDevelopment = mode === "development";
  const cspOptions = () => ({
    development: isDevelopment,
    formActionOrigins: services()?.hostedPaymentOrigins ?? [],
    connectOrigins: browserReportingOrigins(env),
    imageOrigins: services()?.images.origins ?? [],
  });
  const pageCache =
    isDevelopment || env.PAGE_CACHE_SECONDS === 0
      ? undefined
      : createPublicPageCache(build, servicesReady, services, cspOptions, env);
  // Pages kept by what they show (decision 034); in development the build changes under it.
  const renderMemo =
    isDevelopment || env.RENDER_MEMO_MB === 0
      ? undefined
      : createRenderMemo({
          maxBytes: env.RENDER_MEMO_MB * 1024 * 1024,
          ttlMs: RENDER_MEMO_TTL_MS,
          verify: env.RENDER_MEMO_VERIFY,
        });
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", env.TRUST_PROXY);

  // Every request has an id: in the X-Request-Id header of its answer and in every log line written
  // while it is answered, ending with one line for the request itself (path without its query, and
  // without any segment that could be a secret).
  app.use((req, res, next) => {
    const given = req.get("x-request-id");
    const requestId = given && REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader("X-Request-Id", requestId);
    const started = process.hrtime.bigint();
    res.once("finish", () => {
      const path = loggablePath(req.path);
      if (isPageView(req, res))
        services()?.analytics.record({ name: "page_viewed", requestId, properties: { path, status: res.statusCode } });
      logger.info("request", {
        requestId,
        method: req.method,
        path,
        status: res.statusCode,
        ms: Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10,
      });
    });
    withRequestId(requestId, next);
  });

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
    res
      .set("cache-control", "no-store")
      .json({ status: services() ? "ok" : "starting", uptimeSeconds: Math.round(process.uptime()) });
  });

  // Whether this instance should get traffic: the back end and the store answer (Redis down is
  // 200 "degraded", decision 041). /healthz says only that the process is up (a liveness probe
  // must not restart an instance because Zenoti is slow).
  app.get("/readyz", async (_req, res) => {
    const current = services();
    if (!current) {
      res.status(503).set("cache-control", "no-store").json({ ready: false, status: "starting" });
      return;
    }
    const readiness = await checkReadiness(current);
    res
      .status(readiness.ready ? 200 : 503)
      .set("cache-control", "no-store")
      .json(readiness);
  });

  // The embedded spa back end, reached by the app over HTTP exactly like Zenoti.
  if (sandbox) app.use(SANDBOX_MOUNT, sandbox);

  app.use((req, res, next) => {
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()");
    if (req.secure) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    next();
  });

  // Public pages for visitors without a session, from memory (decision 023); production only. A
  // page from the cache carries its own policy (script hashes), so it needs no nonce.
  if (pageCache) app.use(pageCache.middleware);

  app.use((_req, res, next) => {
    const nonce = randomBytes(16).toString("base64");
    res.locals.nonce = nonce;
    res.setHeader("Content-Security-Policy", contentSecurityPolicy([nonceSource(nonce)], cspOptions()));
    next();
  });

  // Cross-site POSTs are refused: a form on another site cannot act for a signed-in visitor. The JSON
  // API takes bearer tokens, not cookies, and is left to its callers.
  app.use((req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS" || req.path.startsWith("/api/"))
      return next();
    const origin = req.get("origin");
    const site = req.get("sec-fetch-site");
    const sameOrigin = !origin || origin === "null" ? site !== "cross-site" : hostOf(origin) === req.get("host");
    if (!sameOrigin) {
      res
        .status(403)
        .type("html")
        .send(
          '<!doctype html><meta charset="utf-8"><title>Not allowed</title><h1>That form came from another site</h1><p>For your safety we did not act on it. <a href="/">Go to the home page</a>.</p>',
        );
      return;
    }
    // A browser sends `Origin: null` from a page with a strict referrer policy or privacy settings;
    // judged above as from this site, it is dropped so that React Router's own origin check, which
    // would refuse "null" with an error, sees a request with no origin.
    if (origin === "null") delete req.headers.origin;
    next();
  });

  app.use(compression());
  app.use(assets);

  app.all(
    "/{*splat}",
    // Bodies are limited before React Router reads them (server/request-body.ts).
    refuseLargeBodies,
    createRequestHandler({
      build,
      mode,
      getLoadContext: async (req, res) =>
        createRequestContext({
          services: await servicesReady,
          nonce: res.locals.nonce as string,
          clientIp: req.ip ?? "unknown",
          origin: requestOrigin(req) ?? undefined,
          fromThisMachine: isFromThisMachine(req),
          renderMemo,
        }),
    }),
  );

  app.use((error: unknown, req: Request, res: Response, next: NextFunction) => {
    // Express and its parsers mark the client's mistakes (a bad escape, a body too large) with a 4xx.
    const status = (error as { status?: unknown }).status;
    if (typeof status === "number" && status >= 400 && status < 500) {
      if (res.headersSent) return next(error);
      res
        .status(status)
        .type("html")
        .send(
          '<!doctype html><meta charset="utf-8"><title>Bad request</title><h1>We could not read that request</h1><p><a href="/">Home</a></p>',
        );
      return;
    }
    errorReporter().captureException(error, { where: "express", method: req.method, path: loggablePath(req.path) });
    if (res.headersSent) return next(error);
    res
      .status(500)
      .type("html")
      .send(
        '<!doctype html><meta charset="utf-8"><title>Something went wrong</title><h1>Something went wrong, please try again</h1><p><a href="/">Home</a></p>',
      );
  });

  return app;
}
