import express, { type RequestHandler } from "express";
import path from "node:path";

/**
 * The browser build's files: hashed ones under /assets are kept for a year (their names change with
 * their content), the rest (favicon, robots) for an hour.
 */
export function clientFiles(clientDir: string): RequestHandler {
  const files = express.Router();
  files.use("/assets", express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }));
  files.use(express.static(clientDir, { maxAge: "1h", index: false }));
  return files;
}
