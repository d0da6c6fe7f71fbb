import type { ServerBuild } from "react-router";
import type { startServer as StartServer } from "./start";

// npm run dev: the app through Vite's dev server, with hot reload. Only types are imported statically:
// the server modules are loaded by Vite, in the same module graph as the routes, so they exist once.
process.env.NODE_ENV = "development";

const vite = await import("vite");
const viteServer = await vite.createServer({ server: { middlewareMode: true } });
const { startServer } = (await viteServer.ssrLoadModule("/server/start.ts")) as { startServer: typeof StartServer };
await startServer({
  mode: "development",
  build: () => viteServer.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
  assets: viteServer.middlewares,
  onClose: () => viteServer.close(),
});
