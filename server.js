// The production entry (npm start, npm run serve, the Dockerfile, the browser tests, the bench).
// React, React Router and Express pick their production code from NODE_ENV when first loaded, so it
// is set here, whatever the environment says, before the app is imported: a static import would be
// hoisted above this line. Development is `npm run dev` (server/development.ts).
import { register } from "node:module";
import { fileURLToPath } from "node:url";
import v8 from "node:v8";

process.env.NODE_ENV = "production";
// Under a sustained load V8 lets the heap grow up to four times what survived its last full
// collection before the next one; a server rendering pages allocates fast and keeps little (about
// 50 MB), so it grew to 650-700 MB. Growing by a fifth instead holds it near 280 MB after a minute of load,
// for 10 to 15% more CPU on a booking step (decision 024). `node --heap-growing-percent=N server.js`
// sets another value (0 is V8's own heuristics).
if (!process.execArgv.some((flag) => flag.startsWith("--heap-growing-percent"))) {
  v8.setFlagsFromString("--heap-growing-percent=20");
}
// React Router's package points Node at its development build whatever NODE_ENV says (its exports
// name no production condition); its production build sits beside it with the same entry files. This
// hook, registered before anything imports the router, loads that one instead, for every importer
// alike (the app and @react-router/express), so there is one copy of the router.
register(
  "data:text/javascript," +
    encodeURIComponent(`
      import { existsSync } from "node:fs";
      import { fileURLToPath } from "node:url";
      const DEVELOPMENT = "/node_modules/react-router/dist/development/";
      export async function resolve(specifier, context, nextResolve) {
        const resolved = await nextResolve(specifier, context);
        if (!resolved.url.includes(DEVELOPMENT)) return resolved;
        const url = resolved.url.replace(DEVELOPMENT, "/node_modules/react-router/dist/production/");
        return existsSync(fileURLToPath(url)) ? { ...resolved, url } : resolved;
      }
    `),
);

const buildDir = fileURLToPath(new URL("./build/", import.meta.url));
const entry = new URL("./build/server/index.js", import.meta.url);
let app;
try {
  app = await import(entry.href);
} catch (error) {
  if (error?.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes(fileURLToPath(entry))) {
    process.stderr.write(
      "The app is not built yet: run `npm run build` first (or `npm start`, which builds and starts).\n",
    );
    process.exit(1);
  }
  throw error;
}
await app.startServer({ buildDir });
