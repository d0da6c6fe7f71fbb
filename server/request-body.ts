import type { NextFunction, Request, Response } from "express";

/**
 * Request bodies are limited before they are read: a form needs a few kilobytes, and an unlimited
 * body lets one request fill the process's memory. The JSON API takes less than a form.
 */
export const FORM_BODY_LIMIT = 64 * 1024;
export const JSON_BODY_LIMIT = 16 * 1024;

const isApi = (req: Request) => req.path.startsWith("/api/");

/** The most bytes this request's body may have. */
export function bodyLimitOf(req: Request): number {
  const type = req.get("content-type") ?? "";
  return isApi(req) || /^application\/([\w.+-]+\+)?json\b/i.test(type) ? JSON_BODY_LIMIT : FORM_BODY_LIMIT;
}

/**
 * How long the rest of a refused body is read and dropped before the connection is cut. Closing a
 * socket with unread data makes the kernel reset the connection, and a reset can reach the client
 * before it reads the 413: it would see a broken connection instead of the page. Reading on for a
 * moment (a "lingering close") costs bandwidth, never memory.
 */
const LINGER_MS = 5_000;

function closeAfterAnswer(req: Request, res: Response): void {
  res.once("finish", () => {
    const socket = req.socket;
    // Node answers "Connection: close" with socket.destroySoon(): end, then destroy once the answer
    // is flushed. Keep the end (the client sees the connection close after the 413), drop the
    // immediate destroy, and destroy after the lingering time instead.
    socket.off("finish", socket.destroy);
    socket.end();
    // Whatever still arrives is dropped: nobody listens for it any more.
    req.resume();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  });
}

/** The refusal, as JSON for the API and as a small page for everything else; the connection is then closed. */
function refuse(req: Request, res: Response, status: 411 | 413): void {
  if (res.headersSent) return;
  closeAfterAnswer(req, res);
  res.status(status).set("Connection", "close");
  const message =
    status === 413 ? "The request is too large." : "The request must say how long its body is (Content-Length).";
  if (isApi(req)) {
    res.json({ error: message });
    return;
  }
  res
    .type("html")
    .send(
      status === 413
        ? '<!doctype html><meta charset="utf-8"><title>Too much data</title><h1>That was more than this page accepts</h1><p>Please go back and try again with less, or <a href="/">go to the home page</a>.</p>'
        : '<!doctype html><meta charset="utf-8"><title>Length required</title><h1>We could not read that request</h1><p>Please send the form from the page, or <a href="/">go to the home page</a>.</p>',
    );
}

/**
 * A body is refused before a byte of it is read: over its limit by its Content-Length (413), or
 * sent without one (chunked), which no form of this site does (411 Length Required). Node reads
 * no more than the declared length as the body, so React Router's own adapter can read what is
 * left: the limit holds without a counting stream of our own.
 */
export function refuseLargeBodies(req: Request, res: Response, next: NextFunction): void {
  const declared = req.get("content-length");
  if (declared === undefined) {
    if (req.get("transfer-encoding")) refuse(req, res, 411);
    else next();
    return;
  }
  if (Number(declared) > bodyLimitOf(req)) refuse(req, res, 413);
  else next();
}
