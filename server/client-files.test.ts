import express from "express";
import fs from "node:fs";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientFiles } from "./client-files";

const SCRIPT = `export const words = ${JSON.stringify("glow ".repeat(200))};\n`;

let dir: string;
let server: http.Server;
let origin: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "client-files-"));
  fs.mkdirSync(path.join(dir, "assets"));
  fs.writeFileSync(path.join(dir, "assets", "entry-abc123.js"), SCRIPT);
  // As the build leaves them (scripts/compress-client-build.mjs).
  fs.writeFileSync(path.join(dir, "assets", "entry-abc123.js.br"), zlib.brotliCompressSync(SCRIPT));
  fs.writeFileSync(path.join(dir, "assets", "entry-abc123.js.gz"), zlib.gzipSync(SCRIPT));
  fs.writeFileSync(path.join(dir, "assets", "plain-def456.js"), SCRIPT);
  fs.writeFileSync(path.join(dir, "favicon.svg"), "<svg/>");
  const app = express();
  app.use(clientFiles(dir));
  app.use((_req, res) => {
    res.status(299).send("next");
  });
  server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the browser build's files", () => {
  it("keeps hashed files under /assets for a year", async () => {
    const response = await fetch(`${origin}/assets/entry-abc123.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });

  it("sends the build's Brotli copy to a browser that takes it, else its gzip copy, else the file", async () => {
    const asked = async (acceptEncoding: string) => {
      const response = await fetch(`${origin}/assets/entry-abc123.js`, {
        headers: { "accept-encoding": acceptEncoding },
      });
      return {
        encoding: response.headers.get("content-encoding"),
        // The compressed copies say "UTF-8", the file itself "utf-8": the same charset.
        type: response.headers.get("content-type")?.toLowerCase(),
        vary: response.headers.get("vary"),
        cacheControl: response.headers.get("cache-control"),
        // fetch decodes the body as its encoding says: what the browser's script engine gets.
        body: await response.text(),
      };
    };
    for (const [acceptEncoding, encoding] of [
      ["gzip, deflate, br, zstd", "br"],
      ["gzip", "gzip"],
      ["identity", null],
    ] as const) {
      const answer = await asked(acceptEncoding);
      expect(answer, acceptEncoding).toEqual({
        encoding,
        type: "text/javascript; charset=utf-8",
        vary: "Accept-Encoding",
        cacheControl: "public, max-age=31536000, immutable",
        body: SCRIPT,
      });
    }
  });

  it("sends a file the build did not compress as it is", async () => {
    const response = await fetch(`${origin}/assets/plain-def456.js`, { headers: { "accept-encoding": "br, gzip" } });
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(await response.text()).toBe(SCRIPT);
  });

  it("keeps the other files for an hour", async () => {
    const response = await fetch(`${origin}/favicon.svg`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=3600");
  });

  it("leaves every other path to the app", async () => {
    expect(await (await fetch(`${origin}/locations`)).text()).toBe("next");
    expect(await (await fetch(`${origin}/assets/missing.js`)).text()).toBe("next");
  });
});

describe("which requests reach the disk", () => {
  it("looks only under its own paths: a page request is passed on without a file lookup", async () => {
    const files = clientFiles(dir);
    const looked: string[] = [];
    const stat = fs.stat;
    // express.static (send) stats each candidate file: any stat of a page's path would show here.
    const spy = (original: typeof fs.stat) =>
      ((file: fs.PathLike, ...rest: unknown[]) => {
        looked.push(String(file));
        return (original as (...args: unknown[]) => unknown)(file, ...rest);
      }) as typeof fs.stat;
    fs.stat = spy(stat);
    try {
      const passedOn = await new Promise<boolean>((resolve) => {
        const req = {
          method: "GET",
          path: "/locations",
          url: "/locations",
          originalUrl: "/locations",
          headers: {},
        } as unknown as express.Request;
        files(req, {} as express.Response, () => resolve(true));
      });
      expect(passedOn).toBe(true);
      expect(looked).toEqual([]);
    } finally {
      fs.stat = stat;
    }
  });
});
