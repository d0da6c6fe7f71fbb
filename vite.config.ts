import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";
import path from "node:path";

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [reactRouter()],
  resolve: {
    alias: {
      "~": path.resolve(import.meta.dirname, "app"),
      "#server": path.resolve(import.meta.dirname, "server"),
    },
  },
  build: {
    assetsInlineLimit: 0,
    // One server build: the Express app and the routes are compiled together into build/server
    // (docs/decisions/010). Its source maps tell scripts/check-server-build.mjs which modules each
    // file holds (and map stack traces under node --enable-source-maps).
    ...(isSsrBuild
      ? { rollupOptions: { input: "./server/production.ts" }, sourcemap: true }
      : // The browser's code is minified by terser, two passes: about 3 KB less (gzip) on every page than
        // esbuild's minifier, most of it in React Router's own chunk (docs/decisions/024).
        { minify: "terser" as const, terserOptions: { compress: { passes: 2 }, format: { comments: false } } }),
  },
}));
