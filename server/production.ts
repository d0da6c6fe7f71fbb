import fs from "node:fs";
import path from "node:path";
import * as build from "virtual:react-router/server-build";
import { clientFiles } from "./client-files";
import { startServer as start } from "./start";

/**
 * The production server build's entry (vite.config.ts makes it the SSR input): Vite compiles it with
 * the routes, so every server module exists once in build/server. server.js loads and starts it,
 * naming the build directory: this module's own file may be any chunk of the build.
 */
export function startServer({ buildDir }: { buildDir: string }): Promise<void> {
  const clientDir = path.join(buildDir, "client");
  if (!fs.existsSync(path.join(clientDir, "assets")))
    throw new Error(`No browser build in ${clientDir}: run npm run build.`);
  return start({ mode: "production", build, assets: clientFiles(clientDir) });
}
