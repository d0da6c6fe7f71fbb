import type { z } from "zod";
import { loggablePath, logger } from "../observability/logger.server";
import type { CallGovernor } from "./call-governor.server";
import { SpaError } from "./errors.server";

/**
 * A bearer token comes from Zenoti's current `POST /v1/tokens` (JSON; `clientId` is the app id) or
 * from the legacy form-encoded `POST /Token` the original SDK used (decision 015).
 */
export type TokenEndpoint = "legacy" | "v1";

export type SpaAuth =
  | { type: "apikey"; apiKey: string | undefined }
  | {
      type: "token";
      username: string | undefined;
      password: string | undefined;
      clientId: string | undefined;
      /** Default: legacy. */
      endpoint?: TokenEndpoint;
      /** `/v1/tokens` only: the organisation's account name, the app's secret and this device's id. */
      accountName?: string;
      appSecret?: string;
      deviceId?: string;
    };

export type SpaHttpOptions = {
  baseUrl: string;
  auth: SpaAuth;
  fetch?: typeof fetch;
  /** Milliseconds since the epoch; injectable so token caching can be tested. */
  clock?: () => number;
  timeoutMs?: number;
  /** Pause before the one retry of an idempotent read. */
  retryDelayMs?: number;
  /** Takes a token of the organisation's call limit before each call, by the priority of who it is for (decision 036). */
  governor?: CallGovernor | null;
};

export type SpaRequest<T> = {
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: string;
  query?: Record<string, string | number | boolean | string[] | undefined>;
  body?: unknown;
  schema: z.ZodType<T>;
};

export type SpaHttp = { request<T>(request: SpaRequest<T>): Promise<T> };

/** The spec caches the bearer token for 18,000 seconds (5 hours), never past its own expiry. */
export const TOKEN_CACHE_SECONDS = 18_000;
/** A token is renewed this long before the expiry Zenoti gave, so no call carries a dying one. */
export const TOKEN_EXPIRY_MARGIN_SECONDS = 60;
/** The device id sent to `/v1/tokens` when none is configured. */
export const DEFAULT_DEVICE_ID = "clinic-webstore";
const MAX_RETRY_AFTER_MS = 2_000;
/** A retry with less time than this left of the call's budget is not worth starting. */
const MIN_RETRY_BUDGET_MS = 250;
/** A held booking's call meets at most this many 429s before the guest is told. */
const MAX_HELD_RETRIES = 3;

type Failure = { code: number | string | null; message: string };

/**
 * Reads an error out of a body in any of Zenoti's shapes: `Error{Message,StatusCode}`,
 * `error{message,code}`, the OAuth `error` string, a top-level `Message`, or `code` and `message`
 * at the top level (Zenoti's pagination error, `{ "code": 422, "message": "You cannot request more
 * than 100 items." }`). The last is read only when it cannot be an answer: a code that is not 0 nor
 * a 2xx, a text message, and nothing else in the body but empty values (`null`, `false`, `[]`, `""`,
 * as a refusal's empty result), since a record on HTTP 200 may well have a `code` of its own.
 */
export function readVendorError(body: unknown): Failure | null {
  if (!body || typeof body !== "object") return null;
  const record = body as Record<string, unknown>;
  const dotNet = record.Error;
  if (dotNet && typeof dotNet === "object") {
    const e = dotNet as Record<string, unknown>;
    return {
      code: (e.StatusCode as number | undefined) ?? null,
      message: String(e.Message ?? "Unknown Error! Contact Admin"),
    };
  }
  const v1 = record.error;
  if (v1 && typeof v1 === "object") {
    const e = v1 as Record<string, unknown>;
    return {
      code: (e.code as number | string | undefined) ?? null,
      message: String(e.message ?? "Unknown Error! Contact Admin"),
    };
  }
  if (typeof v1 === "string" && v1) {
    return { code: v1, message: String(record.error_description ?? v1) };
  }
  if (typeof record.Message === "string") {
    return { code: (record.StatusCode as number | undefined) ?? null, message: record.Message };
  }
  const { code, message, ...rest } = record;
  const failing =
    (typeof code === "number" && code !== 0 && !(code >= 200 && code < 300)) ||
    (typeof code === "string" && code.trim() !== "" && !/^(0+|2\d\d)$/.test(code.trim()));
  const empty = (value: unknown) =>
    value === null ||
    value === undefined ||
    value === false ||
    value === "" ||
    (Array.isArray(value) && value.length === 0);
  if (failing && typeof message === "string" && Object.values(rest).every(empty)) {
    return { code: code as number | string, message: message || "Unknown Error! Contact Admin" };
  }
  return null;
}

