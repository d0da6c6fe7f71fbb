import type http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "./app";
import { parseEnv } from "./env.server";
import { setErrorReporter, type ErrorReporter, type ReportContext } from "./observability/error-reporter.server";

let server: http.Server | undefined;
let previous: ErrorReporter | undefined;
afterEach(async () => {
  if (previous) setErrorReporter(previous);
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

describe("the Express app's last error handler", () => {
  it("reports an error no route answered, and answers with the 500 page", async () => {
    const reports: { error: unknown; context?: ReportContext }[] = [];
    previous = setErrorReporter({
      kind: "log",
      captureException: (error, context) => reports.push({ error, context }),
      captureMessage() {},
      flush: async () => true,
    });
    const failure = new Error("static files unreadable");
    const app = createApp({
      env: parseEnv({ NODE_ENV: "test" }),
      mode: "production",
      build: () => Promise.reject(new Error("the router is not reached in this test")),
      assets: (_req, _res, next) => next(failure),
      services: () => undefined,
      servicesReady: new Promise(() => {}),
    });
    server = await new Promise<http.Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    const response = await fetch(
      `http://127.0.0.1:${(server.address() as AddressInfo).port}/terms?email=ana%40example.com`,
    );
    expect(response.status).toBe(500);
    expect(reports).toEqual([{ error: failure, context: { where: "express", method: "GET", path: "/terms" } }]);
  });
});
