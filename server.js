// The production entry (npm start, npm run serve, the Dockerfile, the browser tests, the bench).
// React, React Router and Express pick their production code from NODE_ENV when first loaded, so it
// is set here, whatever the environment says, before the app is imported: a static import would be
// hoisted above this line. Development is `npm run dev` (server/development.ts).
import { fileURLToPath } from "node:url";

process.env.NODE_ENV = "production";

const buildDir = fileURLToPath(new URL("./build/", import.meta.url));
const entry = new URL("./build/server/index.js", import.meta.url);
let app;
try {
  app = await import(entry.href);
} catch (error) {
  if (error?.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes(fileURLToPath(entry))) {
    process.stderr.write("The app is not built yet: run `npm run build` first (or `npm start`, which builds and starts).\n");
    process.exit(1);
  }
  throw error;
}
await app.startServer({ buildDir });
