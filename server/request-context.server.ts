import { attributionFromUrl, readAttribution, type VisitAttribution } from "~/domain/attribution";
import { createContext, RouterContextProvider, type MiddlewareFunction } from "react-router";
import type { CurrentUser, Services } from "./services";
import { logger } from "./observability/logger.server";
import type { RenderMemo } from "./render-memo.server";
import type { AppSession } from "./session.server";

/** What the Express adapter hands every request, before any middleware runs. */
export type RequestValues = {
  services: Services;
  /** Per-request CSP nonce for inline scripts. */
  nonce: string;
  /** The client's address, for rate limits (never logged). */
  clientIp: string;
  /** The origin the request was sent to, read through `TRUST_PROXY` (`requestOrigin`); unset in tests and the render cache. */
  origin?: string;
  /** Sent from this machine itself (loopback peer, no proxy in between): opens development pages. */
  fromThisMachine: boolean;
  /** Render the whole document before answering, with no streaming (a page for the render cache). */
  wholeDocument?: boolean;
  /** Pages kept by what they were made from, for the routes that opt in (decision 034); production only. */
  renderMemo?: RenderMemo;
};

declare module "react-router" {
  // The per-server values are plain fields of the request's context, so loaders keep writing
  // `context.services`; per-request state set by middleware goes through `createContext` below.
  interface RouterContextProvider extends RequestValues {}
}

/** The context every loader, action and middleware receives. */
export type RequestContext = Readonly<RouterContextProvider>;

export function createRequestContext(values: RequestValues): RouterContextProvider {
  return Object.assign(new RouterContextProvider(), values);
}

const sessionContext = createContext<AppSession>();
const userContext = createContext<Promise<CurrentUser | null> | null>(null);

/**
 * The one owner of the session cookies: they are read once before the route's loaders or action
 * run, and written once after them, only the ones whose part changed (a flash message read counts).
 * Route code reads and changes the session through `requestSession`; it never sets the cookie.
 */
export const sessionMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const { sessions } = context.services;
  const session = await sessions.read(request.headers.get("cookie"));
  context.set(sessionContext, session);
  const response = await next();
  const cookies = await sessions.write(session);
  if (cookies.length === 0) return response;
  for (const cookie of cookies) {
    // Never expected (decision 014 bounds every field); logged so a new field that breaks the bound shows.
    if (Buffer.byteLength(cookie) > MAX_COOKIE_BYTES)
      logger.warn("session cookie over the browser limit", { bytes: Buffer.byteLength(cookie) });
  }
  try {
    for (const cookie of cookies) response.headers.append("set-cookie", cookie);
    return response;
  } catch {
    // Some responses (Response.redirect) have immutable headers: answer with a copy.
    const copy = new Response(response.body, response);
    for (const cookie of cookies) copy.headers.append("set-cookie", cookie);
    return copy;
  }
};

/** Browsers keep cookies of up to 4096 bytes, name and attributes included. */
export const MAX_COOKIE_BYTES = 4096;

/** This request's session; changes to it are saved when the response goes out. */
export function requestSession(context: RequestContext): AppSession {
  return context.get(sessionContext);
}

/** The signed-in user of this request, looked up once however many loaders ask. */
export function currentUser(context: RequestContext): Promise<CurrentUser | null> {
  const known = context.get(userContext);
  if (known) return known;
  const user = context.services.accounts.currentUser(requestSession(context).get("userSessionId"));
  // Loaders get the context read-only; this memo is the one write, made before any await.
  (context as RouterContextProvider).set(userContext, user);
  return user;
}

/**
 * Keeps what a landing URL says about the visit (a referral code, a partner, an ad click, a landing
 * tag) in the session, so registration, booking and prices can use it later in the visit. A GET
 * without any of those parameters changes nothing (and sets no cookie).
 */
export const attributionMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  if (request.method === "GET") {
    const session = requestSession(context);
    const found = attributionFromUrl(
      new URL(request.url).searchParams,
      Date.now(),
      readAttribution(session.get("visit")),
    );
    if (found) session.set("visit", found);
  }
  return next();
};

/** The visit's attribution, as kept by `attributionMiddleware`. */
export function visitAttribution(context: RequestContext): VisitAttribution {
  return readAttribution(requestSession(context).get("visit"));
}
