// The app's server build, made by React Router's Vite plugin (imported by server/production.ts).
declare module "virtual:react-router/server-build" {
  import type { ServerBuild } from "react-router";
  const build: ServerBuild;
  export = build;
}
