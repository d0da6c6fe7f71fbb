import express from "express";
import fs from "node:fs";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientFiles } from "./client-files";

let dir: string;
let server: http.Server;
let origin: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "client-files-"));
  fs.mkdirSync(path.join(dir, "assets"));
  fs.writeFileSync(path.join(dir, "assets", "entry-abc123.js"), "export {};");
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