/** Zenoti's `RateLimit-Reset` (seconds until the bucket refills), else `Retry-After` in seconds. */
function retryAfterMs(headers: Headers): number | undefined {
  for (const name of ["ratelimit-reset", "retry-after"]) {
    const seconds = Number(headers.get(name) ?? NaN);
    if (Number.isFinite(seconds) && seconds > 0) return seconds * 1000;
  }
  return undefined;
}

function kindForStatus(status: number): SpaError["kind"] {
  if (status === 401 || status === 403) return "unauthorized";
  if (status === 429) return "rate-limited";
  if (status >= 500) return "server";
  return "rejected";
}

function buildUrl(baseUrl: string, path: string, query: SpaRequest<unknown>["query"]): string {
  const url = new URL(baseUrl.replace(/\/+$/, "") + path);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(key, String(item));
  }
  return url.toString();
}

export function createSpaHttp(options: SpaHttpOptions): SpaHttp {
  const doFetch = options.fetch ?? fetch;
  const clock = options.clock ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 8_000;
  const retryDelayMs = options.retryDelayMs ?? 200;
  let cachedToken: { value: string; expiresAt: number } | null = null;
  let pendingToken: Promise<{ value: string; expiresAt: number | null }> | null = null;

  async function send(
    url: string,
    init: RequestInit,
    path: string,
    budgetMs = timeoutMs,
  ): Promise<{ status: number; body: unknown; headers: Headers }> {
    let response: Response;
    try {
      response = await doFetch(url, { ...init, signal: AbortSignal.timeout(Math.max(1, budgetMs)) });
    } catch (cause) {
      const name = (cause as { name?: string }).name;
      if (name === "TimeoutError" || name === "AbortError") {
        throw new SpaError({ kind: "timeout", status: 504, message: "Network Error!", path, cause });
      }
      throw new SpaError({ kind: "network", status: 502, message: "Network Error!", path, cause });
    }
    let text: string;
    try {
      text = await response.text();
    } catch (cause) {
      const name = (cause as { name?: string }).name;
      const kind = name === "TimeoutError" || name === "AbortError" ? "timeout" : "network";
      throw new SpaError({ kind, status: kind === "timeout" ? 504 : 502, message: "Network Error!", path, cause });
    }
    let body: unknown = null;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = null;
      }
    }
    return { status: response.status, body, headers: response.headers };
  }

  type Token = { value: string; expiresAt: number | null };

  /** The request for a token, in the form the configured endpoint takes. */
  function tokenRequest(auth: Extract<SpaAuth, { type: "token" }>): { path: string; init: RequestInit } {
    if (auth.endpoint === "v1") {
      const body = {
        account_name: auth.accountName ?? "",
        user_name: auth.username ?? "",
        password: auth.password ?? "",
        grant_type: "password",
        app_id: auth.clientId ?? "",
        app_secret: auth.appSecret ?? "",
        device_id: auth.deviceId || DEFAULT_DEVICE_ID,
      };
      return {
        path: "/v1/tokens",
        init: {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify(body),
        },
      };
    }
    const form = new URLSearchParams({
      username: auth.username ?? "",
      password: auth.password ?? "",
      grant_type: "password",
      clientid: auth.clientId ?? "",
    });
    return {
      path: "/Token",
      init: {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: form,
      },
    };
  }

  /** `/v1/tokens` answers `credentials.{access_token, access_token_expiry}`; `/Token` the OAuth fields. */
  function readToken(body: unknown): Token | null {
    const record = (body ?? {}) as Record<string, unknown>;
    const credentials = (record.credentials ?? record) as Record<string, unknown>;
    const value = credentials.access_token;
    if (typeof value !== "string" || !value) return null;
    const expiry =
      typeof credentials.access_token_expiry === "string" ? Date.parse(credentials.access_token_expiry) : NaN;
    const expiresIn = Number(record.expires_in);
    if (Number.isFinite(expiry)) return { value, expiresAt: expiry };
    if (Number.isFinite(expiresIn) && expiresIn > 0) return { value, expiresAt: clock() + expiresIn * 1000 };
    return { value, expiresAt: null };
  }

  async function fetchToken(auth: Extract<SpaAuth, { type: "token" }>): Promise<Token> {
    const { path, init } = tokenRequest(auth);
    const { status, body } = await send(buildUrl(options.baseUrl, path, undefined), init, path);
    const failure = readVendorError(body);
    const token = readToken(body);
    if (status !== 200 || failure || !token) {
      throw new SpaError({
        kind: status === 200 || status === 400 ? "unauthorized" : kindForStatus(status),
        status: status === 200 ? 401 : status,
        code: failure?.code ?? null,
        message: failure?.message ?? "Unknown Error! Contact Admin",
        path,
      });
    }
    return token;
  }

  /** Five hours, or less when the token itself expires sooner. */
  function cacheUntil(token: Token): number {
    const byPolicy = clock() + TOKEN_CACHE_SECONDS * 1000;
    return token.expiresAt === null
      ? byPolicy
      : Math.min(byPolicy, token.expiresAt - TOKEN_EXPIRY_MARGIN_SECONDS * 1000);
  }

  async function authorization(): Promise<string> {
    const auth = options.auth;
    if (auth.type === "apikey") {
      if (!auth.apiKey) throw new SpaError({ kind: "config", status: 400, message: "Must provide an api key" });
      return `apikey ${auth.apiKey}`;
    }
    if (auth.type === "token") {
      if (!auth.username || !auth.password || !auth.clientId) {
        throw new SpaError({ kind: "config", status: 400, message: "Must provide a username, password and client id" });
      }
      if (auth.endpoint === "v1" && (!auth.accountName || !auth.appSecret)) {
        throw new SpaError({ kind: "config", status: 400, message: "Must provide an account name and app secret" });
      }
      if (cachedToken && cachedToken.expiresAt > clock()) return `bearer ${cachedToken.value}`;
      pendingToken ??= fetchToken(auth).finally(() => {
        pendingToken = null;
      });
      const token = await pendingToken;
      cachedToken = { value: token.value, expiresAt: cacheUntil(token) };
      return `bearer ${token.value}`;
    }
    throw new SpaError({ kind: "config", status: 400, message: "Invalid auth strategy" });
  }

  async function attempt<T>(request: SpaRequest<T>, deadline: number): Promise<T> {
    const url = buildUrl(options.baseUrl, request.path, request.query);
    const headers: Record<string, string> = { accept: "application/json", authorization: await authorization() };
    const init: RequestInit = { method: request.method, headers };
    if (request.body !== undefined) {
      headers["content-type"] = "application/json";
      init.body = JSON.stringify(request.body);
    }
    const { status, body, headers: responseHeaders } = await send(url, init, request.path, deadline - clock());
    await options.governor?.afterAnswer(status, responseHeaders);
    const failure = readVendorError(body);
    if (status !== 200 || failure) {
      const error = new SpaError({
        kind: status === 200 ? "rejected" : kindForStatus(status),
        status,
        code: failure?.code ?? null,
        message:
          failure?.message ??
          (status >= 500 ? "Something went wrong, please try again" : "Unknown Error! Contact Admin"),
        path: request.path,
      });
      if (status === 401 && options.auth.type === "token") cachedToken = null;
      error.retryAfterMs = retryAfterMs(responseHeaders);
      throw error;
    }
    const parsed = request.schema.safeParse(body);
    if (!parsed.success) {
      throw new SpaError({
        kind: "invalid-response",
        status: 502,
        message: "Unknown Error! Contact Admin",
        path: request.path,
        cause: parsed.error,
      });
    }
    return parsed.data;
  }

  /**
   * How long to wait before the one retry, or null for none. A 429 is retried only once the
   * bucket has refilled (the reset time, uncapped: an earlier retry would only spend another call
   * and fail again); without a reset time it is not retried at all.
   */
  function pauseBeforeRetry(error: SpaError, staleToken: boolean): number | null {
    if (staleToken) return 0;
    if (error.kind === "rate-limited") return error.retryAfterMs ?? null;
    return Math.min(error.retryAfterMs ?? retryDelayMs, MAX_RETRY_AFTER_MS);
  }

  /**
   * A booking that holds a slot met Zenoti's 429: nothing was done (Zenoti refuses before acting), so
   * the call, write or read, goes again once the bucket has a token for it, until `until`. Only a 429:
   * a write whose answer was lost is never sent twice here (decision 008 reads what happened instead).
   */
  async function retryHeldCall<T>(request: SpaRequest<T>, first: SpaError, until: number): Promise<T> {
    let last = first;
    for (let tries = 0; tries < MAX_HELD_RETRIES && last.kind === "rate-limited"; tries++) {
      const left = until - clock() - MIN_RETRY_BUDGET_MS;
      if (left <= 0) break;
      const ticket = await options.governor!.beforeCall(request, left).catch(() => null);
      const budget = Math.min(timeoutMs, until - clock());
      if (!ticket || budget < MIN_RETRY_BUDGET_MS) break;
      logger.warn("spa call retried", { path: loggablePath(request.path), kind: last.kind, status: last.status });
      try {
        return await attempt(request, clock() + budget);
      } catch (error) {
        if (!(error instanceof SpaError)) throw error;
        last = error;
      }
    }
    throw last;
  }

  return {
    /**
     * One call has one time budget (the timeout), retry included: a read that timed out is not
     * tried again, and a retry only runs in what is left of the budget, so a hanging back end never
     * makes a page wait longer than the timeout.
     */
    async request<T>(request: SpaRequest<T>): Promise<T> {
      const called = clock();
      // A token first, waited for as the call's priority allows; refused, no call is made (decision 036).
      const ticket = options.governor ? await options.governor.beforeCall(request, timeoutMs) : null;
      const deadline = clock() + timeoutMs;
      try {
        return await attempt(request, deadline);
      } catch (error) {
        if (!(error instanceof SpaError)) throw error;
        if (ticket?.priority === "held" && error.kind === "rate-limited") {
          // Within the payment attempt's lease (twice the timeout, decision 008) and the hold.
          return retryHeldCall(request, error, Math.min(called + 2 * timeoutMs, ticket.holdUntil ?? Infinity));
        }
        const transientRead = request.method === "GET" && error.isTransient && error.kind !== "timeout";
        // A revoked bearer token: the 401 came from the call itself, not the token endpoint, and
        // nothing was done, so any method may go again with a fresh token.
        const staleToken = error.status === 401 && options.auth.type === "token" && error.path === request.path;
        const wait = pauseBeforeRetry(error, staleToken);
        if (!(transientRead || staleToken) || wait === null || deadline - clock() - wait < MIN_RETRY_BUDGET_MS)
          throw error;
        logger.warn("spa call retried", { path: loggablePath(request.path), kind: error.kind, status: error.status });
        await new Promise((resolve) => setTimeout(resolve, wait));
        if (options.governor)
          await options.governor
            .beforeCall(request, deadline - clock() - MIN_RETRY_BUDGET_MS)
            .catch(() => Promise.reject(error));
        return attempt(request, deadline);
      }
    },
  };
}
