// Run by `npm run build` after `react-router build`: checks the production server build's shape
// (docs/decisions/010-one-server-build.md), from its files and source maps.
// 1. One server build: every server module of this project is in exactly one file of build/, so
//    there is one copy of each class and cache (two copies once turned outages into 500s).
// 2. The sandbox is never loaded with a configured back end: no file that build/server/index.js
//    imports statically, directly or not, holds sandbox code; it is reached only by import().
// 3. The analytics collector thread's file imports nothing but Node's own modules, so the thread
//    loads that one file and not the server (docs/decisions/026-analytics.md).
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const buildDir = path.join(root, "build");
const clientDir = path.join(buildDir, "client");
const entry = path.join(buildDir, "server", "index.js");
const sandboxDir = path.join(root, "server", "spa-sandbox") + path.sep;
const relative = (file) => path.relative(root, file);

function filesUnder(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return file === clientDir ? [] : filesUnder(file);
    return /\.(m?js|cjs)$/.test(entry.name) ? [file] : [];
  });
}

/** The project's own source files compiled into one output file (npm packages stay external). */
function sourcesOf(file) {
  const mapFile = `${file}.map`;
  if (!fs.existsSync(mapFile)) return null;
  const map = JSON.parse(fs.readFileSync(mapFile, "utf8"));
  return map.sources
    .filter((source) => !source.startsWith("\0") && !source.includes("virtual:"))
    .map((source) => path.resolve(path.dirname(mapFile), map.sourceRoot ?? "", source))
    .filter((source) => source.startsWith(root + path.sep) && !source.includes(`${path.sep}node_modules${path.sep}`));
}

/** Relative modules a file imports statically (import/export ... from, bare import); import() is left out. */
function staticImportsOf(file) {
  const code = fs.readFileSync(file, "utf8");
  const specifiers = [
    ...code.matchAll(/(?:^|[;\n])\s*(?:import|export)\s*(?:[\w$*{}\s,]*?\bfrom\s*)?["'](\.{1,2}\/[^"']+)["']/g),
  ].map((m) => m[1]);
  return specifiers.map((specifier) => path.resolve(path.dirname(file), specifier));
}

const problems = [];
if (!fs.existsSync(entry)) {
  process.stderr.write(`check-server-build: ${relative(entry)} is missing; run react-router build first.\n`);
  process.exit(1);
}

const serverFiles = filesUnder(buildDir);
const filesOfSource = new Map();
for (const file of serverFiles) {
  const sources = sourcesOf(file);
  if (!sources) {
    problems.push(
      `${relative(file)} has no source map: it is not from the one server build (delete build/ and build again)`,
    );
    continue;
  }
  for (const source of new Set(sources)) filesOfSource.set(source, [...(filesOfSource.get(source) ?? []), file]);
}
for (const [source, files] of filesOfSource) {
  if (files.length > 1) {
    problems.push(
      `${relative(source)} is compiled into ${files.length} files (a file left by an older build? delete build/ and build again): ${files.map(relative).join(", ")}`,
    );
  }
}
for (const required of ["server/app.ts", "server/start.ts", "app/root.tsx", "server/spa-sandbox/index.ts"]) {
  if (!filesOfSource.has(path.join(root, required))) problems.push(`${required} is not in the server build`);
}

const loadedAtStart = new Set();
const pending = [entry];
while (pending.length > 0) {
  const file = pending.pop();
  if (loadedAtStart.has(file)) continue;
  loadedAtStart.add(file);
  pending.push(...staticImportsOf(file).filter((imported) => fs.existsSync(imported)));
}
for (const file of loadedAtStart) {
  const sandboxSources = (sourcesOf(file) ?? []).filter((source) => source.startsWith(sandboxDir));
  if (sandboxSources.length > 0) {
    problems.push(
      `${relative(file)} is loaded at every start but holds sandbox code: ${sandboxSources.map(relative).join(", ")}`,
    );
  }
}

const collectorThreadSource = path.join(root, "server", "analytics", "collector-thread.server.ts");
const [collectorThreadFile] = filesOfSource.get(collectorThreadSource) ?? [];
if (!collectorThreadFile) problems.push(`${relative(collectorThreadSource)} is not in the server build`);
else {
  const code = fs.readFileSync(collectorThreadFile, "utf8");
  const specifiers = [
    ...code.matchAll(/(?:^|[;\n])\s*(?:import|export)\s*(?:[\w$*{}\s,]*?\bfrom\s*)?["']([^"']+)["']/g),
  ].map((m) => m[1]);
  const others = specifiers.filter((specifier) => !specifier.startsWith("node:"));
  if (others.length > 0) {
    problems.push(
      `${relative(collectorThreadFile)} (the analytics collector thread) imports more than Node's own modules, which the thread would load: ${others.join(", ")}; see ANALYTICS_THREAD_MODULES in vite.config.ts`,
    );
  }
}

if (problems.length > 0) {
  process.stderr.write(
    `The server build is not as docs/decisions/010-one-server-build.md requires:\n- ${problems.join("\n- ")}\n`,
  );
  process.exit(1);
}
process.stdout.write(
  `Server build checked: ${filesOfSource.size} modules, each in one of ${serverFiles.length} files; ${loadedAtStart.size} loaded at start, none with sandbox code; the analytics thread's file imports only Node's modules.\n`,
);
