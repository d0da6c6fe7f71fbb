import type { Response } from "express";

/**
 * Zenoti answers errors in two shapes, and sometimes with HTTP 200. The sandbox keeps to a fixed
 * rule per kind of failure so the app's client meets each shape:
 * - v1 shape `{ error: { code, message } }`: authentication failures and business failures on
 *   list endpoints (HTTP 200, like Zenoti).
 * - .NET shape `{ Error: { StatusCode, Message, InternalMessage } }`: paging limits (HTTP 200) and
 *   invalid ids on single-resource reads (HTTP 400).
 * - Top-level `{ Message }`: malformed requests and unknown routes, as ASP.NET answers them.
 */
export function v1Error(res: Response, httpStatus: number, code: number, message: string, extra: object = {}) {
  res.status(httpStatus).json({ ...extra, error: { code, message } });
}

export function dotNetError(res: Response, httpStatus: number, code: number, message: string, extra: object = {}) {
  res.status(httpStatus).json({ ...extra, Error: { StatusCode: code, Message: message, InternalMessage: null } });
}

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
