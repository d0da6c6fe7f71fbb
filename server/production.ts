import express from "express";
import path from "node:path";
import * as build from "virtual:react-router/server-build";
import { startServer as start } from "./start";

/**
 * The production server build's entry (vite.config.ts makes it the SSR input): Vite compiles it with
 * the routes, so every server module exists once in build/server. server.js loads and starts it.
 */
export function startServer(): Promise<void> {
  const clientDir = path.resolve(import.meta.dirname, "../client");
  return start({
    mode: "production",
    build,
    assets: [
      express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }),
      express.static(clientDir, { maxAge: "1h", index: false }),
    ],
  });
}
