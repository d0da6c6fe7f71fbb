import express, { type RequestHandler } from "express";
import expressStaticGzip from "express-static-gzip";
import fs from "node:fs";
import path from "node:path";

/** Every file of the build outside /assets, by its URL path: a page request never touches the disk. */
function filesOutsideAssets(clientDir: string): Set<string> {
  const found = new Set<string>();
  for (const entry of fs.readdirSync(clientDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const relative = path.relative(clientDir, path.join(entry.parentPath, entry.name)).split(path.sep);
    if (relative[0] === "assets") continue;
    found.add(`/${relative.join("/")}`);
  }
  return found;
}

/**
 * The browser build's files: hashed ones under /assets are kept for a year (their names change with
 * their content), the rest (favicon, robots) for an hour. Only their own paths reach the disk: the
 * files outside /assets are listed once at start, and every other request goes straight on.
 *
 * Under /assets, a browser that accepts Brotli or gzip gets the copy the build compressed at the
 * highest setting (scripts/compress-client-build.mjs, decision 066); the compression middleware
 * leaves an answer that already has its encoding alone.
 */
export function clientFiles(clientDir: string): RequestHandler {
  const files = express.Router();
  files.use(
    "/assets",
    expressStaticGzip(path.join(clientDir, "assets"), {
      enableBrotli: true,
      orderPreference: ["br", "gzip"],
      index: false,
      serveStatic: { immutable: true, maxAge: "1y", index: false },
    }),
  );
  const others = express.static(clientDir, { maxAge: "1h", index: false });
  const otherPaths = filesOutsideAssets(clientDir);
  files.use((req, res, next) => (otherPaths.has(req.path) ? others(req, res, next) : next()));
  return files;
}
