// The JavaScript every page loads, from the client build's own manifest: the manifest script, the
// entry and its imports, and each route module (with its imports) from the root down to the page.
// It is what a page's HTML lists as module scripts and preloads, for every route at once, with no
// server or browser needed. Run by `npm run bench` beside the bare React Router page built the same
// way; `node bench/page-weight.mjs` prints it for the last build alone, and with `--check` fails when
// a page with a form is over 1.15x the bare page (decision 063).
import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

function readManifest(clientDir) {
  const assets = path.join(clientDir, "assets");
  const file = fs.readdirSync(assets).find((name) => /^manifest-.*\.js$/.test(name));
  if (!file) throw new Error(`no manifest in ${assets}: build first`);
  const source = fs.readFileSync(path.join(assets, file), "utf8");
  const json = source.slice(source.indexOf("{"), source.lastIndexOf("}") + 1);
  return { manifest: JSON.parse(json), manifestFile: `/assets/${file}` };
}

/**
 * Gzip bytes of the JavaScript of every route that draws a page: `{ id, path, bytes, hasAction }`.
 * A route with an action and a page is one with a form.
 */
export function pageWeights(clientDir) {
  const { manifest, manifestFile } = readManifest(clientDir);
  const sizes = new Map();
  const gzipOf = (url) => {
    if (!sizes.has(url)) sizes.set(url, gzipSync(fs.readFileSync(path.join(clientDir, url)), { level: 9 }).length);
    return sizes.get(url);
  };
  const routes = manifest.routes;
  const chainOf = (id) => (id ? [...chainOf(routes[id].parentId), routes[id]] : []);
  const fullPath = (id) =>
    chainOf(id)
      .map((route) => route.path ?? "")
      .filter(Boolean)
      .join("/");
  return Object.values(routes)
    .filter((route) => route.hasDefaultExport && route.id !== "root" && !route.id.endsWith("layout"))
    .map((route) => {
      const files = new Set([manifestFile, manifest.entry.module, ...manifest.entry.imports]);
      for (const step of chainOf(route.id)) for (const file of [step.module, ...(step.imports ?? [])]) files.add(file);
      const bytes = [...files].reduce((sum, file) => sum + gzipOf(file), 0);
      return { id: route.id, path: `/${fullPath(route.id)}`, bytes, hasAction: route.hasAction };
    })
    .sort((a, b) => b.bytes - a.bytes);
}

/** Issue 32's bar: every page with a form at or under this many times the bare page's JavaScript. */
export const FORM_PAGE_TARGET = 1.15;

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = path.resolve(import.meta.dirname, "..");
  const app = pageWeights(path.join(root, "build", "client"));
  const bareDir = path.join(root, "bench", "bare", "build", "client");
  const bare = fs.existsSync(bareDir) ? pageWeights(bareDir).find((route) => route.path === "/") : null;
  console.table(
    app.map((route) => ({
      page: route.path,
      form: route.hasAction ? "yes" : "",
      "JS gzip KB": (route.bytes / 1024).toFixed(1),
      "x bare": bare ? (route.bytes / bare.bytes).toFixed(2) : "build bench/bare first",
      [`form <= ${FORM_PAGE_TARGET}x`]:
        bare && route.hasAction ? (route.bytes / bare.bytes <= FORM_PAGE_TARGET ? "met" : "OVER") : "",
    })),
  );
  // `--check`: fails when a page with a form is over the bar (or the bare page is not built).
  if (process.argv.includes("--check")) {
    const over = bare ? app.filter((route) => route.hasAction && route.bytes / bare.bytes > FORM_PAGE_TARGET) : app;
    if (!bare) console.error("Build the bare page first: cd bench/bare && ../../node_modules/.bin/react-router build");
    else if (over.length)
      console.error(`Over ${FORM_PAGE_TARGET}x the bare page: ${over.map((route) => route.path).join(", ")}`);
    process.exitCode = over.length ? 1 : 0;
  }
}
