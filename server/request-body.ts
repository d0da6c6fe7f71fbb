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

/** 413, as JSON for the API and as a small page for everything else; the connection is then closed. */
function answerTooLarge(req: Request, res: Response): void {
  if (res.headersSent) return;
  closeAfterAnswer(req, res);
  res.status(413).set("Connection", "close");
  if (isApi(req)) {
    res.json({ error: "The request is too large." });
    return;
  }
  res
    .type("html")
    .send(
      '<!doctype html><meta charset="utf-8"><title>Too much data</title><h1>That was more than this page accepts</h1><p>Please go back and try again with less, or <a href="/">go to the home page</a>.</p>',
    );
}

/** A body that declares a length over its limit is refused before a byte of it is read. */
export function refuseLargeBodies(req: Request, res: Response, next: NextFunction): void {
  const declared = Number(req.get("content-length") ?? 0);
  if (declared > bodyLimitOf(req)) return answerTooLarge(req, res);
  next();
}

export class BodyTooLargeError extends Error {
  readonly status = 413;
  constructor(limit: number) {
    super(`request body over ${limit} bytes`);
    this.name = "BodyTooLargeError";
  }
}

/**
 * The request's body as a web stream that counts bytes as they arrive, so a chunked body (no
 * Content-Length) is cut off at the limit too, without being held in memory. Past the limit the
 * client gets a 413 and the stream fails, so whoever reads it never sees a cut-off body as whole.
 */
export function countedBody(req: Request, res: Response, limit = bodyLimitOf(req)): ReadableStream<Uint8Array> {
  let received = 0;
  let settled = false;
  let onData: (chunk: Buffer) => void = () => {};
  const settle = (action: () => void) => {
    if (settled) return;
    settled = true;
    req.off("data", onData);
    action();
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        onData = (chunk) => {
          received += chunk.byteLength;
          if (received > limit) {
            req.pause();
            settle(() => controller.error(new BodyTooLargeError(limit)));
            answerTooLarge(req, res);
            return;
          }
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        };
        req.on("data", onData);
        req.once("end", () => settle(() => controller.close()));
        req.once("error", (error) => settle(() => controller.error(error)));
        req.once("close", () => settle(() => controller.error(new Error("the request closed before its body ended"))));
      },
      pull() {
        if (!settled) req.resume();
      },
      cancel() {
        settle(() => req.pause());
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 16 * 1024 }),
  );
}
