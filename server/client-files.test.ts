import express from "express";
import fs from "node:fs";
import http from "node:http";
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
