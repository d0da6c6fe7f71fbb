import express from "express";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FORM_BODY_LIMIT, JSON_BODY_LIMIT, refuseLargeBodies } from "./request-body";

/** How many bytes the route behind the limit read, per request that reached it. */
const seen: number[] = [];
let server: http.Server;
let port: number;

beforeAll(async () => {
  const app = express();
  app.post("/{*splat}", refuseLargeBodies, async (req, res) => {
    let bytes = 0;
    for await (const chunk of req) bytes += (chunk as Buffer).byteLength;
    seen.push(bytes);
    res.json({ bytes });
  });
  server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

type Answer = { status: number; type: string; body: string; bytesSent: number };

/**
 * Sends a body of `total` bytes in 16 KB chunks, one after another, and stops as soon as an answer
 * arrives: the number of bytes sent by then shows whether the server waited for the whole body.
 * With `headersOnly`, only the headers go out.
 */
function post(
  path: string,
  options: { total: number; contentType: string; declareLength: boolean; headersOnly?: boolean },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let bytesSent = 0;
    let answered = false;
    const headers: Record<string, string | number> = { "content-type": options.contentType };
    if (options.declareLength) headers["content-length"] = options.total;
    const req = http.request({ host: "127.0.0.1", port, path, method: "POST", headers });
    req.on("response", (res) => {
      answered = true;
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"] ?? ""), body, bytesSent });
      });
    });
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    const chunk = Buffer.alloc(16 * 1024, "a");
    const writeNext = () => {
      if (answered || req.destroyed) return;
      if (bytesSent >= options.total) return req.end();
      bytesSent += chunk.length;
      if (req.write(chunk)) setImmediate(writeNext);
      else req.once("drain", writeNext);
    };
    if (options.headersOnly) req.flushHeaders();
    else writeNext();
  });
}

const TEN_MB = 10 * 1024 * 1024;

describe("request body limits", () => {
  it("refuses a 10 MB form by its Content-Length before any of it is sent", async () => {
    const before = seen.length;
    const answer = await post("/login", {
      total: TEN_MB,
      contentType: "application/x-www-form-urlencoded",
      declareLength: true,
      headersOnly: true,
    });
    expect(answer.status).toBe(413);
    expect(answer.type).toMatch(/text\/html/);
    expect(answer.body).toContain("more than this page accepts");
    expect(answer.bytesSent).toBe(0);
    expect(seen.length).toBe(before);
  });

  it("refuses a body sent without a Content-Length (chunked) with 411, long before its end", async () => {
    const before = seen.length;
    // Larger than what the kernel's socket buffers could take in while the server stops reading.
    const total = 64 * 1024 * 1024;
    const answer = await post("/login", {
      total,
      contentType: "multipart/form-data; boundary=x",
      declareLength: false,
    });
    expect(answer.status).toBe(411);
    expect(answer.bytesSent).toBeLessThan(total);
    expect(seen.length).toBe(before);
  });

  it("answers the JSON API in JSON, with the smaller JSON limit", async () => {
    const answer = await post("/api/users/login", {
      total: JSON_BODY_LIMIT * 2,
      contentType: "application/json",
      declareLength: true,
      headersOnly: true,
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ error: "The request is too large." });
    const within = await post("/api/users/login", {
      total: JSON_BODY_LIMIT,
      contentType: "application/json",
      declareLength: true,
    });
    expect(within.status).toBe(200);
  });

  it("passes a body within the limit whole", async () => {
    const answer = await post("/login", {
      total: FORM_BODY_LIMIT,
      contentType: "application/x-www-form-urlencoded",
      declareLength: true,
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ bytes: FORM_BODY_LIMIT });
  });
});
