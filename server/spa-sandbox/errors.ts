import type { RequestHandler, Response } from "express";
import type { TenantProfile } from "./tenant-profiles";

/**
 * Zenoti answers errors in two shapes, and sometimes with HTTP 200. The sandbox keeps to a fixed
 * rule per kind of failure so the app's client meets each shape:
 * - v1 shape `{ error: { code, message } }`: authentication failures and business failures on
 *   list endpoints (HTTP 200, like Zenoti).
 * - .NET shape `{ Error: { StatusCode, Message, InternalMessage } }`: paging limits (HTTP 200) and
 *   invalid ids on single-resource reads (HTTP 400).
 * - Top-level `{ Message }`: malformed requests and unknown routes, as ASP.NET answers them.
 * A tenant with `topLevelErrors` answers both of the first two as Zenoti's pagination error does,
 * `{ code, message }` at the top level; its router says so in `res.locals` (see `answerAsTenant`).
 */
export function v1Error(res: Response, httpStatus: number, code: number, message: string, extra: object = {}) {
  res
    .status(httpStatus)
    .json(topLevelErrors(res) ? { ...extra, code, message } : { ...extra, error: { code, message } });
}

export function dotNetError(res: Response, httpStatus: number, code: number, message: string, extra: object = {}) {
  res
    .status(httpStatus)
    .json(
      topLevelErrors(res)
        ? { ...extra, code, message }
        : { ...extra, Error: { StatusCode: code, Message: message, InternalMessage: null } },
    );
}

type TenantLocals = { sandboxTenant?: TenantProfile };

/** Middleware: every answer of this router is given as `tenant` gives it. */
export function answerAsTenant(tenant: TenantProfile): RequestHandler {
  return (_req, res, next) => {
    (res.locals as TenantLocals).sandboxTenant = tenant;
    next();
  };
}

const topLevelErrors = (res: Response) =>
  (res.locals as TenantLocals | undefined)?.sandboxTenant?.topLevelErrors === true;

export function aspNetMessage(res: Response, httpStatus: number, message: string) {
  res.status(httpStatus).json({ Message: message });
}

/** Why the sandbox refuses a request: Zenoti's code and message, answered by the route in its shape. */
export type Refusal = { refused: true; code: number; message: string };

export function refusal(code: number, message: string): Refusal {
  return { refused: true, code, message };
}

export function isRefusal(value: unknown): value is Refusal {
  return typeof value === "object" && value !== null && (value as { refused?: unknown }).refused === true;
}
