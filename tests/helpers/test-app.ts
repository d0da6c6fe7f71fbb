import type { RequestHandler } from "express";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import { createApp, type AppOptions } from "../../server/app";
import { parseEnv } from "../../server/env.server";

const servers: http.Server[] = [];

/**
 * The Express app on a loopback port, without a server build: every request that gets past the
 * app's own checks is answered by `assets` (by default a 299 naming the request), so the router is
 * never reached. Closed by `closeTestApps` (call it in afterEach).
 */
export async function startTestApp(options: Partial<AppOptions> = {}): Promise<string> {
  const reachedAssets: RequestHandler = (req, res) => {
    res.status(299).send(`assets ${req.method} ${req.path}`);
  };
  const app = createApp({
    env: parseEnv({ NODE_ENV: "test" }),
    mode: "production",
    build: () => Promise.reject(new Error("the router is not reached in these tests")),
    assets: reachedAssets,
    services: () => undefined,
    servicesReady: new Promise(() => {}),
    ...options,
  });
  const server = await new Promise<http.Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function closeTestApps(): Promise<void> {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
